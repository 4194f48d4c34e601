import { basename } from 'node:path';
import * as vscode from 'vscode';
import { isCreditMethod } from '../../engine/credit/creditMethod';
import { DashboardViewService } from '../../engine/views/dashboardViewService';
import {
  DashboardReadyCommand,
  DashboardRecomputeCommand,
  DidChangeRunsNotification,
  GetAgentSummaryRequest,
  GetEpisodesRequest,
  GetOverviewDeltaRequest,
  GetOverviewRequest,
  OpenEpisodeCommand,
  OpenGroupCommand,
  type DashboardFocus,
  type DashboardRecomputeParams,
} from '../../protocol/dashboardPanel';
import { checkedField } from '../../protocol/ipc';
import { isFolderPath, isNonNegativeInt, methodLabels, type ViewMethod } from '../../protocol/viewData';
import type { StepSpan } from '../commands/openViewCommands';
import type { CreditLensConfig } from '../config';
import { count, plural } from '../indexReport';
import { currentEvaluatorChoice, showTrustWarning, type GatedEvaluator } from '../trust';
import { openPanelIndex, type PanelIndex } from './panelIndex';
import { abortOnCancel } from '../replay/replayPass';
import { methodNeedsEvaluator, recomputeForPanel, type PanelCreditDeps, type PanelCreditOutcome } from './panelCredit';
import { PanelHost, type PanelHostDeps } from './panelHost';
import { errorText, type WebviewSession } from './webviewSession';
import { GetRunInfluenceRequest } from '../../protocol/influence';
import { InfluenceService } from '../../engine/influence/influenceService';

/** The panel's services; `runCredit`, `estimateReplay` and `secrets` (the API key) come from {@link PanelCreditDeps}. */
export interface DashboardPanelDeps extends PanelCreditDeps, PanelHostDeps {
  readonly config: () => CreditLensConfig | undefined;
  readonly storageDir?: string;
  readonly evaluator?: (config: CreditLensConfig) => GatedEvaluator;
  /** Opens an episode in the Episode panel, under the dashboard's method when it sends one. */
  readonly openEpisode: (folder: vscode.Uri, episodeId: number, method?: ViewMethod) => void;
  /** Called after a recompute stored credit, so the other views refresh. */
  readonly onCredited?: (folder: vscode.Uri) => void;
  /** Opens a GRPO group in the group view, under the dashboard's method when it sends one. */
  readonly openGroup?: (folder: vscode.Uri, runId: number, group: string, method?: ViewMethod) => void;
}

/** What a dashboard shows: the runs of one indexed folder, on a run when one is named. */
interface DashboardPlace {
  readonly folder: string;
  readonly runId: number | null;
}

interface Shown {
  readonly index: PanelIndex;
  readonly service: DashboardViewService;
  /** Keeps each step range's influence aggregate while the index is open. */
  readonly influence: InfluenceService;
  selectedRunId: number | null;
}

/** What changed in an index: only appended episodes (a live-tail pass), or anything else. */
export type IndexChange = 'appended' | 'changed';

/**
 * "Credit Lens: Run Dashboard": credit over training for the runs of one indexed folder, fed through
 * src/protocol/dashboardPanel.ts. The webview pulls the overview and table pages; every change of
 * the index, the credit or the flags bumps `revision` so it pulls again. A change that only
 * appended episodes keeps `resetRevision`, so the webview asks for a delta of the changed steps.
 */
export class DashboardPanel extends PanelHost<DashboardPlace> {
  static readonly viewType = 'creditLens.dashboard';
  /** Episode-level idle threshold of the idle-rate chart (credit-methods.md §5, ε). */
  static readonly epsilon = 0.01;
  private shown: Shown | undefined;
  private revision = 0;
  /** The last revision whose change was more than appended episodes (see DashboardRunsData). */
  private resetRevision = 0;
  private recomputing = false;
  /** What the last show() asked for, in the folder it named; sent with every post until the next. */
  private focus: { readonly folder: string; readonly focus: DashboardFocus } | undefined;
  /** Focus ids start at the clock, so a webview's saved id never matches a later session's. */
  private focusId = Date.now();

