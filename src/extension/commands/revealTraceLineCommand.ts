import * as vscode from 'vscode';

/** A Runs-view episode node, as a context menu passes it. */
interface EpisodeNode {
  readonly folder: vscode.Uri;
  readonly episode: { readonly uri: string; readonly line: number };
}

function isEpisodeNode(value: unknown): value is EpisodeNode {
  if (typeof value !== 'object' || value === null) return false;
  const node = value as Partial<EpisodeNode>;
  return (
    node.folder instanceof vscode.Uri && typeof node.episode?.uri === 'string' && typeof node.episode.line === 'number'
  );
}

/** Handler of `creditLens.revealTraceLine`: opens the trace file of an episode at its line. */
export function revealTraceLineCommand(): (argument?: unknown) => Promise<void> {
  return async (argument) => {
    if (!isEpisodeNode(argument)) {
      void vscode.window.showInformationMessage(
        'Choose an episode in the Credit Lens Runs view to reveal its trace line.',
      );
      return;
    }
    const line = Math.max(0, argument.episode.line - 1);
    const uri = vscode.Uri.joinPath(argument.folder, ...argument.episode.uri.split('/'));
    await vscode.commands.executeCommand('vscode.open', uri, {
      selection: new vscode.Range(new vscode.Position(line, 0), new vscode.Position(line, 0)),
    });
  };
}
