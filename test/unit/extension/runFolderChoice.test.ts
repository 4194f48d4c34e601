import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import { runIndexJob } from '../../../src/engine/indexJob';
import { pickFolderToIndex, pickRunFolder } from '../../../src/extension/commands/pickRunFolder';
import { RunFolders } from '../../../src/extension/runFolders';
import {
  maxCandidates,
  runFolderCandidates,
  runFolderChoice,
  runFolderLabel,
  type RunFolderFacts,
} from '../../../src/extension/runFolderChoice';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { fake, Uri } from '../fakes/vscode';

beforeEach(() => {
  fake.reset();
});

const facts = (fields: Partial<RunFolderFacts<string>>): RunFolderFacts<string> => ({
  indexed: [],
  hasWorkspace: true,
  need: 'read',
  ...fields,
});

test('runFolderChoice: the folder invoked on wins, then the current folder, then the only indexed one', () => {
  assert.deepEqual(runFolderChoice(facts({ invokedOn: 'clicked', current: 'a', indexed: ['a', 'b'] })), {
    kind: 'use',
    folder: 'clicked',
  });
  assert.deepEqual(runFolderChoice(facts({ current: 'b', indexed: ['a', 'b'] })), { kind: 'use', folder: 'b' });
  assert.deepEqual(runFolderChoice(facts({ indexed: ['demo-run'] })), { kind: 'use', folder: 'demo-run' });
});

test('runFolderChoice: several indexes and no choice → a pick among them, for reading and indexing alike', () => {
  assert.deepEqual(runFolderChoice(facts({ indexed: ['a', 'b'] })), { kind: 'pick', folders: ['a', 'b'] });
  assert.deepEqual(runFolderChoice(facts({ indexed: ['a', 'b'], need: 'index', lastChosen: 'gone' })), {
    kind: 'pick',
    folders: ['a', 'b'],
  });
});

test('runFolderChoice: no index anywhere → reading offers indexing, the Index command chooses a folder (or re-indexes the last chosen)', () => {
  assert.deepEqual(runFolderChoice(facts({})), { kind: 'offerIndexing' });
  assert.deepEqual(runFolderChoice(facts({ lastChosen: 'old' })), { kind: 'offerIndexing' });
  assert.deepEqual(runFolderChoice(facts({ need: 'index' })), { kind: 'chooseToIndex' });
  assert.deepEqual(runFolderChoice(facts({ need: 'index', lastChosen: 'old' })), { kind: 'use', folder: 'old' });
  assert.deepEqual(runFolderChoice(facts({ hasWorkspace: false })), { kind: 'browse' });
  assert.deepEqual(runFolderChoice(facts({ hasWorkspace: false, need: 'index' })), { kind: 'browse' });
});

test('runFolderLabel names a folder relative to its workspace folder', () => {
  const one = [{ fsPath: '/w', name: 'w' }];
  assert.equal(runFolderLabel('/w', one), 'w');
  assert.equal(runFolderLabel('/w/demo-run', one), 'demo-run');
  assert.equal(runFolderLabel('/w/runs/exp-3', one), 'runs/exp-3');
  assert.equal(runFolderLabel('/elsewhere/run', one), '/elsewhere/run');
  assert.equal(runFolderLabel('/wx/run', one), '/wx/run', 'a sibling with the same prefix is outside');
  const two = [...one, { fsPath: '/v', name: 'v' }];
  assert.equal(runFolderLabel('/v/demo-run', two), 'v/demo-run');
});

test('runFolderCandidates: top-level folders holding traces and folders with a run.json, sorted, without the root', () => {
  const files = [
    '/w/top.jsonl',
    '/w/runs/exp1/run.json',
    '/w/runs/exp1/rollouts/s.jsonl',
    '/w/data/x.parquet',
    '/elsewhere/y.jsonl',
    '/w/runs/exp2/run.json',
  ];
  assert.deepEqual(runFolderCandidates(['/w'], files), ['/w/data', '/w/runs', '/w/runs/exp1', '/w/runs/exp2']);
  assert.deepEqual(runFolderCandidates(['/w'], []), []);
  const many = Array.from({ length: 40 }, (_, i) => `/w/r${String(i).padStart(2, '0')}/a.jsonl`);
  assert.equal(runFolderCandidates(['/w'], many).length, maxCandidates);
});

