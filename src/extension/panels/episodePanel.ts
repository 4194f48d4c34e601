import * as vscode from 'vscode';
import { isCreditMethod } from '../../engine/credit/creditMethod';
import { EpisodeViewService } from '../../engine/views/episodeViewService';
import { GroupViewService } from '../../engine/views/groupViewService';
import {
  CancelRecomputeCommand,
  DidChangeEpisodeNotification,
  DidChangeRecomputeNotification,
  DiffWithCommand,
  EpisodeReadyCommand,
  GetCreditRequest,
  GetMessagesRequest,
  GetPromptRequest,
  GetRawRecordRequest,
  GetTimelineRequest,
  NavigateEpisodeCommand,
  OpenGroupCommand,
  OpenRunWindowsCommand,
  RecomputeCommand,
  RevealTraceLineCommand,
  type EpisodeReadyParams,
  type EpisodeViewData,
  type EpisodeViewState,
  type RecomputeParams,
  type RecomputeProgress,
} from '../../protocol/episodePanel';
import { checkedField, pickFields } from '../../protocol/ipc';
import { GetEpisodeInfluenceRequest } from '../../protocol/influence';
import { InfluenceService } from '../../engine/influence/influenceService';
import { isEpisodeRef, type EpisodeRef, type ViewMethod } from '../../protocol/viewData';
import type { ShowDashboard } from '../commands/openViewCommands';
import type { CreditLensConfig } from '../config';
import { currentEvaluatorChoice, type GatedEvaluator } from '../trust';
import { openPanelIndex, type PanelIndex } from './panelIndex';
import { replayEndpoint } from '../replay/replayEndpoint';
import {
  evaluatorOfKind,
  evaluatorView,
  methodNeedsEvaluator,
  recomputeForPanel,
  type PanelCreditDeps,
  type PanelCreditOutcome,
} from './panelCredit';
import { PanelHost, type PanelHostDeps } from './panelHost';
import { errorText, type WebviewSession } from './webviewSession';
import { count, plural } from '../indexReport';

/** The panel's services; `runCredit`, `estimateReplay` and `secrets` (the API key) come from {@link PanelCreditDeps}. */
export interface EpisodePanelDeps extends PanelCreditDeps, PanelHostDeps {
  /** The settings, or undefined when they are invalid (already reported). */
  readonly config: () => CreditLensConfig | undefined;
  readonly storageDir?: string;
  /** The evaluator under workspace trust; trust.ts's unless a test injects another. */
  readonly evaluator?: (config: CreditLensConfig) => GatedEvaluator;
  /** Called after a recompute stored credit, so the other views refresh. */
  readonly onCredited?: (folder: vscode.Uri) => void;
  /** Opens a GRPO group in the group view, under the Episode view's method. */
  readonly openGroup?: (folder: vscode.Uri, runId: number, group: string, method: ViewMethod) => void;
  /** Opens the Run Dashboard on a run filtered to steps `[from, to]` (the run's flag windows). */
  readonly openDashboard?: ShowDashboard;
  /** Asks for another episode and opens the diff of the shown one with it, under the view's method. */
  readonly diffWith?: (folder: vscode.Uri, episodeId: number, method: ViewMethod) => void;
}

/** What an Episode panel shows: one episode, named as its webview's saved state names it. */
type EpisodePlace = Pick<EpisodeViewState, 'ref'>;

/** The episode a panel shows, with the index it reads. */
interface Shown {
  readonly index: PanelIndex;
  readonly service: EpisodeViewService;
  readonly groups: GroupViewService;
  readonly influence: InfluenceService;
  episodeId: number;
}

/**
 * "Credit Lens: Episode": one panel showing one episode at a time (messages tinted by credit), fed
 * through the typed protocol of src/protocol/episodePanel.ts. The host is the source of truth: the
 * webview pulls message windows and credit; the panel is restored after a reload by the serializer.
 */
