import {
  DidChangeGroupNotification,
  GetGroupRequest,
  GroupReadyCommand,
  OpenRolloutCommand,
  DiffRolloutCommand,
  groupStateVersion,
  type GroupRolloutView,
  type GroupShownData,
  type GroupViewData,
  type GroupViewState,
} from '../../../src/protocol/groupPanel';
import { viewMethods, type ViewMethod } from '../../../src/protocol/viewData';
import { h } from '../dom';
import type { Host } from '../host';
import type { HostIpc } from '../ipc';
import { dropdown, field } from '../kit/controls';
import { formatInt } from '../kit/format';
import { methodLabels } from '../methodLabels';
import { renderGroupHeader, renderNotes } from './header';
import { chooseMethod, restoreGroupState, sameGroup, type RestoredGroupState } from './state';
import { renderRollouts, renderSignals } from './tables';
import { creditLegend } from '../charts/legend';

/**
 * The group webview: listens to the host for the group to show, asks for it under the chosen
 * method, renders the rollouts side by side, and persists its UI state. One instance per page.
 */
export class GroupApp {
  private saved: RestoredGroupState | undefined;
  private shown: GroupShownData | null = null;
  private method: ViewMethod | null = null;
  private data: GroupViewData | null = null;
  private focusedEpisode: number | null = null;
  private token = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly ipc: HostIpc,
    private readonly host: Host<GroupViewState>,
  ) {}

  start(): void {
    this.saved = restoreGroupState(this.host.getState());
    this.focusedEpisode = this.saved.focusedEpisode;
    this.root.replaceChildren(h('p', 'placeholder', 'Loading the group…'));
    this.ipc.on(DidChangeGroupNotification, (shown) => {
      this.show(shown);
    });
    this.root.addEventListener('keydown', (event) => {
      this.onKey(event);
    });
    this.root.addEventListener('focusin', (event) => {
      const episode = (event.target as HTMLElement).dataset['episode'];
      if (episode === undefined) return;
      this.focusedEpisode = Number(episode);
      this.save();
    });
    this.ipc.sendReady(
      GroupReadyCommand,
      () => ({ stateVersion: groupStateVersion, ref: this.saved?.ref ?? null }),
      () => this.shown !== null,
    );
  }

  private show(shown: GroupShownData): void {
    const other = !sameGroup(this.shown?.ref ?? this.saved?.ref, shown.ref);
    if (this.method === null || shown.openedMethod !== null) this.method = chooseMethod(this.saved, shown);
    if (other) this.focusedEpisode = null;
    this.shown = shown;
    this.load();
  }

  private load(): void {
    const { shown, method } = this;
    if (!shown || !method) return;
    const token = ++this.token;
    this.ipc.request(GetGroupRequest, { ref: shown.ref, method }).then(
      (data) => {
        if (token !== this.token) return;
        this.data = data;
        this.render();
        this.save();
      },
      (error: unknown) => {
        if (token !== this.token) return;
        const reason = error instanceof Error ? error.message : String(error);
        this.root.replaceChildren(h('p', 'error', `The group could not be read: ${reason}`));
      },
    );
  }

  private render(): void {
    const data = this.data;
    if (!data) return;
    const choices = viewMethods.map((m) => ({ value: m, label: methodLabels[m] }));
    const methods = dropdown('Credit method', choices, data.method, (value) => {
      this.method = viewMethods.find((m) => m === value) ?? data.method;
      this.load();
    });
    const controls = h('div', 'toolbar', field('method-label', 'Credit', methods));
    const parts: HTMLElement[] = [renderGroupHeader(data, controls)];
    const notes = renderNotes(data.notes);
    if (notes) parts.push(notes);
    if (data.rollouts.length > 0) {
      parts.push(
        h('h2', undefined, `Rollouts, best reward first (${formatInt(data.rollouts.length)})`),
        creditLegend(data.creditDomain),
        renderRollouts(
          data,
          (rollout) => {
            this.open(rollout);
          },
          (rollout) => {
            const { shown, method } = this;
            if (shown && method)
              this.ipc.send(DiffRolloutCommand, { ref: shown.ref, episodeId: rollout.episodeId, method });
          },
        ),
        h('h2', undefined, 'Advantage by signal'),
        renderSignals(data),
      );
    }
    this.root.replaceChildren(...parts);
    this.restoreFocus();
  }

  private open(rollout: GroupRolloutView): void {
    const { shown, method } = this;
    if (!shown || !method) return;
    this.focusedEpisode = rollout.episodeId;
    this.save();
    this.ipc.send(OpenRolloutCommand, { ref: shown.ref, episodeId: rollout.episodeId, method });
  }

  /** Arrow keys move between the rollouts' buttons (Tab reaches them too; Enter opens). */
  private onKey(event: KeyboardEvent): void {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const buttons = this.rolloutButtons();
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    event.preventDefault();
    buttons[Math.max(0, Math.min(buttons.length - 1, at + (event.key === 'ArrowDown' ? 1 : -1)))]?.focus();
  }

  private rolloutButtons(): HTMLButtonElement[] {
    return [...this.root.querySelectorAll<HTMLButtonElement>('button.rollout-open')];
  }

  /** Focus back on the rollout it was on, when a re-render took it away (never away from another control). */
  private restoreFocus(): void {
    if (this.focusedEpisode === null || (document.activeElement && document.activeElement !== document.body)) return;
    const id = String(this.focusedEpisode);
    this.rolloutButtons()
      .find((b) => b.dataset['episode'] === id)
      ?.focus({ preventScroll: true });
  }

  private save(): void {
    const { shown, method } = this;
    if (!shown || !method) return;
    this.host.setState({
      version: groupStateVersion,
      ref: shown.ref,
      method,
      focusedEpisode: this.focusedEpisode,
    });
  }
}
