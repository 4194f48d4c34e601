import '../../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as vscode from 'vscode';
import { pickRunFolder } from '../../../../src/extension/commands/pickRunFolder';
import { revealTraceLineCommand } from '../../../../src/extension/commands/revealTraceLineCommand';
import { fake } from '../../fakes/vscode';

test('pickRunFolder(node) uses the folder of a Runs-view node passed by a context menu', async () => {
  fake.setWorkspaceFolders(['/a', '/b']);
  const folder = await pickRunFolder({ kind: 'run', folder: vscode.Uri.file('/runs/exp-3'), run: {} }, 'test');
  assert.equal(folder?.fsPath, '/runs/exp-3');
});

test('revealTraceLine(episode node) opens the trace file at the episode line (0-based selection)', async () => {
  const opened: unknown[][] = [];
  const registration = vscode.commands.registerCommand('vscode.open', (...args: unknown[]) => void opened.push(args));
  try {
    await revealTraceLineCommand()({
      folder: vscode.Uri.file('/runs/exp-3'),
      episode: { uri: 'rollouts/step_0007.jsonl', line: 12 },
    });
    const [uri, options] = opened[0] ?? [];
    assert.equal((uri as vscode.Uri).fsPath, '/runs/exp-3/rollouts/step_0007.jsonl');
    const selection = (options as { selection: vscode.Range }).selection;
    assert.equal(selection.start.line, 11);
    await revealTraceLineCommand()('not a node');
    assert.equal(opened.length, 1, 'nothing is opened without an episode');
  } finally {
    registration.dispose();
  }
});
