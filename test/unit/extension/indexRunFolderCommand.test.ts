import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import type { IndexProgress } from '../../../src/core/indexProgress';
import type { IndexJobResult } from '../../../src/engine/indexJob';
import {
  indexRunFolderCommand,
  type IndexRunFolderDeps,
  type RunIndex,
} from '../../../src/extension/commands/indexRunFolderCommand';
import { openRunFolderCommand } from '../../../src/extension/commands/openRunFolderCommand';
import { IndexJobs } from '../../../src/extension/indexJobs';
import type { IndexedFolder } from '../../../src/extension/panels/runSummaryPanel';
import { jobResultOf, summaryOf, tallyOf, tempFolder, until } from '../fakes/extensionContext';
import { fake } from '../fakes/vscode';

const workerScript = join(__dirname, '..', '..', '..', 'dist', 'indexWorker.js');
const validLine = '{"id":"e1","agents":["a","b"],"messages":[{"agent":"a","content":"hi"}],"reward":1}';

interface Harness {
  readonly deps: IndexRunFolderDeps;
  readonly lines: string[];
  readonly shownSummaries: IndexedFolder[];
}

function harness(runIndex?: RunIndex): Harness {
  const log = vscode.window.createOutputChannel('Credit Lens', { log: true });
  const shownSummaries: IndexedFolder[] = [];
  const deps: IndexRunFolderDeps = {
    log,
    workerScript,
    jobs: new IndexJobs(),
    showSummary: (indexed) => shownSummaries.push(indexed),
    ...(runIndex ? { runIndex } : {}),
  };
  return { deps, lines: fake.channels.at(-1)!.lines, shownSummaries };
}

/** A stubbed index pass that the test finishes by hand. */
function stubbedRun() {
  const calls = {
    started: 0,
    cancelled: 0,
    root: '',
    dbPath: undefined as string | undefined,
    onProgress: undefined as ((p: IndexProgress) => void) | undefined,
  };
  let finish: (result: IndexJobResult & { maxRssBytes: number }) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const runIndex: RunIndex = (options, _script, onProgress) => {
    calls.started++;
    calls.root = options.root;
    calls.dbPath = options.dbPath;
    calls.onProgress = onProgress;
    const result = new Promise<IndexJobResult & { maxRssBytes: number }>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    return {
      result,
      cancel: () => {
        calls.cancelled++;
      },
    };
  };
  return {
    runIndex,
    calls,
    finish: (r: IndexJobResult & { maxRssBytes: number }) => finish(r),
    fail: (e: Error) => fail(e),
  };
}

beforeEach(() => {
  fake.reset();
});

test(
  'the command indexes the explorer folder with the real worker and logs the summary and each bad line',
  { skip: !existsSync(workerScript) && 'build dist/indexWorker.js first (node esbuild.mjs)' },
  async () => {
    const root = tempFolder();
    writeFileSync(join(root, 'rollouts.jsonl'), `${validLine}\n{"id": "e2", oops\n`);
    const { deps, lines, shownSummaries } = harness();
    fake.answerMessage = (message) => (message.level === 'info' ? 'Show Summary' : undefined);
    await indexRunFolderCommand(deps)(vscode.Uri.file(root));

    assert.ok(lines.includes(`[info] Indexing ${root}`), lines.join('\n'));
    assert.ok(
      lines.some((line) => line.startsWith('[info] Index: 1 file, 1 episode, 1 message, 2 agents')),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((line) => /^\[info\] rollouts\.jsonl:2: invalid JSON/.test(line)),
      lines.join('\n'),
    );
    assert.deepEqual(
      fake.messages.map((m) => [m.level, m.text, m.items]),
      [['info', 'Indexed 1 file: 1 episode, 1 message, 2 agents; 1 line with errors', ['Show Summary', 'Show Log']]],
    );
    assert.equal(fake.progress[0]?.options.cancellable, true);
    assert.equal(shownSummaries[0]?.folder.fsPath, root);
    assert.equal(shownSummaries[0]?.summary.errors[0]?.line, 2);
    assert.equal(deps.jobs.isRunning(root), false);
  },
);

test('progress is reported as increments of bytesDone / bytesTotal with files and episodes', async () => {
  const run = stubbedRun();
  const { deps } = harness(run.runIndex);
  fake.setWorkspaceFolders(['/runs/only']);
  const done = indexRunFolderCommand(deps)();
  await until(() => run.calls.started === 1, 'the pass to start');
  assert.equal(run.calls.root, '/runs/only');
  run.calls.onProgress?.(tallyOf({ bytesDone: 40, bytesTotal: 100, filesDone: 1, filesTotal: 2, episodesAdded: 10 }));
  run.calls.onProgress?.(tallyOf({ bytesDone: 100, bytesTotal: 100, filesDone: 2, filesTotal: 2, episodesAdded: 25 }));
  run.finish(jobResultOf(summaryOf({ files: 2, episodes: 25 })));
  await done;
  assert.deepEqual(fake.progress[0]?.reports, [
    { increment: 40, message: '1 of 2 files, 10 episodes added' },
    { increment: 60, message: '2 of 2 files, 25 episodes added' },
  ]);
});

