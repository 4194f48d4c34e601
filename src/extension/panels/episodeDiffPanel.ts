import * as vscode from 'vscode';
import { EpisodeDiffService, type DiffSideSource } from '../../engine/diff/episodeDiffService';
import { EpisodeViewService } from '../../engine/views/episodeViewService';
import {
  DidChangeDiffNotification,
  DiffReadyCommand,
  GetDiffRequest,
  GetDiffTextsRequest,
  OpenDiffSideCommand,
  isDiffRef,
  type DiffRef,
  type EpisodeDiffViewState,
} from '../../protocol/episodeDiffPanel';
import { checkedField, pickFields } from '../../protocol/ipc';
import type { EpisodeRef, ViewMethod } from '../../protocol/viewData';
import type { CreditLensConfig } from '../config';
import { currentEvaluatorChoice, type GatedEvaluator } from '../trust';
import { evaluatorView } from './panelCredit';
import { openPanelIndex, type PanelIndex } from './panelIndex';
import { PanelHost, type PanelHostDeps } from './panelHost';
import { errorText, type WebviewSession } from './webviewSession';

export interface EpisodeDiffPanelDeps extends PanelHostDeps {
  /** The settings, or undefined when they are invalid (already reported). */
  readonly config: () => CreditLensConfig | undefined;
  readonly storageDir?: string;
  /** The evaluator under workspace trust; trust.ts's unless a test injects another. */
  readonly evaluator?: (config: CreditLensConfig) => GatedEvaluator;
  /** Opens one episode of the pair in the Episode view, under the diff's method. */
  readonly openEpisode: (folder: vscode.Uri, episodeId: number, method: ViewMethod) => void;
}

/** What a diff panel shows: a pair of episodes, named as its webview's saved state names it. */
type DiffPlace = Pick<EpisodeDiffViewState, 'ref'>;

/** The pair shown: the index and Episode view service of each folder (one when both sides share it). */
interface Shown {
  readonly indexes: ReadonlyMap<string, { readonly index: PanelIndex; readonly views: EpisodeViewService }>;
  ref: DiffRef;
  diff: EpisodeDiffService;
}

/**
 * "Credit Lens: Diff Episodes": two episodes side by side, messages aligned by agent and turn, fed
 * through src/protocol/episodeDiffPanel.ts. The host says which pair is shown (and bumps a revision
 * when an index changes); the webview asks for the rows under its method and for the texts of the
 * rows it shows (docs/architecture.md §3.7).
 */
export class EpisodeDiffPanel extends PanelHost<DiffPlace> {
  static readonly viewType = 'creditLens.episodeDiff';
  private shown: Shown | undefined;
  private revision = 0;
  /** The method of the opening view, until the webview has been sent it once. */
  private openedMethod: ViewMethod | null = null;

  constructor(private readonly deps: EpisodeDiffPanelDeps) {
    super(
      {
        viewType: EpisodeDiffPanel.viewType,
        entry: { script: 'diff', style: 'diff.css', title: 'Credit Lens: Diff Episodes' },
      },
      deps,
    );
  }

  /** Shows episode `a` beside episode `b`; `method` (the opening view's) is shown first. */
  show(a: EpisodeRef, b: EpisodeRef, method?: ViewMethod): void {
    this.openedMethod = method ?? null;
    this.open({ ref: { a: pickFields(a, ['folder', 'episodeId']), b: pickFields(b, ['folder', 'episodeId']) } });
  }

  /** The index of `folder` changed: both episodes are read again and the webview asks again. */
  refresh(folder?: vscode.Uri): void {
    if (folder && this.shown && !this.shown.indexes.has(folder.fsPath)) return;
    this.post();
  }

  protected placeOf(saved: unknown): DiffPlace | undefined {
    const ref = checkedField(saved, 'ref', isDiffRef);
    return (
      ref && { ref: { a: pickFields(ref.a, ['folder', 'episodeId']), b: pickFields(ref.b, ['folder', 'episodeId']) } }
    );
  }

