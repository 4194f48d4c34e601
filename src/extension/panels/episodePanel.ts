import * as vscode from 'vscode';
import { isCreditMethod } from '../../engine/credit/creditMethod';
import { EpisodeViewService } from '../../engine/views/episodeViewService';
import {
  CancelRecomputeCommand,
  DidChangeEpisodeNotification,
  DidChangeRecomputeNotification,
  EpisodeReadyCommand,
  GetCreditRequest,
  GetMessagesRequest,
  NavigateEpisodeCommand,
  RecomputeCommand,
  RevealTraceLineCommand,
  type EpisodeReadyParams,
  type EpisodeViewData,
  type RecomputeParams,
} from '../../protocol/episodePanel';
import type { EpisodeRef } from '../../protocol/viewData';
import type { CreditLensConfig } from '../config';
import { Disposable, toDisposable } from '../lifecycle';
import { currentEvaluatorChoice, type GatedEvaluator } from '../trust';
import { openPanelIndex, type PanelIndex } from './panelIndex';
import { evaluatorView, recomputeForPanel, type RunCredit } from './panelCredit';
import { errorText, WebviewSession } from './webviewSession';

export interface EpisodePanelDeps {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  /** The settings, or undefined when they are invalid (already reported). */
  readonly config: () => CreditLensConfig | undefined;
  readonly storageDir?: string;
  /** The evaluator under workspace trust; trust.ts's unless a test injects another. */
  readonly evaluator?: (config: CreditLensConfig) => GatedEvaluator;
  readonly runCredit?: RunCredit;
  /** Called after a recompute stored credit, so the other views refresh. */
  readonly onCredited?: (folder: vscode.Uri) => void;
}

/** The episode a panel shows, with the index it reads. */
interface Shown {
  readonly index: PanelIndex;
  readonly service: EpisodeViewService;
  episodeId: number;
}

/**
 * "Credit Lens: Episode": one panel showing one episode at a time (messages tinted by credit), fed
 * through the typed protocol of src/protocol/episodePanel.ts. The host is the source of truth: the
 * webview pulls message windows and credit; the panel is restored after a reload by the serializer.
 */
export class EpisodePanel extends Disposable {
  static readonly viewType = 'creditLens.episode';
  private session: WebviewSession | undefined;
  private shown: Shown | undefined;
  private recompute: { cancelled: boolean } | undefined;
  /** What the webview was last sent. */
  private sent: EpisodeViewData | undefined;

  constructor(private readonly deps: EpisodePanelDeps) {
    super();
    this._register(
      toDisposable(() => {
        this.session?.dispose();
        this.closeIndex();
      }),
    );
  }

  /** Shows episode `episodeId` of the index of `folder`, opening or revealing the panel. */
  show(folder: vscode.Uri, episodeId: number): void {
    if (this.isDisposed) return;
    if (!this.point(folder.fsPath, episodeId)) return;
    const session =
      this.session ??
      this.adopt(
        vscode.window.createWebviewPanel(EpisodePanel.viewType, 'Credit Lens: Episode', vscode.ViewColumn.Active, {}),
      );
    session.panel.reveal();
    this.post();
  }

  /** Restores a panel VS Code kept across a reload; `state` is what the webview saved. */
  restore(panel: vscode.WebviewPanel, state: unknown): void {
    if (this.isDisposed || this.session) {
      panel.dispose();
      return;
    }
    const ref = savedRef(state);
    this.deps.log.info(
      `Episode view: restoring the panel${ref ? ` on episode ${String(ref.episodeId)} of ${ref.folder}` : ' (no saved episode)'}`,
    );
    if (ref) this.point(ref.folder, ref.episodeId);
    this.adopt(panel);
  }

  /**
   * The index of `folder` changed (new lines, credit, flags): re-send the episode so the webview
   * refreshes. Changes to another folder's index (the live tail of another run) are ignored.
   */
  refresh(folder?: vscode.Uri): void {
    if (folder && this.shown && folder.fsPath !== this.shown.index.root) return;
    this.post();
  }