test('pickRunFolder(uri or Runs-view node) uses that folder without asking', async () => {
  fake.setWorkspaceFolders(['/w/a', '/w/b']);
  assert.equal((await pickRunFolder(vscode.Uri.file('/w/a/run1'), 'test'))?.fsPath, '/w/a/run1');
  assert.equal(
    (await pickRunFolder({ kind: 'run', folder: vscode.Uri.file('/w/b/exp'), run: {} }, 'test'))?.fsPath,
    '/w/b/exp',
  );
  assert.equal(fake.quickPicks.length + fake.openDialogs.length + fake.messages.length, 0);
});

test('pickRunFolder() uses the only indexed workspace folder and ignores a non-Uri argument', async () => {
  const indexed = tempFolder();
  writeFileSync(join(indexed, 'a.jsonl'), jsonl(episode('e1')));
  await runIndexJob({ root: indexed, search: false });
  fake.setWorkspaceFolders([tempFolder(), indexed]);
  assert.equal((await pickRunFolder({ fsPath: '/etc' }, 'test'))?.fsPath, indexed);
  assert.equal(fake.quickPicks.length + fake.messages.length, 0);
});

test('pickRunFolder() without any index says so and, on request, indexes the folder chosen', async () => {
  fake.setWorkspaceFolders(['/w/a', '/w/b']);
  const indexed: unknown[] = [];
  fake.commands.set('creditLens.indexRunFolder', (folder) => indexed.push(folder));
  fake.answerMessage = (message) => message.items[0];
  fake.answerQuickPick = (items) => items[1];
  assert.equal(await pickRunFolder(undefined, 'test'), undefined);
  assert.deepEqual(
    fake.messages.map((m) => [m.text, m.items]),
    [['No Credit Lens index in this workspace yet: index a run folder first.', ['Index Run Folder…']]],
  );
  const labels = (fake.quickPicks[0]?.items as { label: string }[]).map((item) => item.label);
  assert.deepEqual(labels, ['$(folder) a', '$(folder) b', '$(folder-opened) Browse…']);
  assert.deepEqual(
    indexed.map((folder) => (folder as vscode.Uri).fsPath),
    ['/w/b'],
  );
});

test('pickFolderToIndex(): one workspace folder is used, several are picked among, Browse opens a dialog', async () => {
  fake.setWorkspaceFolders(['/w/only']);
  assert.equal((await pickFolderToIndex(undefined, 'test'))?.fsPath, '/w/only');
  fake.setWorkspaceFolders(['/w/a', '/w/b']);
  fake.answerQuickPick = (items) => items[2];
  fake.answerOpenDialog = () => [Uri.file('/elsewhere')];
  assert.equal((await pickFolderToIndex(undefined, 'test'))?.fsPath, '/elsewhere');
  assert.equal((fake.openDialogs[0] as { canSelectFolders: boolean }).canSelectFolders, true);
  fake.setWorkspaceFolders(undefined);
  assert.equal((await pickFolderToIndex(undefined, 'test'))?.fsPath, '/elsewhere');
  assert.equal(fake.openDialogs.length, 2);
});

test('a dismissed pick, message or dialog gives undefined', async () => {
  fake.setWorkspaceFolders(['/w/a', '/w/b']);
  assert.equal(await pickFolderToIndex(undefined, 'test'), undefined);
  assert.equal(await pickRunFolder(undefined, 'test'), undefined);
  fake.setWorkspaceFolders([]);
  assert.equal(await pickRunFolder(undefined, 'test'), undefined);
  assert.equal(fake.openDialogs.length, 1);
});

test('RunFolders.candidates() never counts hidden folders or node_modules as run folders', async () => {
  const root = tempFolder();
  for (const dir of ['runs/exp1', 'node_modules/pkg', '.venv/lib']) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'runs/exp1/run.json'), '{}');
  writeFileSync(join(root, 'node_modules/pkg/t.jsonl'), '');
  writeFileSync(join(root, '.venv/lib/t.jsonl'), '');
  fake.setWorkspaceFolders([root]);
  const folders = new RunFolders({
    state: { get: () => undefined, update: () => Promise.resolve() },
    hasIndex: () => false,
    log: { info: () => undefined, warn: () => undefined },
  });
  const candidates = (await folders.candidates()).map((uri) => uri.fsPath);
  assert.deepEqual(candidates, [join(root, 'runs'), join(root, 'runs/exp1'), root]);
  folders.dispose();
});