  protected point({ ref }: DiffPlace): boolean {
    const config = this.deps.config();
    if (!config) return false;
    const opened: PanelIndex[] = [];
    try {
      const indexes = new Map<string, { index: PanelIndex; views: EpisodeViewService }>();
      for (const folder of new Set([ref.a.folder, ref.b.folder])) {
        const kept = this.shown?.indexes.get(folder);
        if (kept) indexes.set(folder, kept);
        else {
          const index = openPanelIndex(folder, config, this.deps.storageDir);
          opened.push(index);
          indexes.set(folder, { index, views: new EpisodeViewService(index.db, folder) });
        }
      }
      const diff = this.diffOf(indexes, ref, config);
      for (const [folder, { index }] of this.shown?.indexes ?? []) if (!indexes.has(folder)) index.db.close();
      this.shown = { indexes, ref, diff };
      return true;
    } catch (error) {
      for (const index of opened) index.db.close();
      this.deps.log.warn(`Diff view: cannot open the index of the pair: ${errorText(error)}`);
      void vscode.window.showWarningMessage(`Credit Lens cannot show the diff: ${errorText(error)}`);
      return false;
    }
  }

  protected wire(session: WebviewSession): void {
    session.onReady(DiffReadyCommand, ({ ref }) => {
      if (!this.shown && ref) this.pointAt({ ref });
      this.post();
    });
    session.onRequest(GetDiffRequest, async ({ ref, method }) => gone(await this.service(ref).diff(method)));
    session.onRequest(GetDiffTextsRequest, async ({ ref, offset, limit }) =>
      gone(await this.service(ref).texts(offset, limit)),
    );
    session.onCommand(OpenDiffSideCommand, ({ ref, side, method }) => {
      this.service(ref);
      const episode = ref[side];
      this.deps.openEpisode(vscode.Uri.file(episode.folder), episode.episodeId, method);
    });
  }

  protected post(): void {
    const { session, shown } = this;
    const config = this.deps.config();
    if (!session || !shown || !config) return;
    this.revision++;
    // A revision reads both episodes again (their credit or their trace may have changed).
    shown.diff = this.diffOf(shown.indexes, shown.ref, config);
    session.panel.title = `Diff ${this.externalId(shown, shown.ref.a)} ↔ ${this.externalId(shown, shown.ref.b)}`;
    session.notify(DidChangeDiffNotification, {
      ref: shown.ref,
      defaultMethod: config.defaultMethod,
      openedMethod: this.openedMethod,
      revision: this.revision,
    });
    // Sent once: later posts (index changes, reloads) keep the method the user chose since.
    if (session.isReady) this.openedMethod = null;
  }

  protected forget(): void {
    for (const { index } of this.shown?.indexes.values() ?? []) index.db.close();
    this.shown = undefined;
  }

  /** The diff of the shown pair; refuses any other (the webview only asks for what it was sent). */
  private service(ref: DiffRef): EpisodeDiffService {
    const shown = this.shown;
    if (!shown || !sameEpisode(shown.ref.a, ref.a) || !sameEpisode(shown.ref.b, ref.b))
      throw new Error('that pair is no longer shown in this panel');
    return shown.diff;
  }

  private diffOf(indexes: Shown['indexes'], ref: DiffRef, config: CreditLensConfig): EpisodeDiffService {
    const gated = (this.deps.evaluator ?? currentEvaluatorChoice)(config);
    const side = (episode: EpisodeRef): DiffSideSource => {
      const views = indexes.get(episode.folder)?.views;
      if (!views) throw new Error(`${episode.folder} is not open in this panel`);
      const probe = views.episode(episode.episodeId, {
        defaultMethod: config.defaultMethod,
        evaluator: evaluatorView(config, gated, false),
      });
      const evaluator = evaluatorView(config, gated, (probe?.groundTruth ?? null) !== null);
      return {
        service: views,
        episodeId: episode.episodeId,
        context: { defaultMethod: config.defaultMethod, evaluator },
      };
    };
    return new EpisodeDiffService(side(ref.a), side(ref.b));
  }

  private externalId(shown: Shown, episode: EpisodeRef): string {
    const views = shown.indexes.get(episode.folder)?.views;
    const context = {
      defaultMethod: 'shared',
      evaluator: { configured: false, description: '', reason: null },
    } as const;
    return views?.episode(episode.episodeId, context)?.externalId ?? `#${String(episode.episodeId)}`;
  }
}

function sameEpisode(a: EpisodeRef, b: EpisodeRef): boolean {
  return a.folder === b.folder && a.episodeId === b.episodeId;
}

/** `value`, or the error the webview shows when an episode of the pair left the index. */
function gone<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('an episode of the pair is no longer in the index; re-index the folder');
  return value;
}
