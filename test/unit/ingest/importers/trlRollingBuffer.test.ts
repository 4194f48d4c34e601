import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { trlMapper } from '../../../../src/ingest/importers/formats/trl/trl';
import { importRecord } from '../../../../src/ingest/importers/mapRecord';
import { IndexStore } from '../../../../src/store/indexStore';
import { rollingOverlap } from '../../../../src/core/rollingOverlap';

const fixtures = join(__dirname, '../../../fixtures/importers/trl/grpo');
const steps = ['00001', '00002', '00003'];

function rows(step: string): unknown[] {
  return JSON.parse(readFileSync(join(fixtures, `completions_${step}.rows.json`), 'utf8')) as unknown[];
}

/** Maps and writes one TRL file as the whole-file importer does (one batch per file, in path order). */
function writeFile(store: IndexStore, runId: number, step: string): { added: number; repeats: number; issues: number } {
  const fileName = `completions_${step}.parquet`;
  const uri = `out/completions/${fileName}`;
  const state = { size: 1, mtimeMs: 1, indexedOffset: 1, lines: 48, headHash: '' };
  const sourceId = store.resetSource(uri, runId, 'trl', state);
  const imported = rows(step).map((row, index) =>
    importRecord(
      trlMapper,
      row,
      { uri, fileName, index, line: index + 1, roster: [] },
      { uri, locator: { line: index + 1, offset: index, length: 0 } },
    ),
  );
  const episodes = imported.flatMap((r) => r.episodes);
  const issues = imported.flatMap((r) => r.issues);
  const { duplicates, repeats } = store.writeBatch({ uri, format: 'trl', sourceId, runId, episodes, issues, state });
  return { added: episodes.length - duplicates.length - repeats, repeats, issues: issues.length + duplicates.length };
}

test('TRL GRPO tables: 48 rollouts with identical answers are 48 episodes; a num_iterations re-dump is skipped and counted', () => {
  const store = IndexStore.open(join(mkdtempSync(join(tmpdir(), 'trl-')), 'index.sqlite'));
  const runId = store.upsertRun({ root: '', name: 'grpo' });
  const [first, again, next] = steps.map((step) => writeFile(store, runId, step));
  assert.deepEqual(first, { added: 48, repeats: 0, issues: 0 });
  assert.deepEqual(again, { added: 0, repeats: 48, issues: 0 });
  // Generation B's first group equals one of A's word for word: distinct rollouts, all kept.
  assert.deepEqual(next, { added: 48, repeats: 0, issues: 0 });
  const count = store.db.prepare('SELECT COUNT(*) AS n FROM episode').get() as { n: number };
  assert.equal(count.n, 96);
  const rewards = store.db
    .prepare("SELECT outcome AS reward FROM episode WHERE external_id LIKE 'trl-completions_00001-%' ORDER BY line")
    .all() as { reward: number | null }[];
  const expected = rows('00001').map((r) => {
    const row = r as { accuracy_reward: number | null; format_reward: number | null };
    return (row.accuracy_reward ?? 0) + (row.format_reward ?? 0);
  });
  assert.deepEqual(
    rewards.map((r) => r.reward),
    expected,
  );
  store.close();
});

test('rollingOverlap matches the previous dump by position, not by content', () => {
  assert.equal(rollingOverlap(['a', 'b', 'c'], ['a', 'b', 'c']), 3);
  assert.equal(rollingOverlap(['a', 'b', 'c'], ['b', 'c', 'd']), 2);
  assert.equal(rollingOverlap(['a', 'x', 'x'], ['x', 'x', 'x']), 2);
  assert.equal(rollingOverlap(['a', 'b'], ['c', 'a']), 0);
  assert.equal(rollingOverlap([], ['a']), 0);
});
