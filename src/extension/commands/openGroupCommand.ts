import * as vscode from 'vscode';
import { isRecord } from '../../protocol/ipc';

/** Opens a GRPO group in the group view; the GroupPanel's `show`. */
export type ShowGroup = (folder: vscode.Uri, runId: number, group: string) => void;

/** A Runs-view group node as a context menu or inline action passes it. */
interface GroupNodeArgument {
  readonly folder: vscode.Uri;
  readonly run: { readonly runId: number };
  readonly group: { readonly group?: unknown };
}

function groupNode(argument: unknown): GroupNodeArgument | undefined {
  if (typeof argument !== 'object' || argument === null) return undefined;
  const node = argument as Partial<GroupNodeArgument>;
  return node.folder instanceof vscode.Uri && typeof node.run?.runId === 'number' && isRecord(node.group)
    ? (node as GroupNodeArgument)
    : undefined;
}

/**
 * Handler of `creditLens.openGroup`: the group view of a Runs-view group node. The node of the
 * episodes that log no group, or a call without a node, says where groups are opened from.
 */
export function openGroupCommand(show: ShowGroup): (argument?: unknown) => Promise<void> {
  return (argument) => {
    const node = groupNode(argument);
    const group = node?.group.group;
    if (node && typeof group === 'string') show(node.folder, node.run.runId, group);
    else
      void vscode.window.showInformationMessage(
        node
          ? 'These episodes log no GRPO group id, so they form no group to compare.'
          : 'Open Group View acts on a GRPO group: use it on a group in the Runs view, a Group cell of the dashboard, or the group link of the Episode view.',
      );
    return Promise.resolve();
  };
}
