import {
  DidChangeDiffNotification,
  DiffReadyCommand,
  GetDiffRequest,
  GetDiffTextsRequest,
  OpenDiffSideCommand,
  episodeDiffStateVersion,
  type DiffShownData,
  type EpisodeDiffData,
  type EpisodeDiffViewState,
} from '../../../src/protocol/episodeDiffPanel';
import { viewMethods, type ViewMethod } from '../../../src/protocol/viewData';
import { creditLegend } from '../charts/legend';
import { domainBound } from '../charts/creditScale';
import { h } from '../dom';
import type { Host } from '../host';
import type { HostIpc } from '../ipc';
import { button, dropdown, field } from '../kit/controls';
import { formatInt } from '../kit/format';
import { methodLabels } from '../methodLabels';
import { chooseMethod } from '../group/state';
import { renderDiffHeader, type Side } from './header';
import { differences, nextDifference, rowChanges } from './model';
import { fillTexts, rowElement } from './rows';
import { restoreDiffState, samePair, type RestoredDiffState } from './state';

/** Rows whose texts one request asks for (at most the protocol's maxDiffTextWindow). */
const textWindow = 50;

/**
 * The diff webview: listens to the host for the pair to show, asks for its aligned rows under the
 * chosen method, renders every row's frame and credit at once (small), and asks for the texts of
 * the rows that come into view, a window at a time, so a 1,000-message pair reads a few windows.
 * `n` / `p` (or Alt+F5 / Shift+Alt+F5, as in VS Code's diff editor) move between the differences.
 */
export class DiffApp {
  private saved: RestoredDiffState | undefined;
  private shown: DiffShownData | null = null;
  private method: ViewMethod | null = null;
  private data: EpisodeDiffData | null = null;
  private found: number[] = [];
  private focusedRow: number | null = null;
  private token = 0;
  private requested = new Set<number>();
  private observer: IntersectionObserver | null = null;
  private status: HTMLElement | null = null;

  constructor(
    private readonly root: HTMLElement,
    private readonly ipc: HostIpc,
    private readonly host: Host<EpisodeDiffViewState>,
  ) {}

  start(): void {
    this.saved = restoreDiffState(this.host.getState());
    this.focusedRow = this.saved.focusedRow;
    this.root.replaceChildren(h('p', 'placeholder', 'Loading the diff…'));
    this.ipc.on(DidChangeDiffNotification, (shown) => {
      this.show(shown);
    });
    // On the document: after a click on text the focus is on the body, outside the app's root.
    document.addEventListener('keydown', (event) => {
      this.onKey(event);
    });
    this.ipc.sendReady(
      DiffReadyCommand,
      () => ({ stateVersion: episodeDiffStateVersion, ref: this.saved?.ref ?? null }),
      () => this.shown !== null,
    );
  }

  private show(shown: DiffShownData): void {
    if (!samePair(this.shown?.ref ?? this.saved?.ref, shown.ref)) this.focusedRow = null;
    if (this.method === null || shown.openedMethod !== null) this.method = chooseMethod(this.saved, shown);
    this.shown = shown;
    this.load();
  }

  private load(): void {
    const { shown, method } = this;
    if (!shown || !method) return;
    const token = ++this.token;
    this.ipc.request(GetDiffRequest, { ref: shown.ref, method }).then(
      (data) => {
        if (token !== this.token) return;
        this.data = data;
        this.found = differences(data.rows);
        this.render(data);
        this.save();
      },
      (error: unknown) => {
        if (token !== this.token) return;
        const reason = error instanceof Error ? error.message : String(error);
        this.root.replaceChildren(h('p', 'error', `The diff could not be read: ${reason}`));
      },
    );
  }

  private render(data: EpisodeDiffData): void {
    this.observer?.disconnect();
    this.requested = new Set();
    const bound = domainBound(data.creditDomain);
    const list = h('div', 'diff-rows');
    list.setAttribute('role', 'list');
    list.setAttribute(
      'aria-label',
      `Messages of A and B aligned by agent and turn (${formatInt(data.rows.length)} rows)`,
    );
    const elements = data.rows.map((_, i) => rowElement(data, i, bound));
    list.append(...elements);
    const parts: HTMLElement[] = [
      renderDiffHeader(data, this.toolbar(data), (side) => {
        this.openSide(side);
      }),
      creditLegend(data.creditDomain),
      h(
        'div',
        'columns-head',
        h('span', undefined, ''),
        h('span', undefined, 'A'),
        h('span', undefined, 'B'),
        h('span', undefined, 'B − A'),
      ),
      list,
    ];
    if (data.rowsLeftOut > 0)
      parts.push(h('p', 'notice', `${formatInt(data.rowsLeftOut)} more aligned rows are not shown.`));
    this.root.replaceChildren(...parts);
    this.observe(elements);
    if (this.focusedRow !== null && this.focusedRow < data.rows.length) this.moveTo(this.focusedRow, false);
  }

