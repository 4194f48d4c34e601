import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import * as vscode from 'vscode';
import { runIndexJob } from '../../../src/engine/indexJob';
import { ActiveIndex } from '../../../src/extension/activeIndex';
import { openDatabase } from '../../../src/store/database';
import { schemaVersion } from '../../../src/store/migrate';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';

const log = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
} as unknown as vscode.LogOutputChannel;

test('ActiveIndex.show(folder) opens an indexed folder read-only for the views and refuses one without an index', async () => {
  const root = tempFolder();
  writeFileSync(join(root, 'a.jsonl'), jsonl(episode('e1'), episode('e2')));
  await runIndexJob({ root, search: false });
  const active = new ActiveIndex(log);
  assert.equal(active.show(vscode.Uri.file(tempFolder())), false);
  assert.equal(active.get(), undefined);
  assert.equal(active.show(vscode.Uri.file(root)), true);
  const runs = active.get()?.repository.runs();
  assert.equal(runs?.[0]?.episodes, 2);
  active.dispose();
  assert.equal(active.get(), undefined);
});

test('ActiveIndex.of(folder) reads other indexed folders beside the shown one, until closeOthers()', async () => {
  const [a, b] = [tempFolder(), tempFolder()];
  writeFileSync(join(a, 'a.jsonl'), jsonl(episode('e1')));
  writeFileSync(join(b, 'b.jsonl'), jsonl(episode('e1'), episode('e2'), episode('e3')));
  for (const root of [a, b]) await runIndexJob({ root, search: false });
  const active = new ActiveIndex(log);
  assert.equal(active.show(vscode.Uri.file(a)), true);
  assert.equal(active.of(vscode.Uri.file(a)), active.get(), 'the shown folder is not opened twice');
  const other = active.of(vscode.Uri.file(b));
  assert.equal(other?.repository.runs()[0]?.episodes, 3);
  assert.equal(active.of(vscode.Uri.file(b)), other, 'kept until closeOthers()');
  active.closeOthers();
  assert.notEqual(active.of(vscode.Uri.file(b)), other);
  assert.equal(active.of(vscode.Uri.file(tempFolder())), undefined);
  active.hide();
  assert.equal(active.get(), undefined);
  active.dispose();
});

test('ActiveIndex.show(folder) on an index of another schema opens nothing and says why: older ones can be upgraded', async () => {
  const root = tempFolder();
  writeFileSync(join(root, 'a.jsonl'), jsonl(episode('e1')));
  await runIndexJob({ root, search: false });
  const writer = openDatabase(join(root, '.credit-lens', 'index.sqlite'));
  const active = new ActiveIndex(log);
  for (const [version, upgrade] of [
    [schemaVersion - 1, true],
    [schemaVersion + 1, false],
  ] as const) {
    writer.pragma(`user_version = ${version}`);
    assert.equal(active.show(vscode.Uri.file(root)), false);
    assert.equal(active.get(), undefined);
    assert.equal(active.unopened()?.folder.fsPath, root);
    assert.equal(active.unopened()?.upgrade, upgrade, `schema ${version}`);
    assert.match(active.unopened()?.reason ?? '', upgrade ? /is older than/ : /is newer than/);
  }
  // Read as another listed folder (ActiveIndex.of): the same reason, kept per folder.
  assert.equal(active.of(vscode.Uri.file(root)), undefined);
  assert.equal(active.unopened(vscode.Uri.file(root))?.upgrade, false);
  writer.pragma(`user_version = ${schemaVersion}`);
  assert.equal(active.of(vscode.Uri.file(root)), undefined, 'not reopened on every read of the view');
  active.closeOthers(); // after a pass or a change of folder
  assert.ok(active.of(vscode.Uri.file(root)));
  assert.equal(active.unopened(vscode.Uri.file(root)), undefined, 'opened: the reason is gone');
  active.closeOthers();
  assert.equal(active.show(vscode.Uri.file(root)), true);
  assert.equal(active.unopened(), undefined, 'shown: nothing to explain');
  writer.close();
  active.dispose();
});
