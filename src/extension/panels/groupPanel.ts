import * as vscode from 'vscode';
import { GroupViewService } from '../../engine/views/groupViewService';
import {
  DidChangeGroupNotification,
  DiffRolloutCommand,
  GetGroupRequest,
  GroupReadyCommand,
  OpenRolloutCommand,
  isGroupRef,
  type GroupRef,
  type GroupViewState,
} from '../../protocol/groupPanel';
import { checkedField, pickFields } from '../../protocol/ipc';
import type { ViewMethod } from '../../protocol/viewData';
import type { CreditLensConfig } from '../config';
import { openPanelIndex, type PanelIndex } from './panelIndex';
import { PanelHost, type PanelHostDeps } from './panelHost';
import { errorText, type WebviewSession } from './webviewSession';

export interface GroupPanelDeps extends PanelHostDeps {
  /** The settings, or undefined when they are invalid (already reported). */
  readonly config: () => CreditLensConfig | undefined;
  readonly storageDir?: string;
  /** Opens a rollout in the Episode panel, under the group view's method. */
  readonly openEpisode: (folder: vscode.Uri, episodeId: number, method: ViewMethod) => void;
  /** Asks for another rollout and opens the diff of this one with it, under the view's method. */
  readonly diffWith?: (folder: vscode.Uri, episodeId: number, method: ViewMethod) => void;
}

/** What a group panel shows: one GRPO group, named as its webview's saved state names it. */
type GroupPlace = Pick<GroupViewState, 'ref'>;

interface Shown {
  readonly index: PanelIndex;
  readonly service: GroupViewService;
  ref: GroupRef;
}

/**
 * "Credit Lens: GRPO Group": the rollouts of one GRPO group side by side, fed through
 * src/protocol/groupPanel.ts. The host says which group is shown (and bumps a revision when the
 * index changes); the webview asks for the group under its method.
 */
export class GroupPanel extends PanelHost<GroupPlace> {
  static readonly viewType = 'creditLens.group';
  private shown: Shown | undefined;
  private revision = 0;
  /** The method of the opening view, until the webview has been sent it once. */
  private openedMethod: ViewMethod | null = null;

  constructor(private readonly deps: GroupPanelDeps) {
    super(
      {
        viewType: GroupPanel.viewType,
        entry: { script: 'group', style: 'group.css', title: 'Credit Lens: GRPO Group' },
      },
      deps,
    );
  }

  /** Shows group `group` of run `runId` of the index of `folder`; `method` (the opening view's) is shown first. */
  show(folder: vscode.Uri, runId: number, group: string, method?: ViewMethod): void {
    this.openedMethod = method ?? null;
    this.open({ ref: { folder: folder.fsPath, runId, group } });
  }

  /** The index of `folder` changed: the webview asks for the group again. */
  refresh(folder?: vscode.Uri): void {
    if (folder && this.shown && folder.fsPath !== this.shown.index.root) return;
    this.post();
  }

  protected placeOf(saved: unknown): GroupPlace | undefined {
    const ref = checkedField(saved, 'ref', isGroupRef);
    return ref && { ref: pickFields(ref, ['folder', 'runId', 'group']) };
  }

  protected point({ ref }: GroupPlace): boolean {
    const config = this.deps.config();
    if (!config) return false;
    try {
      if (this.shown?.index.root !== ref.folder) {
        const index = openPanelIndex(ref.folder, config, this.deps.storageDir);
        this.forget();
        this.shown = { index, service: new GroupViewService(index.db, ref.folder), ref };
      }
      this.shown.ref = ref;
      return true;
    } catch (error) {
      this.deps.log.warn(`Group view: cannot open the index of ${ref.folder}: ${errorText(error)}`);
      void vscode.window.showWarningMessage(`Credit Lens cannot show the group: ${errorText(error)}`);
      return false;
    }
  }

  protected wire(session: WebviewSession): void {
    session.onReady(GroupReadyCommand, ({ ref }) => {
      if (!this.shown && ref) this.pointAt({ ref });
      this.post();
    });
    session.onRequest(GetGroupRequest, ({ ref, method }) => this.service(ref).group(ref, method));
    session.onCommand(OpenRolloutCommand, ({ ref, episodeId, method }) => {
      if (!this.service(ref).hasRollout(ref, episodeId))
        throw new Error(`episode ${String(episodeId)} is not a rollout of group ${ref.group}`);
      this.deps.openEpisode(vscode.Uri.file(ref.folder), episodeId, method);
    });
    session.onCommand(DiffRolloutCommand, ({ ref, episodeId, method }) => {
      if (!this.service(ref).hasRollout(ref, episodeId))
        throw new Error(`episode ${String(episodeId)} is not a rollout of group ${ref.group}`);
      this.deps.diffWith?.(vscode.Uri.file(ref.folder), episodeId, method);
    });
  }

  protected post(): void {
    const { session, shown } = this;
    const config = this.deps.config();
    if (!session || !shown || !config) return;
    this.revision++;
    session.panel.title = `GRPO Group ${shown.ref.group}`;
    session.notify(DidChangeGroupNotification, {
      ref: shown.ref,
      defaultMethod: config.defaultMethod,
      openedMethod: this.openedMethod,
      revision: this.revision,
    });
    // Sent once: later posts (index changes, reloads) keep the method the user chose since.
    if (session.isReady) this.openedMethod = null;
  }

  /** The service of the shown group; refuses any other (the webview only asks for what it was sent). */
  private service(ref: GroupRef): GroupViewService {
    const shown = this.shown;
    if (shown?.index.root !== ref.folder || shown.ref.runId !== ref.runId || shown.ref.group !== ref.group)
      throw new Error('that group is no longer shown in this panel');
    return shown.service;
  }

  protected forget(): void {
    this.shown?.index.db.close();
    this.shown = undefined;
  }
}