test('cancelling the progress notification cancels the pass, which still reports what it indexed', async () => {
  const run = stubbedRun();
  const { deps, lines } = harness(run.runIndex);
  const done = indexRunFolderCommand(deps)(vscode.Uri.file('/runs/r'));
  await until(() => run.calls.started === 1, 'the pass to start');
  assert.equal(deps.jobs.isRunning('/runs/r'), true);
  fake.progress[0]?.cancel();
  assert.equal(run.calls.cancelled, 1);
  run.finish(
    jobResultOf(summaryOf({ files: 1, episodes: 5 }), tallyOf({ cancelled: true, filesDone: 1, filesTotal: 3 })),
  );
  await done;
  assert.ok(lines.some((line) => line.startsWith('[info] Cancelling the pass over /runs/r')));
  assert.match(fake.messages[0]?.text ?? '', /^Indexing cancelled after 1 of 3 files/);
  assert.equal(deps.jobs.isRunning('/runs/r'), false);
});

test('a second pass over a folder that is being indexed is refused', async () => {
  const run = stubbedRun();
  const { deps } = harness(run.runIndex);
  const first = indexRunFolderCommand(deps)(vscode.Uri.file('/runs/r'));
  await until(() => run.calls.started === 1, 'the pass to start');
  await indexRunFolderCommand(deps)(vscode.Uri.file('/runs/r'));
  assert.equal(run.calls.started, 1);
  assert.equal(fake.messages[0]?.text, 'Credit Lens is already indexing /runs/r.');
  run.finish(jobResultOf(summaryOf()));
  await first;
});

test('deactivation (disposing the job tracker) cancels running passes', async () => {
  const run = stubbedRun();
  const { deps } = harness(run.runIndex);
  const done = indexRunFolderCommand(deps)(vscode.Uri.file('/runs/r'));
  await until(() => run.calls.started === 1, 'the pass to start');
  deps.jobs.dispose();
  assert.equal(run.calls.cancelled, 1);
  run.finish(jobResultOf(summaryOf(), tallyOf({ cancelled: true })));
  await done;
});

test('a fatal error shows an actionable error message without a stack trace, and logs it', async () => {
  const run = stubbedRun();
  const { deps, lines } = harness(run.runIndex);
  fake.answerMessage = () => 'Show Log';
  const done = indexRunFolderCommand(deps)(vscode.Uri.file('/runs/gone'));
  await until(() => run.calls.started === 1, 'the pass to start');
  run.fail(new Error('run folder not found: /runs/gone'));
  await done;
  assert.deepEqual(
    fake.messages.map((m) => [m.level, m.text, m.items]),
    [['error', 'Credit Lens: the folder /runs/gone does not exist or is not a folder.', ['Show Log']]],
  );
  assert.ok(lines.includes('[error] Indexing /runs/gone failed: run folder not found: /runs/gone'));
  assert.equal(fake.channels[0]?.shown, 1);
});

test(
  'the real worker on a missing folder fails with the folder message',
  { skip: !existsSync(workerScript) && 'build dist/indexWorker.js first' },
  async () => {
    const { deps } = harness();
    await indexRunFolderCommand(deps)(vscode.Uri.file(join(tempFolder(), 'missing')));
    assert.equal(fake.messages[0]?.level, 'error');
    assert.match(fake.messages[0]?.text ?? '', /does not exist or is not a folder/);
  },
);

test('dismissing the folder pick does nothing', async () => {
  const run = stubbedRun();
  const { deps } = harness(run.runIndex);
  fake.setWorkspaceFolders(['/a', '/b']);
  await indexRunFolderCommand(deps)();
  assert.equal(run.calls.started, 0);
  assert.deepEqual(fake.messages, []);
});

test('the index goes where creditLens.index.location says (a custom folder)', async () => {
  const run = stubbedRun();
  const { deps } = harness(run.runIndex);
  fake.setWorkspaceFolders(['/runs/custom']);
  fake.settings.set('creditLens.index.location', { globalValue: '/var/indexes' });
  try {
    const done = indexRunFolderCommand(deps)();
    await until(() => run.calls.started === 1, 'the pass to start');
    assert.match(run.calls.dbPath ?? '', /^\/var\/indexes\/[0-9a-f]{16}\/index\.sqlite$/);
    run.finish(jobResultOf(summaryOf({ files: 1, episodes: 1 })));
    await done;
  } finally {
    fake.settings.delete('creditLens.index.location');
  }
});

test('Open Run Folder indexes a folder chosen anywhere on disk', async () => {
  const run = stubbedRun();
  const { deps } = harness(run.runIndex);
  const done = openRunFolderCommand(deps, () => Promise.resolve(vscode.Uri.file('/elsewhere/run-17')))();
  await until(() => run.calls.started === 1, 'the pass to start');
  assert.equal(run.calls.root, '/elsewhere/run-17');
  run.finish(jobResultOf(summaryOf({ files: 1, episodes: 3 })));
  await done;
  let started = 0;
  await openRunFolderCommand(deps, () => Promise.resolve(undefined))().then(() => (started = run.calls.started));
  assert.equal(started, 1, 'a dismissed dialog indexes nothing');
});