export class EpisodePanel extends PanelHost<EpisodePlace> {
  static readonly viewType = 'creditLens.episode';
  private shown: Shown | undefined;
  /** Aborts the running recompute (and a replay's calls in flight). */
  private recompute: AbortController | undefined;
  /** What the webview was last sent. */
  private sent: EpisodeViewData | undefined;
  /** The method the opening view asked for, until the webview has been sent it once. */
  private openedMethod: ViewMethod | null = null;

  constructor(private readonly deps: EpisodePanelDeps) {
    super(
      {
        viewType: EpisodePanel.viewType,
        entry: { script: 'episode', style: 'episode.css', title: 'Credit Lens: Episode' },
      },
      deps,
    );
  }

  /**
   * Shows episode `episodeId` of the index of `folder`, opening or revealing the panel; `method`
   * (the opening view's, e.g. the dashboard's) is shown instead of the panel's own choice.
   */
  show(folder: vscode.Uri, episodeId: number, method?: ViewMethod): void {
    this.openedMethod = method ?? null;
    this.open({ ref: { folder: folder.fsPath, episodeId } });
  }

  /**
   * The index of `folder` changed (new lines, credit, flags): re-send the episode so the webview
   * refreshes. Changes to another folder's index (the live tail of another run) are ignored.
   */
  refresh(folder?: vscode.Uri): void {
    if (folder && this.shown && folder.fsPath !== this.shown.index.root) return;
    this.post();
  }

  protected placeOf(saved: unknown): EpisodePlace | undefined {
    const ref = checkedField(saved, 'ref', isEpisodeRef);
    return ref && { ref: pickFields(ref, ['folder', 'episodeId']) };
  }

  protected wire(session: WebviewSession): void {
    session.onReady(EpisodeReadyCommand, (params) => {
      this.onReady(params);
    });
    session.onRequest(GetMessagesRequest, ({ ref, offset, limit }) =>
      this.service(ref).messages(ref.episodeId, offset, limit),
    );
    session.onRequest(GetPromptRequest, ({ ref }) => this.service(ref).prompt(ref.episodeId));
    session.onRequest(GetRawRecordRequest, ({ ref }) => this.service(ref).rawRecord(ref.episodeId));
    session.onRequest(GetCreditRequest, ({ ref, method }) =>
      this.service(ref).credit(ref.episodeId, method, this.sent?.evaluator.configured ?? false),
    );
    session.onRequest(GetTimelineRequest, ({ ref }) => this.service(ref).timeline(ref.episodeId));
    session.onRequest(GetEpisodeInfluenceRequest, async ({ ref }) => {
      this.service(ref);
      const shown = this.shown;
      const graph = shown && (await shown.influence.episode(ref.episodeId));
      if (!graph) throw new Error('the episode is no longer in the index; re-index the folder');
      return graph;
    });
    session.onCommand(RecomputeCommand, (params) => this.runRecompute(params));
    session.onCommand(CancelRecomputeCommand, () => {
      this.recompute?.abort();
    });
    session.onCommand(NavigateEpisodeCommand, ({ direction }) => {
      const shown = this.shown;
      const next = shown?.service.adjacent(shown.episodeId, direction);
      if (shown && next !== undefined) this.show(vscode.Uri.file(shown.index.root), next);
    });
    session.onCommand(RevealTraceLineCommand, () => this.revealTraceLine());
    session.onCommand(OpenGroupCommand, ({ ref, method }) => this.openGroup(ref, method));
    session.onCommand(OpenRunWindowsCommand, ({ ref }) => this.openRunWindows(ref));
    session.onCommand(DiffWithCommand, ({ ref, method }) => {
      this.service(ref);
      this.deps.diffWith?.(vscode.Uri.file(ref.folder), ref.episodeId, method);
    });
  }

