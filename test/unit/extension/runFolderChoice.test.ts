import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import { pickRunFolder } from '../../../src/extension/commands/pickRunFolder';
import { runFolderChoice } from '../../../src/extension/runFolderChoice';
import { fake, Uri } from '../fakes/vscode';

beforeEach(() => {
  fake.reset();
});

test('runFolderChoice(invokedOn, folders) prefers the folder the command was invoked on', () => {
  assert.deepEqual(runFolderChoice('clicked', ['a', 'b']), { kind: 'use', folder: 'clicked' });
});

test('runFolderChoice(undefined, folders) uses a single workspace folder, picks among several, browses without any', () => {
  assert.deepEqual(runFolderChoice(undefined, ['a']), { kind: 'use', folder: 'a' });
  assert.deepEqual(runFolderChoice(undefined, ['a', 'b']), { kind: 'pick', folders: ['a', 'b'] });
  assert.deepEqual(runFolderChoice(undefined, []), { kind: 'browse' });
  assert.deepEqual(runFolderChoice(undefined, undefined), { kind: 'browse' });
});

test('pickRunFolder(uri) uses the explorer folder without asking', async () => {
  fake.setWorkspaceFolders(['/w/a', '/w/b']);
  const folder = await pickRunFolder(vscode.Uri.file('/w/a/run1'), 'test');
  assert.equal(folder?.fsPath, '/w/a/run1');
  assert.equal(fake.quickPicks.length + fake.openDialogs.length, 0);
});

test('pickRunFolder(non-Uri argument) ignores it and falls back to the workspace', async () => {
  fake.setWorkspaceFolders(['/w/only']);
  assert.equal((await pickRunFolder({ fsPath: '/etc' }, 'test'))?.fsPath, '/w/only');
});

test('pickRunFolder() offers the workspace folders and a Browse item', async () => {
  fake.setWorkspaceFolders(['/w/a', '/w/b']);
  fake.answerQuickPick = (items) => items[1];
  assert.equal((await pickRunFolder(undefined, 'test'))?.fsPath, '/w/b');
  const labels = (fake.quickPicks[0]?.items as { label: string }[]).map((item) => item.label);
  assert.deepEqual(labels, ['$(folder) a', '$(folder) b', '$(folder-opened) Browse…']);
});

test('pickRunFolder() browses when the Browse item is picked or no workspace is open', async () => {
  fake.setWorkspaceFolders(['/w/a', '/w/b']);
  fake.answerQuickPick = (items) => items[2];
  fake.answerOpenDialog = () => [Uri.file('/elsewhere')];
  assert.equal((await pickRunFolder(undefined, 'test'))?.fsPath, '/elsewhere');
  fake.setWorkspaceFolders(undefined);
  assert.equal((await pickRunFolder(undefined, 'test'))?.fsPath, '/elsewhere');
  assert.equal(fake.openDialogs.length, 2);
  assert.equal((fake.openDialogs[0] as { canSelectFolders: boolean }).canSelectFolders, true);
});

test('pickRunFolder() returns undefined when the user dismisses the pick or the dialog', async () => {
  fake.setWorkspaceFolders(['/w/a', '/w/b']);
  assert.equal(await pickRunFolder(undefined, 'test'), undefined);
  fake.setWorkspaceFolders([]);
  assert.equal(await pickRunFolder(undefined, 'test'), undefined);
});
