import {
  CancelRecomputeCommand,
  DidChangeEpisodeNotification,
  DidChangeRecomputeNotification,
  EpisodeReadyCommand,
  GetCreditRequest,
  GetMessagesRequest,
  GetPromptRequest,
  GetRawRecordRequest,
  GetTimelineRequest,
  NavigateEpisodeCommand,
  OpenGroupCommand,
  DiffWithCommand,
  OpenRunWindowsCommand,
  RecomputeCommand,
  RevealTraceLineCommand,
  episodeStateVersion,
  type EpisodeCreditView,
  type EpisodeViewData,
  type EpisodeViewState,
  type LabelView,
} from '../../../src/protocol/episodePanel';
import type { ViewMethod } from '../../../src/protocol/viewData';
import { GetEpisodeInfluenceRequest } from '../../../src/protocol/influence';
import { InfluenceView } from '../influence/influenceView';
import { h } from '../dom';
import type { Host } from '../host';
import type { HostIpc } from '../ipc';
import { agentBarsModel } from './bars';
import { renderAgents } from './agentsView';
import { renderCounterfactuals, renderFlags, renderOutcome } from './detailsView';
import { Finder } from './finder';
import { renderBlame, renderHeader } from './header';
import { bindKeys } from './keyBindings';
import { renderLegend } from './legend';
import { MessageSource } from './messageSource';
import { renderNotices } from './notices';
import { RecomputeView } from './recomputeView';
import { buildShell, fill, type Shell } from './shell';
import {
  initialUi,
  restoreEpisodeState,
  sameRef,
  toSavedState,
  type EpisodeUi,
  type RestoredEpisodeState,
} from './state';
import { Swimlanes } from './swimlanes/swimlanes';
import { TaskView } from './taskView';
import { creditTint } from './tint';
import { Toolbar } from './toolbar';
import { VirtualList } from './virtualList';
import { plural } from '../../../src/core/plural';

/** Delay before a scroll position is persisted (scrolling fires every frame). */
const saveDelayMs = 120;

/**
 * The Episode webview: listens to the host, shows the episode it sends, pulls message windows and
 * credit, and persists its UI state. One instance per page.
 */
export class EpisodeApp {
  readonly shell: Shell = buildShell();
  readonly finder = new Finder();
  private saved: RestoredEpisodeState | undefined;
  private data: EpisodeViewData | null = null;
  private ui: EpisodeUi | null = null;
  private list: VirtualList | null = null;
  private source: MessageSource | null = null;
  private toolbar: Toolbar | null = null;
  private readonly recompute: RecomputeView;
  private readonly task: TaskView;
  private readonly lanes: Swimlanes;
  private credit: EpisodeCreditView | null = null;
  private creditLoading = false;
  private creditError: string | null = null;
  private creditToken = 0;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private noticesText = '';
  private readonly influence = new InfluenceView();

  constructor(
    private readonly app: HTMLElement,
    readonly ipc: HostIpc,
    private readonly host: Host<EpisodeViewState>,
  ) {
    this.recompute = new RecomputeView({
      recompute: () => this.startRecompute(),
      cancel: () => ipc.send(CancelRecomputeCommand, {}),
    });
    this.lanes = new Swimlanes({
      fetch: (ref) => ipc.request(GetTimelineRequest, { ref }),
      open: (seq) => this.list?.focus(seq),
    });
    this.task = new TaskView({
      prompt: ({ ref }) => ipc.request(GetPromptRequest, { ref }),
      rawRecord: ({ ref }) => ipc.request(GetRawRecordRequest, { ref }),
    });
  }

  start(): void {
    this.saved = restoreEpisodeState(this.host.getState());
    this.app.replaceChildren(h('p', 'placeholder', 'Loading the episode…'));
    this.ipc.on(DidChangeEpisodeNotification, (data) => this.showEpisode(data));
    this.ipc.on(DidChangeRecomputeNotification, (progress) => {
      if (!this.data) return;
      this.recompute.update(progress);
      if (progress.state === 'done') this.loadCredit();
    });
    bindKeys(this);
    window.addEventListener('pagehide', () => this.save());
    this.ipc.sendReady(
      EpisodeReadyCommand,
      () => ({ stateVersion: episodeStateVersion, ref: this.saved?.ref ?? null }),
      () => this.data !== null,
    );
  }

  get episode(): { data: EpisodeViewData; ui: EpisodeUi; list: VirtualList; toolbar: Toolbar } | null {
    return this.data && this.ui && this.list && this.toolbar
      ? { data: this.data, ui: this.ui, list: this.list, toolbar: this.toolbar }
      : null;
  }

