import '../../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as vscode from 'vscode';
import { openGroupCommand } from '../../../../src/extension/commands/openGroupCommand';
import { fake } from '../../fakes/vscode';

test('openGroup(group node) shows the group of the node’s run; the node of ungrouped episodes and no node say why', async () => {
  const shown: [string, number, string][] = [];
  const command = openGroupCommand((folder, runId, group) => shown.push([folder.fsPath, runId, group]));
  const folder = vscode.Uri.file('/runs/exp-3');
  await command({ kind: 'group', folder, run: { runId: 4 }, step: { step: 2 }, group: { group: 's2:10' } });
  assert.deepEqual(shown, [['/runs/exp-3', 4, 's2:10']]);
  const before = fake.messages.length;
  await command({ kind: 'group', folder, run: { runId: 4 }, group: { group: null } });
  await command(undefined);
  await command({ folder, run: { runId: 4 }, group: null });
  assert.equal(shown.length, 1, 'nothing else is opened');
  const said = fake.messages.slice(before).map((m) => m.text);
  assert.match(said[0] ?? '', /log no GRPO group id/);
  assert.match(said[1] ?? '', /^Open Group View acts on a GRPO group/);
  assert.match(said[2] ?? '', /^Open Group View acts on a GRPO group/);
});