  /** Opens the dashboard on the run's windows over the shown episode's step, as the host last sent them. */
  private openRunWindows(ref: EpisodeRef): void {
    this.service(ref);
    const windows = this.sent?.runWindows;
    if (windows) this.deps.openDashboard?.(vscode.Uri.file(ref.folder), windows.runId, windows.steps);
  }

  /** Opens the shown episode's GRPO group (only the shown episode's: the webview asks for nothing else). */
  private openGroup(ref: EpisodeRef, method: ViewMethod): void {
    this.service(ref);
    const group = this.shown?.groups.groupOfEpisode(ref.episodeId);
    if (group) this.deps.openGroup?.(vscode.Uri.file(ref.folder), group.runId, group.group, method);
  }

  private onReady(params: EpisodeReadyParams): void {
    if (!this.shown && params.ref) this.pointAt({ ref: params.ref });
    if (!this.shown) this.deps.log.info('Episode view: the webview is ready, but no episode is chosen yet');
    else this.deps.log.info(`Episode view: the webview is ready; showing episode ${String(this.shown.episodeId)}`);
    this.post();
  }

  /** Points the panel at an episode; false (and a message) when its folder has no readable index. */
  protected point({ ref: { folder: root, episodeId } }: EpisodePlace): boolean {
    const config = this.deps.config();
    if (!config) return false;
    try {
      if (this.shown?.index.root !== root) {
        const index = openPanelIndex(root, config, this.deps.storageDir);
        this.closeIndex();
        const groups = new GroupViewService(index.db, root);
        const influence = new InfluenceService(index.db);
        this.shown = { index, service: new EpisodeViewService(index.db, root), groups, influence, episodeId };
      }
      this.shown.episodeId = episodeId;
      return true;
    } catch (error) {
      this.deps.log.warn(`Episode view: cannot open the index of ${root}: ${errorText(error)}`);
      void vscode.window.showWarningMessage(`Credit Lens cannot show the episode: ${errorText(error)}`);
      return false;
    }
  }

  private data(): EpisodeViewData | undefined {
    const config = this.deps.config();
    const shown = this.shown;
    if (!config || !shown) return undefined;
    const gated = (this.deps.evaluator ?? currentEvaluatorChoice)(config);
    const probe = shown.service.episode(shown.episodeId, {
      defaultMethod: config.defaultMethod,
      evaluator: evaluatorView(config, gated, false),
    });
    if (!probe) return undefined;
    return {
      ...probe,
      evaluator: evaluatorView(config, gated, probe.groundTruth !== null),
      openedMethod: this.openedMethod,
      groupRollouts: shown.groups.groupOfEpisode(shown.episodeId)?.rollouts ?? null,
    };
  }

  protected post(): void {
    const session = this.session;
    if (!session) return;
    const data = this.data();
    this.sent = data;
    if (data) {
      session.panel.title = `Episode ${data.externalId}`;
      session.notify(DidChangeEpisodeNotification, data);
      // Sent once: later posts (index changes, reloads) keep the method the user chose since.
      if (session.isReady) this.openedMethod = null;
    } else if (this.shown) {
      this.deps.log.warn(
        `Episode view: episode ${String(this.shown.episodeId)} is no longer in the index of ${this.shown.index.root}`,
      );
    }
  }

  /** The service of the shown episode; refuses refs to another folder or episode (the webview only asks for what it was sent). */
  private service(ref: EpisodeRef): EpisodeViewService {
    const shown = this.shown;
    if (shown?.index.root !== ref.folder || shown.episodeId !== ref.episodeId)
      throw new Error('that episode is no longer shown in this panel');
    return shown.service;
  }

