import * as vscode from 'vscode';
import type { ComparisonRequest, RunComparer, RunComparison } from '../../core/runComparison';
import {
  CompareReadyCommand,
  CompareRunsRequest,
  DidChangeCompareNotification,
  GetCompareChoicesRequest,
  OpenCompareEpisodeCommand,
  cleanSide,
  toWire,
  type CompareViewState,
  type ComparisonView,
  type OpenCompareEpisodeParams,
} from '../../protocol/comparePanel';
import { checkedField } from '../../protocol/ipc';
import { isFolderPath, isViewMethod, type ViewMethod } from '../../protocol/viewData';
import type { Db } from '../../store/database';
import { EpisodeLookup } from '../../store/episodeLookup';
import type { CreditLensConfig } from '../config';
import { openPanelIndex, type PanelIndex } from './panelIndex';
import { PanelHost, type PanelHostDeps } from './panelHost';
import { errorText, type WebviewSession } from './webviewSession';

export interface ComparePanelDeps extends PanelHostDeps {
  /** The settings, or undefined when they are invalid (already reported). */
  readonly config: () => CreditLensConfig | undefined;
  readonly storageDir?: string;
  /**
   * The engine over an open index and its folder (`new CompareService(db, { root })`: the folder
   * lets it pair episodes without a task id by their prompts); a test passes a fake.
   */
  readonly comparer: (db: Db, root: string) => RunComparer;
  /** Opens an episode in the Episode panel, under the compared method when the view shows it. */
  readonly openEpisode: (folder: vscode.Uri, episodeId: number, method?: ViewMethod) => void;
}

/** What a compare panel shows: the runs of one indexed folder, named as its webview's saved state names it. */
type ComparePlace = Pick<CompareViewState, 'folder'>;

interface Shown {
  readonly index: PanelIndex;
  readonly comparer: RunComparer;
  readonly lookup: EpisodeLookup;
  /** The comparison last sent: only its example pairs may be opened. */
  last: RunComparison | null;
}

/**
 * "Credit Lens: Compare Runs": two runs (or two step ranges of one run) of one indexed folder, paired
 * episode by episode, per agent the credit difference with its interval (credit-methods.md §5.5),
 * fed through src/protocol/comparePanel.ts. The panel only relays: the engine (`RunComparer`)
 * computes every number.
 */
export class ComparePanel extends PanelHost<ComparePlace> {
  static readonly viewType = 'creditLens.compare';
  private shown: Shown | undefined;
  private revision = 0;

  constructor(private readonly deps: ComparePanelDeps) {
    super(
      {
        viewType: ComparePanel.viewType,
        entry: { script: 'compare', style: 'compare.css', title: 'Credit Lens: Compare Runs' },
      },
      deps,
    );
  }

  /** Shows the runs of the index of `folder`, to compare two of them. */
  show(folder: vscode.Uri): void {
    this.open({ folder: folder.fsPath });
  }

  /** The index of `folder` changed: the webview asks for its runs (and its comparison) again. */
  refresh(folder?: vscode.Uri): void {
    if (folder && this.shown && folder.fsPath !== this.shown.index.root) return;
    this.post();
  }

  protected placeOf(saved: unknown): ComparePlace | undefined {
    const folder = checkedField(saved, 'folder', isFolderPath);
    return folder === undefined ? undefined : { folder };
  }

  protected point({ folder }: ComparePlace): boolean {
    const config = this.deps.config();
    if (!config) return false;
    if (this.shown?.index.root === folder) return true;
    try {
      const index = openPanelIndex(folder, config, this.deps.storageDir);
      this.forget();
      this.shown = {
        index,
        comparer: this.deps.comparer(index.db, index.root),
        lookup: new EpisodeLookup(index.db),
        last: null,
      };
      return true;
    } catch (error) {
      this.deps.log.warn(`Compare view: cannot open the index of ${folder}: ${errorText(error)}`);
      void vscode.window.showWarningMessage(`Credit Lens cannot compare runs: ${errorText(error)}`);
      return false;
    }
  }

  protected wire(session: WebviewSession): void {
    session.onReady(CompareReadyCommand, ({ folder }) => {
      if (!this.shown && folder) this.pointAt({ folder });
      this.post();
    });
    session.onRequest(GetCompareChoicesRequest, ({ folder }) => ({
      folder,
      runs: this.showing(folder).comparer.choices(),
    }));
    session.onRequest(CompareRunsRequest, ({ folder, request }) => this.compare(folder, request));
    session.onCommand(OpenCompareEpisodeCommand, (params) => {
      this.openExample(params);
    });
  }

  protected post(): void {
    const { session, shown } = this;
    const config = this.deps.config();
    if (!session || !shown || !config) return;
    this.revision++;
    session.panel.title = 'Compare Runs';
    session.notify(DidChangeCompareNotification, {
      folder: shown.index.root,
      defaultMethod: config.defaultMethod,
      revision: this.revision,
    });
  }

  protected forget(): void {
    this.shown?.index.db.close();
    this.shown = undefined;
  }

  private compare(folder: string, request: ComparisonRequest): ComparisonView {
    const shown = this.showing(folder);
    const clean = { a: cleanSide(request.a), b: cleanSide(request.b), method: request.method };
    shown.last = null;
    const comparison = shown.comparer.compare(clean);
    shown.last = comparison;
    return toWire(comparison);
  }

  /** Opens an episode of an example pair of the last comparison; refuses any other (the webview only names what it was sent). */
  private openExample({ folder, side, run, episode }: OpenCompareEpisodeParams): void {
    const shown = this.showing(folder);
    const last = shown.last;
    const sideRun = side === 'a' ? last?.a.run : last?.b.run;
    const listed = last?.examples.some((pair) => (side === 'a' ? pair.episodeA : pair.episodeB) === episode);
    if (!last || sideRun !== run || !listed)
      throw new Error(`episode ${episode} is not an example pair of the shown comparison`);
    const found = shown.lookup.byExternalId(episode).find((location) => location.run === run);
    if (!found) throw new Error(`episode ${episode} is not in run ${run || '(root)'} of the index`);
    const method = isViewMethod(last.method) ? last.method : undefined;
    this.deps.openEpisode(vscode.Uri.file(shown.index.root), found.episodeId, method);
  }

  /** The shown folder's state; refuses any other (the webview only asks about what it was sent). */
  private showing(folder: string): Shown {
    const shown = this.shown;
    if (shown?.index.root !== folder) throw new Error('that folder is no longer shown in this panel');
    return shown;
  }
}