  constructor(private readonly deps: DashboardPanelDeps) {
    super(
      {
        viewType: DashboardPanel.viewType,
        entry: { script: 'dashboard', style: 'dashboard.css', title: 'Credit Lens: Run Dashboard' },
      },
      deps,
    );
  }

  /**
   * Shows the dashboard of `folder`, on run `runId` when given (over the run the webview had saved),
   * with the episode table filtered to `steps` when given (a Problems quick fix on a flag's window).
   */
  show(folder: vscode.Uri, runId?: number, steps?: StepSpan): void {
    const span = steps ? { from: steps[0], to: steps[1] } : null;
    this.focus =
      runId === undefined ? undefined : { folder: folder.fsPath, focus: { id: ++this.focusId, runId, steps: span } };
    this.open({ folder: folder.fsPath, runId: runId ?? null });
  }

  /**
   * The index, credit or flags of `folder` changed: bump the revision so the webview refetches, or
   * (`appended`: a live-tail pass that only appended episodes) brings its overview up to date with a delta.
   */
  refresh(folder?: vscode.Uri, change: IndexChange = 'changed'): void {
    if (folder && this.shown && folder.fsPath !== this.shown.index.root) return;
    if (change !== 'appended') {
      this.resetRevision = this.revision + 1;
      this.shown?.influence.clear();
    }
    this.post();
  }

  protected placeOf(saved: unknown): DashboardPlace | undefined {
    const folder = checkedField(saved, 'folder', isFolderPath);
    return folder === undefined ? undefined : { folder, runId: checkedField(saved, 'runId', isNonNegativeInt) ?? null };
  }

  protected wire(session: WebviewSession): void {
    session.onReady(DashboardReadyCommand, ({ folder }) => {
      if (!this.shown && folder !== null) this.pointAt({ folder, runId: null });
      this.post();
    });
    session.onRequest(GetOverviewRequest, ({ folder, runId, method }) =>
      this.service(folder).overview(runId, method, DashboardPanel.epsilon),
    );
    session.onRequest(GetOverviewDeltaRequest, ({ folder, runId, method, after }) =>
      this.service(folder).overviewDelta(runId, method, DashboardPanel.epsilon, after),
    );
    session.onRequest(GetAgentSummaryRequest, ({ folder, runId, method }) =>
      this.service(folder).agentSummary(runId, method),
    );
    session.onRequest(GetRunInfluenceRequest, ({ folder, runId, stepFrom, stepTo }) =>
      this.shownFolder(folder).influence.run(runId, stepFrom, stepTo),
    );
    session.onRequest(GetEpisodesRequest, ({ folder, ...query }) => this.service(folder).episodes(query));
    session.onCommand(OpenEpisodeCommand, ({ folder, episodeId, method }) => {
      this.service(folder);
      this.deps.openEpisode(vscode.Uri.file(folder), episodeId, method);
    });
    session.onCommand(DashboardRecomputeCommand, (params) => this.runRecompute(params));
    session.onCommand(OpenGroupCommand, ({ folder, runId, group, method }) => {
      this.service(folder);
      this.deps.openGroup?.(vscode.Uri.file(folder), runId, group, method);
    });
  }

  protected point({ folder: root, runId }: DashboardPlace): boolean {
    if (this.shown?.index.root !== root && !this.openIndex(root)) return false;
    if (this.shown && runId !== null) this.shown.selectedRunId = runId;
    return true;
  }

  private openIndex(root: string): boolean {
    const config = this.deps.config();
    if (!config) return false;
    try {
      const index = openPanelIndex(root, config, this.deps.storageDir);
      this.forget();
      const service = new DashboardViewService(index.db, root);
      this.shown = { index, service, influence: new InfluenceService(index.db), selectedRunId: null };
      this.resetRevision = this.revision + 1;
      return true;
    } catch (error) {
      this.deps.log.warn(`Run dashboard: cannot open the index of ${root}: ${errorText(error)}`);
      void vscode.window.showWarningMessage(`Credit Lens cannot show the dashboard: ${errorText(error)}`);
      return false;
    }
  }