  get messages(): MessageSource | null {
    return this.source;
  }

  navigate(direction: 'next' | 'previous'): void {
    this.ipc.send(NavigateEpisodeCommand, { direction });
  }

  announce(text: string): void {
    this.shell.live.textContent = text;
  }

  private showEpisode(data: EpisodeViewData): void {
    const same = this.data !== null && sameRef(this.data.ref, data.ref);
    const previous = this.data;
    this.data = data;
    if (!same || !this.ui) {
      const saved = this.saved ?? (this.ui && previous ? toSavedState(previous.ref, this.ui) : undefined);
      this.saved = undefined;
      this.ui = initialUi(saved, data);
      this.credit = null;
      this.finder.reset();
      this.task.show(data);
      this.mount(data, this.ui);
    } else {
      this.task.update(data);
      this.refresh(data, this.ui);
      // The same episode opened again from the dashboard: its method wins (initialUi does it for a new one).
      if (data.openedMethod) this.setMethod(data.openedMethod, false);
    }
    this.list?.setLabels(labelsBySeq(data.labels));
    this.lanes.setLabels(labelsBySeq(data.labels));
    this.lanes.show(data, this.ui.focusedSeq);
    this.toolbar?.offerRouting(data.routingLogged ?? true);
    this.loadCredit();
    this.influence.show(() => this.ipc.request(GetEpisodeInfluenceRequest, { ref: data.ref }), 'in this episode');
    this.save();
    this.announce(`Episode ${data.externalId}: ${plural(data.messageCount, 'message')}`);
  }

  private mount(data: EpisodeViewData, ui: EpisodeUi): void {
    const hadFocus = this.list?.element.contains(document.activeElement) ?? false;
    this.list?.dispose();
    this.toolbar ??= this.createToolbar(ui.method);
    this.toolbar.setMethod(ui.method);
    this.recompute.setMethod(ui.method);
    this.list = new VirtualList(ui, messageCount(data), this.newSource(data), (kind) => {
      this.save(kind === 'scroll');
      if (kind === 'ui') this.lanes.follow(ui.focusedSeq);
    });
    this.renderStatic(data);
    if (this.app.firstChild !== this.shell.root) {
      fill(this.shell.toolbar, this.toolbar.element);
      fill(this.shell.recompute, this.recompute.element);
      this.app.replaceChildren(this.shell.root);
    }
    this.list.setQuery(this.toolbar.query);
    this.list.start();
    if (hadFocus) this.list.focus(ui.focusedSeq);
  }

  /** The same episode again (the index changed): new data; scroll position, focus and expanded rows stay. */
  private refresh(data: EpisodeViewData, ui: EpisodeUi): void {
    const list = this.list;
    if (!list) return;
    ui.topSeq = Math.min(ui.topSeq, Math.max(0, data.messageCount - 1));
    ui.focusedSeq = Math.min(ui.focusedSeq, Math.max(0, data.messageCount - 1));
    this.renderStatic(data);
    list.setCount(messageCount(data));
    list.setSource(this.newSource(data));
  }

  private createToolbar(method: ViewMethod): Toolbar {
    return new Toolbar(method, {
      setMethod: (next) => this.setMethod(next),
      navigate: (direction) => this.navigate(direction),
      reveal: () => this.ipc.send(RevealTraceLineCommand, {}),
      findInput: (text) => {
        this.finder.reset();
        this.list?.setQuery(text.trim().toLowerCase());
      },
      findNext: (text, direction) => void this.find(text, direction),
      leaveFind: () => this.ui && this.list?.focus(this.ui.focusedSeq),
    });
  }

  private newSource(data: EpisodeViewData): MessageSource {
    this.source?.dispose();
    const { ref } = data;
    this.source = new MessageSource(
      messageCount(data),
      (offset, limit) => this.ipc.request(GetMessagesRequest, { ref, offset, limit }),
      () => this.list?.refresh(),
    );
    return this.source;
  }

