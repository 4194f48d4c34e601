import type { CompareRunChoice, ComparisonRequest } from '../../../src/core/runComparison';
import {
  CompareReadyCommand,
  CompareRunsRequest,
  DidChangeCompareNotification,
  GetCompareChoicesRequest,
  OpenCompareEpisodeCommand,
  compareStateVersion,
  type CompareShownData,
  type CompareSideKey,
  type CompareViewState,
  type ComparisonView,
} from '../../../src/protocol/comparePanel';
import { isViewMethod } from '../../../src/protocol/viewData';
import { h } from '../dom';
import { renderNotes } from '../group/header';
import type { Host } from '../host';
import type { HostIpc } from '../ipc';
import { methodLabels } from '../methodLabels';
import { renderAgentTable } from './agentTable';
import type { ExamplePairView } from './compareText';
import { intervalModel } from './intervalModel';
import { ComparePicker } from './picker';
import { initialSelection } from './pickerModel';
import { renderIntervals } from './renderIntervals';
import { renderExamples, renderFlagChanges, renderPairing } from './sections';
import { restoreCompareState, type RestoredCompareState } from './state';

/**
 * The Compare webview: listens to the host for the folder, asks for its runs, offers two sides and
 * a method, asks for the comparison and draws it (credit-methods.md §5.5); persists the request so
 * a reload shows it again. One instance per page.
 */
export class CompareApp {
  private saved: RestoredCompareState | undefined;
  private shown: CompareShownData | null = null;
  private request: ComparisonRequest | null = null;
  private comparison: ComparisonView | null = null;
  private readonly result = h('div', 'compare-result');
  private token = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly ipc: HostIpc,
    private readonly host: Host<CompareViewState>,
  ) {}

  start(): void {
    this.saved = restoreCompareState(this.host.getState());
    this.request = this.saved.request;
    this.root.replaceChildren(h('p', 'placeholder', 'Loading the runs…'));
    this.ipc.on(DidChangeCompareNotification, (shown) => {
      this.show(shown);
    });
    this.ipc.sendReady(
      CompareReadyCommand,
      () => ({ stateVersion: compareStateVersion, folder: this.saved?.folder ?? null }),
      () => this.shown !== null,
    );
  }

  private show(shown: CompareShownData): void {
    const previous = this.shown?.folder ?? this.saved?.folder ?? null;
    if (previous !== shown.folder) this.request = null;
    this.shown = shown;
    const token = ++this.token;
    this.ipc.request(GetCompareChoicesRequest, { folder: shown.folder }).then(
      (choices) => {
        if (token === this.token) this.renderForm(shown, choices.runs);
      },
      (error: unknown) => {
        if (token === this.token) this.fail('The runs of this index could not be read', error);
      },
    );
  }

  private renderForm(shown: CompareShownData, runs: readonly CompareRunChoice[]): void {
    const header = h('header', 'compare-header', h('h1', undefined, 'Compare runs'));
    if (runs.length === 0) {
      this.root.replaceChildren(header, h('p', 'notice', 'This index has no runs yet: index a run folder first.'));
      return;
    }
    const initial = initialSelection(runs, this.request, shown.defaultMethod);
    const picker = new ComparePicker(runs, initial.selection, (request) => {
      this.compare(request);
    });
    const note = initial.note ? [h('p', 'notice', initial.note)] : [];
    this.root.replaceChildren(header, picker.element, ...note, this.result);
    if (initial.restored && this.request) this.compare(this.request);
    else this.result.replaceChildren(h('p', 'placeholder', 'Choose side A and side B, then Compare.'));
  }

  private compare(request: ComparisonRequest): void {
    const shown = this.shown;
    if (!shown) return;
    this.request = request;
    this.save();
    const token = ++this.token;
    const busy = h('p', 'placeholder', 'Comparing…');
    busy.setAttribute('role', 'status');
    this.result.replaceChildren(busy);
    this.ipc.request(CompareRunsRequest, { folder: shown.folder, request }).then(
      (comparison) => {
        if (token !== this.token) return;
        this.comparison = comparison;
        this.renderResult(comparison);
      },
      (error: unknown) => {
        if (token === this.token) this.fail('The runs could not be compared', error, this.result);
      },
    );
  }

  private renderResult(c: ComparisonView): void {
    const method = isViewMethod(c.method) ? methodLabels[c.method] : c.method;
    const title = `${c.b.label} vs ${c.a.label}`;
    const width = Math.max(360, Math.min(760, this.root.clientWidth - 40));
    const chartTitle = `Credit difference B \u2212 A per agent under ${method}, with 95% intervals; the table lists the same numbers`;
    const parts: HTMLElement[] = [
      h('h2', 'result-title', title),
      h('p', 'result-sides', `A: ${c.a.label} \u00b7 B: ${c.b.label} \u00b7 ${method} credit`),
      renderPairing(c),
    ];
    const notes = renderNotes(c.notes);
    if (notes) parts.push(notes);
    parts.push(
      h('h2', undefined, 'Credit per agent, B \u2212 A'),
      h(
        'div',
        'compare-figure',
        h('div', 'compare-chart', renderIntervals(intervalModel(c.agents), width, chartTitle)),
        renderAgentTable(c),
      ),
      renderFlagChanges(c),
      renderExamples(c, (pair, side) => {
        this.open(pair, side);
      }),
    );
    this.result.replaceChildren(...parts);
  }

  private open(pair: ExamplePairView, side: CompareSideKey): void {
    const { shown, comparison } = this;
    if (!shown || !comparison) return;
    const run = side === 'a' ? comparison.a.run : comparison.b.run;
    const episode = side === 'a' ? pair.episodeA : pair.episodeB;
    this.ipc.send(OpenCompareEpisodeCommand, { folder: shown.folder, side, run, episode });
  }

  private fail(what: string, error: unknown, into: HTMLElement = this.root): void {
    const reason = error instanceof Error ? error.message : String(error);
    const message = h('p', 'error', `${what}: ${reason}`);
    message.setAttribute('role', 'alert');
    into.replaceChildren(message);
  }

  private save(): void {
    const shown = this.shown;
    if (!shown) return;
    this.host.setState({ version: compareStateVersion, folder: shown.folder, request: this.request });
  }
}