  protected post(): void {
    const { session, shown } = this;
    const config = this.deps.config();
    if (!session || !shown || !config) return;
    this.revision++;
    const root = shown.index.root;
    session.panel.title = `Run Dashboard: ${basename(root) || root}`;
    session.notify(DidChangeRunsNotification, {
      folder: root,
      folderName: basename(root) || root,
      runs: shown.service.runs(),
      selectedRunId: shown.selectedRunId,
      defaultMethod: config.defaultMethod,
      revision: this.revision,
      resetRevision: this.resetRevision,
      ...(this.focus?.folder === root ? { focus: this.focus.focus } : {}),
    });
  }

  /** The service of the shown folder; refuses any other folder (the webview only asks for the one it was sent). */
  private service(folder: string): DashboardViewService {
    return this.shownFolder(folder).service;
  }

  /** What the dashboard shows of `folder`; throws for any other folder. */
  private shownFolder(folder: string): Shown {
    const shown = this.shown;
    if (shown?.index.root !== folder) throw new Error('that folder is no longer shown in this dashboard');
    return shown;
  }

  /** Recomputes a run under a cancellable progress notification, then refreshes every view. */
  private async runRecompute({ folder, runId, method }: DashboardRecomputeParams): Promise<void> {
    const config = this.deps.config();
    const shown = this.shown;
    if (!config || shown?.index.root !== folder || this.recomputing || !isCreditMethod(method)) return;
    const run = shown.service.runs().find((r) => r.runId === runId);
    if (!run) return;
    this.recomputing = true;
    const gated = (this.deps.evaluator ?? currentEvaluatorChoice)(config);
    if (methodNeedsEvaluator(method) && gated.warning !== undefined)
      showTrustWarning(gated.warning, this.deps.log, gated.fix);
    const name = run.name || '(root)';
    try {
      const outcome = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Credit Lens: ${methodLabels[method]} credit of ${name}`,
          cancellable: true,
        },
        async (progress, token) => {
          const cancel = abortOnCancel(token);
          try {
            return await recomputeForPanel(
              { root: folder, dbPath: shown.index.dbPath, method, config, evaluator: gated.choice, run: run.name },
              {
                signal: cancel.signal,
                isCancelled: () => token.isCancellationRequested,
                onProgress: (done, total) =>
                  progress.report({ message: `${count(done)} of ${plural(total, 'episode')}` }),
                onStage: (_stage, text) => progress.report({ message: text }),
                onReplayProgress: (_calls, text) => progress.report({ message: text }),
              },
              this.deps,
            );
          } finally {
            cancel.dispose();
          }
        },
      );
      if (outcome) this.reportRecompute(folder, method, name, outcome);
    } catch (error) {
      this.deps.log.error(`Run dashboard: recompute failed: ${errorText(error)}`);
      void vscode.window.showErrorMessage(
        `Credit Lens could not compute ${methodLabels[method]} credit: ${errorText(error)}`,
      );
    } finally {
      this.recomputing = false;
    }
  }

  private reportRecompute(folder: string, method: ViewMethod, name: string, outcome: PanelCreditOutcome): void {
    const replay = outcome.replay ? `; ${outcome.replay}` : '';
    this.deps.log.info(
      `Run dashboard: ${method} credit of ${name}: ${plural(outcome.computed, 'episode')}, ${plural(outcome.failureCount, 'failure')}${replay}`,
    );
    for (const failure of outcome.failures.slice(0, 20)) this.deps.log.warn(failure);
    if (outcome.computed > 0) this.deps.onCredited?.(vscode.Uri.file(folder));
    else
      void vscode.window.showWarningMessage(
        `Credit Lens computed no ${methodLabels[method]} credit for ${name}${outcome.failures[0] ? `: ${outcome.failures[0]}` : ''}`,
      );
  }

  protected forget(): void {
    this.shown?.index.db.close();
    this.shown = undefined;
  }
}
