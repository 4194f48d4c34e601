import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  describeIndexFailure,
  formatIndexLog,
  formatIndexResult,
  formatProgressMessage,
  plural,
  progressIncrement,
  progressPercent,
} from '../../../src/extension/indexReport';
import { summaryOf, tallyOf } from '../fakes/extensionContext';

const summary = summaryOf({ files: 3, episodes: 1920, messages: 5760, agents: 5, errorCount: 2 });

test('formatIndexResult(summary, tally) states files, episodes, messages, agents and error lines', () => {
  assert.equal(
    formatIndexResult(summary, tallyOf()),
    'Indexed 3 files: 1,920 episodes, 5,760 messages, 5 agents; 2 lines with errors',
  );
});

test('formatIndexResult(summary, tally) uses singulars and leaves out a zero error count', () => {
  const one = summaryOf({ files: 1, episodes: 1, messages: 1, agents: 1 });
  assert.equal(formatIndexResult(one, tallyOf()), 'Indexed 1 file: 1 episode, 1 message, 1 agent');
  assert.equal(
    formatIndexResult({ ...one, errorCount: 1 }, tallyOf()),
    'Indexed 1 file: 1 episode, 1 message, 1 agent; 1 line with errors',
  );
});

test('formatIndexResult(summary, tally) says how far a cancelled pass got and counts skipped runs', () => {
  const text = formatIndexResult(
    summary,
    tallyOf({ cancelled: true, filesDone: 1, filesTotal: 3, fatal: ['b/run.json:1: bad'] }),
  );
  assert.equal(
    text,
    'Indexing cancelled after 1 of 3 files; the index holds 1,920 episodes, 5,760 messages, 5 agents; 2 lines with errors; 1 run skipped (unreadable run.json)',
  );
});

test('plural(n, word) adds an s except for one and groups thousands', () => {
  assert.equal(plural(0, 'file'), '0 files');
  assert.equal(plural(1, 'file'), '1 file');
  assert.equal(plural(12345, 'file'), '12,345 files');
});

test('formatProgressMessage(progress) shows files and episodes, then the search phase', () => {
  assert.equal(
    formatProgressMessage(tallyOf({ filesDone: 2, filesTotal: 5, episodesAdded: 1200 })),
    '2 of 5 files, 1,200 episodes added',
  );
  assert.equal(
    formatProgressMessage(tallyOf({ phase: 'search', searchEpisodes: 40 })),
    'Building the search index (40 episodes)',
  );
});

test('progressPercent(progress) is bytesDone / bytesTotal in percent, by files when there are no bytes, 0 for nothing', () => {
  assert.equal(progressPercent(tallyOf({ bytesDone: 250, bytesTotal: 1000 })), 25);
  assert.equal(progressPercent(tallyOf({ bytesDone: 2000, bytesTotal: 1000 })), 100);
  assert.equal(progressPercent(tallyOf({ filesDone: 1, filesTotal: 4 })), 25);
  assert.equal(progressPercent(tallyOf()), 0);
});

test('progressIncrement(reported, progress) returns the step since the last report, never negative', () => {
  assert.deepEqual(progressIncrement(0, tallyOf({ bytesDone: 300, bytesTotal: 1000 })), { percent: 30, increment: 30 });
  assert.deepEqual(progressIncrement(30, tallyOf({ bytesDone: 500, bytesTotal: 1000 })), {
    percent: 50,
    increment: 20,
  });
  assert.deepEqual(progressIncrement(50, tallyOf({ bytesDone: 100, bytesTotal: 1000 })), { percent: 50, increment: 0 });
});

test('formatIndexLog(...) lists the pass, the index contents and every listed error as file:line: reason', () => {
  const errors = [
    { file: 'a.jsonl', line: 2, reason: 'invalid JSON' },
    { file: 'b.jsonl', line: 7, reason: 'messages[0].agent: expected a string' },
  ];
  const run = {
    name: 'r',
    root: '',
    mechanism: 'debate',
    episodes: 3,
    messages: 9,
    agents: [{ name: 'a', kind: 'llm', episodes: 3, messages: 5 }],
    steps: { count: 1, min: 0, max: 0 },
    meanReward: 0.5,
  };
  const lines = formatIndexLog(
    '/runs/r',
    '/runs/r/.credit-lens/index.sqlite',
    { ...summary, errorCount: 3, errors, runs: [run] },
    tallyOf({ episodesAdded: 3 }),
  );
  assert.equal(lines[0], 'Indexed /runs/r into /runs/r/.credit-lens/index.sqlite');
  assert.ok(lines.includes('a.jsonl:2: invalid JSON'));
  assert.ok(lines.includes('b.jsonl:7: messages[0].agent: expected a string'));
  assert.ok(lines.some((line) => line.startsWith('Run r (debate): 3 episodes, 9 messages; a 3 ep / 5 msg')));
  assert.ok(lines.some((line) => line.startsWith('… and 1 more')));
});

test('describeIndexFailure(folder, message) turns driver, folder, lock and permission errors into advice', () => {
  assert.match(
    describeIndexFailure(
      '/r',
      'The module was compiled against a different Node.js version using NODE_MODULE_VERSION 115',
    ),
    /built for a different runtime/,
  );
  assert.equal(
    describeIndexFailure('/r', 'run folder not found: /r'),
    'Credit Lens: the folder /r does not exist or is not a folder.',
  );
  assert.match(describeIndexFailure('/r', 'SQLITE_BUSY: database is locked'), /locked by another process/);
  assert.match(
    describeIndexFailure('/r', "EACCES: permission denied, mkdir '/r/.credit-lens'"),
    /Check the folder's permissions/,
  );
  assert.equal(
    describeIndexFailure('/r', 'boom'),
    'Credit Lens could not index /r: boom. See the Credit Lens log for details.',
  );
  assert.equal(
    describeIndexFailure('/r', 'boom', 'read'),
    'Credit Lens could not read the index of /r: boom. See the Credit Lens log for details.',
  );
});