  /** Header, evidence and timeline frame: everything that depends on the episode but not on credit. */
  private renderStatic(data: EpisodeViewData): void {
    fill(
      this.shell.header,
      renderHeader(
        data,
        () => {
          if (this.ui) this.ipc.send(OpenGroupCommand, { ref: data.ref, method: this.ui.method });
        },
        () => {
          if (this.ui) this.ipc.send(DiffWithCommand, { ref: data.ref, method: this.ui.method });
        },
      ),
    );
    if (this.shell.task.firstChild !== this.task.element) fill(this.shell.task, this.task.element);
    fill(
      this.shell.details,
      renderCounterfactuals(data.counterfactuals),
      renderFlags(data.flags, data.runWindows, () => {
        this.ipc.send(OpenRunWindowsCommand, { ref: data.ref });
      }),
      renderOutcome(data, (seq) => this.list?.focus(seq)),
      this.influence.element,
    );
    this.recompute.setEvaluator(data.evaluator);
    const empty =
      data.readError !== null
        ? h('p', 'placeholder', 'Messages are unavailable because the trace line could not be read back.')
        : data.messageCount === 0
          ? h('p', 'placeholder', 'This episode has no messages.')
          : null;
    const content = empty ?? this.list?.element ?? null;
    if (this.shell.timeline.firstChild !== content) fill(this.shell.timeline, content);
    const lanes = empty ? null : this.lanes.element;
    if (this.shell.lanes.firstChild !== lanes) fill(this.shell.lanes, lanes);
    this.renderCredit();
  }

  /** Shows credit under `method`; `load` false when the caller loads the credit itself. */
  private setMethod(method: ViewMethod, load = true): void {
    if (!this.ui || this.ui.method === method) return;
    this.ui.method = method;
    this.toolbar?.setMethod(method);
    this.recompute.setMethod(method);
    this.save();
    if (load) this.loadCredit();
  }

  private startRecompute(): void {
    if (!this.data || !this.ui) return;
    // The host reports progress at once; a recompute it does not start (one is running) shows nothing.
    const evaluator = this.recompute.evaluatorKind;
    this.ipc.send(RecomputeCommand, {
      ref: this.data.ref,
      method: this.ui.method,
      ...(evaluator !== undefined ? { evaluator } : {}),
    });
  }

  private loadCredit(): void {
    if (!this.data || !this.ui) return;
    const token = ++this.creditToken;
    const params = { ref: this.data.ref, method: this.ui.method };
    this.creditLoading = true;
    this.creditError = null;
    this.renderCredit();
    this.ipc.request(GetCreditRequest, params).then(
      (credit) => {
        if (token !== this.creditToken) return;
        this.credit = credit;
        this.creditLoading = false;
        this.renderCredit();
      },
      (error: unknown) => {
        if (token !== this.creditToken) return;
        this.creditLoading = false;
        this.creditError = error instanceof Error ? error.message : String(error);
        this.renderCredit();
      },
    );
  }

  /** Everything that depends on the credit: tint, legend, agent bars, blame line, notices. */
  private renderCredit(): void {
    const { data, ui } = this;
    if (!data || !ui) return;
    const credit = this.credit;
    const tint = creditTint(credit, data.creditDomain);
    this.list?.setTint(tint);
    this.lanes.setTint(tint);
    fill(this.shell.legend, renderLegend(tint));
    fill(this.shell.agents, renderAgents(agentBarsModel(data.agents, credit, data.reward), credit));
    fill(
      this.shell.blame,
      renderBlame(data.labels, credit, tint, (seq) => this.list?.focus(seq)),
    );
    const state = { method: ui.method, credit, loading: this.creditLoading, error: this.creditError };
    const notices = renderNotices(state, data.evaluator, () => this.startRecompute());
    // The notices are a live region: replace them only when they say something new.
    const text = notices.map((n) => n.textContent).join('\n');
    if (text !== this.noticesText) fill(this.shell.notices, ...notices);
    this.noticesText = text;
  }

  private async find(text: string, direction: 'forward' | 'backward'): Promise<void> {
    const source = this.source;
    const episode = this.episode;
    if (!source || !episode) return;
    await this.finder.find(text, direction, {
      count: episode.list.count,
      fromSeq: episode.ui.focusedSeq,
      load: (index) => source.load(index),
      reveal: (seq) => episode.list.select(seq),
      status: (status) => episode.toolbar.setFindStatus(status),
    });
  }

  /** Persists the UI state now, or shortly (`later`, for scrolling). */
  save(later = false): void {
    clearTimeout(this.saveTimer);
    if (later) {
      this.saveTimer = setTimeout(() => this.save(), saveDelayMs);
      return;
    }
    if (this.data && this.ui) this.host.setState(toSavedState(this.data.ref, this.ui));
  }
}

function messageCount(data: EpisodeViewData): number {
  return data.readError === null ? data.messageCount : 0;
}

function labelsBySeq(labels: readonly LabelView[]): Map<number, LabelView[]> {
  const map = new Map<number, LabelView[]>();
  for (const label of labels)
    if (label.message !== null) map.set(label.message, [...(map.get(label.message) ?? []), label]);
  return map;
}