  private adopt(panel: vscode.WebviewPanel): WebviewSession {
    const session = new WebviewSession(
      panel,
      this.deps.extensionUri,
      { script: 'episode', style: 'episode.css', title: 'Credit Lens: Episode' },
      this.deps.log,
      () => {
        if (this.session === session) this.session = undefined;
        this.recompute = undefined;
        this.closeIndex();
      },
    );
    this.session = session;
    session.onReady(EpisodeReadyCommand, (params) => {
      this.onReady(params);
    });
    session.onRequest(GetMessagesRequest, ({ ref, offset, limit }) =>
      this.service(ref).messages(ref.episodeId, offset, limit),
    );
    session.onRequest(GetCreditRequest, ({ ref, method }) =>
      this.service(ref).credit(ref.episodeId, method, this.sent?.evaluator.configured ?? false),
    );
    session.onCommand(RecomputeCommand, (params) => this.runRecompute(params));
    session.onCommand(CancelRecomputeCommand, () => {
      if (this.recompute) this.recompute.cancelled = true;
    });
    session.onCommand(NavigateEpisodeCommand, ({ direction }) => {
      const shown = this.shown;
      const next = shown?.service.adjacent(shown.episodeId, direction);
      if (shown && next !== undefined) this.show(vscode.Uri.file(shown.index.root), next);
    });
    session.onCommand(RevealTraceLineCommand, () => this.revealTraceLine());
    return session;
  }

  private onReady(params: EpisodeReadyParams): void {
    if (!this.shown && params.ref) this.point(params.ref.folder, params.ref.episodeId);
    if (!this.shown) this.deps.log.info('Episode view: the webview is ready, but no episode is chosen yet');
    else this.deps.log.info(`Episode view: the webview is ready; showing episode ${String(this.shown.episodeId)}`);
    this.post();
  }

  /** Points the panel at an episode; false (and a message) when its folder has no readable index. */
  private point(root: string, episodeId: number): boolean {
    const config = this.deps.config();
    if (!config) return false;
    try {
      if (this.shown?.index.root !== root) {
        const index = openPanelIndex(root, config, this.deps.storageDir);
        this.closeIndex();
        this.shown = { index, service: new EpisodeViewService(index.db, root), episodeId };
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
    return { ...probe, evaluator: evaluatorView(config, gated, probe.groundTruth !== null) };
  }

  private post(): void {
    const session = this.session;
    if (!session) return;
    const data = this.data();
    this.sent = data;
    if (data) {
      session.panel.title = `Episode ${data.externalId}`;
      session.notify(DidChangeEpisodeNotification, data);
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

  private async runRecompute({ ref, method }: RecomputeParams): Promise<void> {
    const session = this.session;
    const config = this.deps.config();
    if (!session || !config || this.recompute || !isCreditMethod(method)) return;
    const shown = this.shown;
    if (shown?.index.root !== ref.folder || shown.episodeId !== ref.episodeId) return;
    const control = { cancelled: false };
    this.recompute = control;
    const progress = (
      state: 'running' | 'done' | 'cancelled' | 'failed',
      done: number,
      total: number,
      message: string | null,
    ): void => {
      session.notify(DidChangeRecomputeNotification, { method, state, done, total, message });
    };
    progress('running', 0, 1, null);
    this.deps.log.info(`Episode view: computing ${method} credit of episode ${String(ref.episodeId)} in ${ref.folder}`);
    try {
      const gated = (this.deps.evaluator ?? currentEvaluatorChoice)(config);
      const outcome = await recomputeForPanel(
        { root: ref.folder, dbPath: shown.index.dbPath, method, config, evaluator: gated, episodes: [ref.episodeId] },
        { isCancelled: () => control.cancelled, onProgress: (done, total) => progress('running', done, total, null) },
        this.deps.runCredit,
      );
      const note = `${String(outcome.evaluatorCalls)} evaluator call(s), ${String(outcome.cached)} from the cache`;
      if (control.cancelled) progress('cancelled', outcome.computed, 1, null);
      else if (outcome.failures.length > 0) progress('failed', 0, 1, outcome.failures[0] ?? null);
      else progress('done', outcome.computed, 1, note);
      if (outcome.computed > 0) this.deps.onCredited?.(vscode.Uri.file(ref.folder));
    } catch (error) {
      this.deps.log.error(`Episode view: recompute failed: ${errorText(error)}`);
      progress('failed', 0, 1, errorText(error));
    } finally {
      this.recompute = undefined;
    }
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

  private closeIndex(): void {
    this.shown?.index.db.close();
    this.shown = undefined;
  }
}

/** The episode a restored webview had saved (its state's `ref`), if well-formed. */
function savedRef(state: unknown): EpisodeRef | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const ref = (state as { ref?: unknown }).ref;
  if (typeof ref !== 'object' || ref === null) return undefined;
  const { folder, episodeId } = ref as Partial<Record<keyof EpisodeRef, unknown>>;
  return typeof folder === 'string' && Number.isSafeInteger(episodeId)
    ? { folder, episodeId: episodeId as number }
    : undefined;
}
