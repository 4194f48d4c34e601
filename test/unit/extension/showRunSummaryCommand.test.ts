import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import { runIndexJob } from '../../../src/engine/indexJob';
import { showRunSummaryCommand, type ShowRunSummaryDeps } from '../../../src/extension/commands/showRunSummaryCommand';
import type { IndexedFolder } from '../../../src/extension/panels/runSummaryPanel';
import { jobResultOf, summaryOf, tempFolder } from '../fakes/extensionContext';
import { fake } from '../fakes/vscode';

const validLine = '{"id":"e1","agents":["a","b"],"messages":[{"agent":"a","content":"hi"}],"reward":1}';

function harness(overrides: Partial<ShowRunSummaryDeps> = {}): {
  deps: ShowRunSummaryDeps;
  shown: IndexedFolder[];
  indexed: vscode.Uri[];
} {
  const shown: IndexedFolder[] = [];
  const indexed: vscode.Uri[] = [];
  const deps: ShowRunSummaryDeps = {
    log: vscode.window.createOutputChannel('Credit Lens', { log: true }),
    showSummary: (folder) => shown.push(folder),
    indexFolder: (folder) => {
      indexed.push(folder);
      return Promise.resolve(jobResultOf(summaryOf({ files: 1 })));
    },
    ...overrides,
  };
  return { deps, shown, indexed };
}

beforeEach(() => {
  fake.reset();
});

test('the command shows the summary of an existing index', async () => {
  const root = tempFolder();
  writeFileSync(join(root, 'rollouts.jsonl'), `${validLine}\nnot json\n`);
  await runIndexJob({ root });
  const { deps, shown } = harness();
  fake.setWorkspaceFolders([root]);
  await showRunSummaryCommand(deps)();
  assert.equal(shown.length, 1);
  assert.equal(shown[0]?.folder.fsPath, root);
  assert.equal(shown[0]?.summary.episodes, 1);
  assert.equal(shown[0]?.summary.errorCount, 1);
  assert.equal(shown[0]?.indexPath, join(root, '.credit-lens', 'index.sqlite'));
});

test('without an index the command offers to index the folder, then shows the new summary', async () => {
  const root = tempFolder();
  const { deps, shown, indexed } = harness();
  fake.answerMessage = () => 'Index Now';
  await showRunSummaryCommand(deps)(vscode.Uri.file(root));
  assert.deepEqual(
    fake.messages.map((m) => [m.level, m.items]),
    [['info', ['Index Now']]],
  );
  assert.match(fake.messages[0]?.text ?? '', /has no Credit Lens index yet\.$/);
  assert.deepEqual(
    indexed.map((uri) => uri.fsPath),
    [root],
  );
  assert.equal(shown[0]?.summary.files, 1);
});

test('declining to index shows nothing', async () => {
  const { deps, shown, indexed } = harness();
  await showRunSummaryCommand(deps)(vscode.Uri.file(tempFolder()));
  assert.equal(indexed.length + shown.length, 0);
});

test('other read errors show an actionable error message', async () => {
  const { deps, shown } = harness({
    readSummary: () => {
      throw new Error('SQLITE_BUSY: database is locked');
    },
  });
  await showRunSummaryCommand(deps)(vscode.Uri.file('/runs/r'));
  assert.equal(shown.length, 0);
  assert.deepEqual(
    fake.messages.map((m) => m.level),
    ['error'],
  );
  assert.match(fake.messages[0]?.text ?? '', /locked by another process/);
});
