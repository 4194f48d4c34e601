import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatSummary } from '../../../src/cli/formatSummary';
import type { IndexSummary, SourceSummary } from '../../../src/core/indexSummary';

function summaryOf(sources: SourceSummary[]): IndexSummary {
  return {
    files: sources.length,
    runs: [],
    episodes: sources.reduce((n, s) => n + s.episodes, 0),
    messages: 0,
    agents: 0,
    steps: 0,
    searchableEpisodes: 0,
    errorCount: 0,
    errors: [],
    sources,
    formats: [{ format: 'verl', files: sources.length, episodes: 0 }],
  };
}

const source = (file: string, episodes = 2, errors = 0): SourceSummary => ({ file, format: 'verl', episodes, errors });

test('a few sources are listed one per line', () => {
  const lines = formatSummary(summaryOf([source('a/1.jsonl'), source('b/2.jsonl', 3, 1)]));
  const at = lines.indexOf('  sources');
  assert.deepEqual(lines.slice(at + 1, at + 3), [
    '    verl  a/1.jsonl (2 episodes)',
    '    verl  b/2.jsonl (3 episodes, 1 error)',
  ]);
});

test('many sources are summed per folder, so a 60-file run prints two lines, not sixty', () => {
  const files = [
    ...Array.from({ length: 40 }, (_, i) => source(`pipeline/rollouts/step_${String(i)}.jsonl`)),
    ...Array.from({ length: 20 }, (_, i) => source(`routed/rollouts/${String(i)}.jsonl`, 1, i === 3 ? 2 : 0)),
  ];
  const lines = formatSummary(summaryOf(files));
  const at = lines.findIndex((l) => l.startsWith('  sources'));
  assert.equal(lines[at], '  sources    by folder (--json lists every file)');
  assert.deepEqual(lines.slice(at + 1, at + 3), [
    '    verl  pipeline/rollouts/ (40 files, 80 episodes)',
    '    verl  routed/rollouts/ (20 files, 20 episodes, 2 errors)',
  ]);
  assert.equal(lines[at + 3], '  runs');
});

test('more folders than fit are counted', () => {
  const files = Array.from({ length: 12 }, (_, i) => source(`d${String(i).padStart(2, '0')}/x.jsonl`));
  const lines = formatSummary(summaryOf(files));
  assert.ok(lines.includes('    … and 4 more folders (--json lists every file)'), lines.join('\n'));
  assert.ok(lines.includes('    verl  d00/ (1 file, 2 episodes)'));
});