  private toolbar(data: EpisodeDiffData): HTMLElement {
    const choices = viewMethods.map((m) => ({ value: m, label: methodLabels[m] }));
    const methods = dropdown('Credit method', choices, data.method, (value) => {
      this.method = viewMethods.find((m) => m === value) ?? data.method;
      this.load();
    });
    this.status = h('span', 'diff-status', `${formatInt(this.found.length)} differences · n / p: next / previous`);
    this.status.setAttribute('aria-live', 'polite');
    return h(
      'div',
      'toolbar',
      field('method-label', 'Credit', methods),
      button('Previous difference', () => this.step(-1), 'secondary', 'Previous difference (p, Shift+Alt+F5)'),
      button('Next difference', () => this.step(1), 'secondary', 'Next difference (n, Alt+F5)'),
      this.status,
    );
  }

  /** Asks for the texts of each window of rows when one of its rows comes near the view. */
  private observe(elements: readonly HTMLElement[]): void {
    this.observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          const row = Number((entry.target as HTMLElement).dataset['row']);
          this.requestWindow(Math.floor(row / textWindow), elements);
        }
      },
      { rootMargin: '600px 0px' },
    );
    for (const element of elements) this.observer.observe(element);
  }

  private requestWindow(windowIndex: number, elements: readonly HTMLElement[]): void {
    const { shown } = this;
    if (!shown || this.requested.has(windowIndex)) return;
    this.requested.add(windowIndex);
    const token = this.token;
    const offset = windowIndex * textWindow;
    this.ipc.request(GetDiffTextsRequest, { ref: shown.ref, offset, limit: textWindow }).then(
      (texts) => {
        if (token !== this.token) return;
        for (const row of texts.rows) {
          const element = elements[row.row];
          if (element) fillTexts(element, row);
        }
        for (const element of elements.slice(offset, offset + textWindow)) this.observer?.unobserve(element);
      },
      (error: unknown) => {
        if (token !== this.token) return;
        this.requested.delete(windowIndex);
        const reason = error instanceof Error ? error.message : String(error);
        for (const element of elements.slice(offset, offset + textWindow))
          for (const slot of element.querySelectorAll('.text.is-loading'))
            slot.textContent = `text unavailable: ${reason}`;
      },
    );
  }

  private onKey(event: KeyboardEvent): void {
    const target = event.target as HTMLElement;
    if (target.closest('.control, input, textarea, select')) return;
    const next = (event.key === 'n' && !event.altKey) || (event.key === 'F5' && event.altKey && !event.shiftKey);
    const previous = (event.key === 'p' && !event.altKey) || (event.key === 'F5' && event.altKey && event.shiftKey);
    if (!next && !previous) return;
    event.preventDefault();
    this.step(next ? 1 : -1);
  }

  private step(direction: 1 | -1): void {
    const row = nextDifference(this.found, this.focusedRow, direction);
    if (row === null) {
      if (this.status) this.status.textContent = 'No differences: A and B are the same under this method.';
      return;
    }
    this.moveTo(row, true);
  }

  /** Makes row `index` the current one: marked, in view, focused when asked, said in the status line. */
  private moveTo(index: number, focus: boolean): void {
    const element = this.root.querySelector<HTMLElement>(`.diff-row[data-row="${String(index)}"]`);
    const row = this.data?.rows[index];
    if (!element || !row) return;
    for (const current of this.root.querySelectorAll('.diff-row.is-current')) current.classList.remove('is-current');
    element.classList.add('is-current');
    if (focus) element.focus({ preventScroll: true });
    element.scrollIntoView({ block: 'center' });
    this.focusedRow = index;
    const at = this.found.indexOf(index);
    const changes = rowChanges(row);
    if (this.status)
      this.status.textContent = `${at >= 0 ? `Difference ${formatInt(at + 1)} of ${formatInt(this.found.length)}` : `Row ${formatInt(index + 1)}`}: ${row.agent}, turn ${formatInt(row.turn + 1)}${changes.length > 0 ? ` — ${changes.join(', ')}` : ''}`;
    this.save();
  }

  private openSide(side: Side): void {
    const { shown, method } = this;
    if (shown && method) this.ipc.send(OpenDiffSideCommand, { ref: shown.ref, side, method });
  }

  private save(): void {
    const { shown, method } = this;
    if (!shown || !method) return;
    this.host.setState({ version: episodeDiffStateVersion, ref: shown.ref, method, focusedRow: this.focusedRow });
  }
}