  private async runRecompute({ ref, method, evaluator: kind }: RecomputeParams): Promise<void> {
    const session = this.session;
    const config = this.deps.config();
    if (!session || !config || this.recompute || !isCreditMethod(method)) return;
    const shown = this.shown;
    if (shown?.index.root !== ref.folder || shown.episodeId !== ref.episodeId) return;
    const gated = (this.deps.evaluator ?? currentEvaluatorChoice)(config);
    const evaluator = evaluatorOfKind(gated, kind);
    const replay =
      evaluator?.kind === 'replay' && methodNeedsEvaluator(method) ? replayEndpoint(evaluator.options.url) : null;
    const progress = (update: Omit<RecomputeProgress, 'method' | 'replay'>): void => {
      session.notify(DidChangeRecomputeNotification, { method, replay: replay?.host ?? null, ...update });
    };
    if (!evaluator) {
      const reason = gated.warning ?? 'it is not configured';
      progress({
        state: 'failed',
        done: 0,
        total: 1,
        message: `The ${kind ?? ''} evaluator is not available: ${reason}`,
      });
      return;
    }
    const control = new AbortController();
    this.recompute = control;
    if (!replay) progress({ state: 'running', done: 0, total: 1, message: null });
    this.deps.log.info(
      `Episode view: computing ${method} credit of episode ${String(ref.episodeId)} in ${ref.folder}${replay ? ` by replay on ${replay.display}` : ''}`,
    );
    try {
      const outcome = await recomputeForPanel(
        { root: ref.folder, dbPath: shown.index.dbPath, method, config, evaluator, episodes: [ref.episodeId] },
        {
          signal: control.signal,
          isCancelled: () => control.signal.aborted,
          onProgress: (done, total) => {
            if (!replay) progress({ state: 'running', done, total, message: null });
          },
          onStage: (state, text) => progress({ state, done: 0, total: 0, message: text }),
          onReplayProgress: ({ done, total }, text) =>
            progress({ state: 'running', done, total, message: text, unit: 'calls' }),
        },
        this.deps,
      );
      this.finishRecompute(ref.folder, outcome, control.signal.aborted, progress);
    } catch (error) {
      this.deps.log.error(`Episode view: recompute failed: ${errorText(error)}`);
      progress({ state: 'failed', done: 0, total: 1, message: errorText(error) });
    } finally {
      this.recompute = undefined;
    }
  }

  private finishRecompute(
    folder: string,
    outcome: PanelCreditOutcome | undefined,
    cancelled: boolean,
    progress: (update: Omit<RecomputeProgress, 'method' | 'replay'>) => void,
  ): void {
    if (!outcome) {
      const why = cancelled ? 'cancelled before any call' : 'the replay was not confirmed';
      progress({ state: 'cancelled', done: 0, total: 1, message: `${why}; nothing was sent` });
      return;
    }
    const note = `${plural(outcome.evaluatorCalls, 'evaluator call')}, ${count(outcome.cached)} from the cache`;
    if (cancelled) progress({ state: 'cancelled', done: outcome.computed, total: 1, message: outcome.replay ?? null });
    else if (outcome.failures.length > 0)
      progress({ state: 'failed', done: 0, total: 1, message: outcome.failures[0] ?? null });
    else
      progress({
        state: 'done',
        done: outcome.computed,
        total: 1,
        message: outcome.replay ? `${outcome.replay}; ${note}` : note,
      });
    if (outcome.computed > 0) this.deps.onCredited?.(vscode.Uri.file(folder));
  }

  private async revealTraceLine(): Promise<void> {
    // What the webview was last sent: the episode it shows (no need to query the index again).
    const data = this.sent;
    const shown = this.shown;
    if (!data || !shown) return;
    const line = Math.max(0, data.location.line - 1);
    const uri = vscode.Uri.joinPath(vscode.Uri.file(shown.index.root), ...data.location.uri.split('/'));
    await vscode.commands.executeCommand('vscode.open', uri, {
      selection: new vscode.Range(new vscode.Position(line, 0), new vscode.Position(line, 0)),
    });
  }

  protected forget(): void {
    this.recompute = undefined;
    this.closeIndex();
  }

  private closeIndex(): void {
    this.shown?.index.db.close();
    this.shown = undefined;
  }
}
