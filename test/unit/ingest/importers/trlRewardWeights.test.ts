import assert from 'node:assert/strict';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeManifest } from '../../../../src/ingest/canonical/decodeManifest';
import { selectionOf, streamRecords } from '../../../../src/ingest/importers/containers/container';
import { trlMapper } from '../../../../src/ingest/importers/formats/trl/trl';
import { indexRunFolder } from '../../../../src/ingest/indexRunFolder';
import { readEpisode } from '../../../../src/ingest/readEpisode';
import { formatMappers } from '../../../../src/ingest/importers/mappers';
import { IndexStore } from '../../../../src/store/indexStore';
import { tempFolder } from '../../../builders/episodeBuilder';

const fixture = join(__dirname, '../../../fixtures/importers/trl/grpo-parquet');
const weights = { accuracy_reward: 1, format_reward: 0.5 };

/** A copy of the real TRL parquet run with the given run.json (none when undefined). */
function trlRun(manifest?: Record<string, unknown>): string {
  const root = join(tempFolder(), 'trl-run');
  cpSync(fixture, root, { recursive: true });
  if (manifest)
    writeFileSync(join(root, 'run.json'), JSON.stringify({ format: 'credit-lens', version: '1.0', ...manifest }));
  return root;
}

interface Row {
  external_id: string;
  uri: string;
  format: string;
  line: number;
  byte_offset: number;
  byte_length: number;
  outcome: number | null;
}

function episodes(store: IndexStore): Row[] {
  return store.db
    .prepare<Row>(
      'SELECT e.external_id, s.uri, s.format, e.line, e.byte_offset, e.byte_length, e.outcome FROM episode e JOIN source s USING (source_id) ORDER BY s.uri, e.line',
    )
    .all();
}

/** TRL's `(rewards_per_func * reward_weights).nansum()` over a raw parquet row (null: the function returned None). */
function trlReward(row: Record<string, unknown>): number | null {
  const values = Object.entries(weights).filter(([name]) => typeof row[name] === 'number' && !Number.isNaN(row[name]));
  return values.length === 0 ? null : values.reduce((sum, [name, w]) => sum + (row[name] as number) * w, 0);
}

/** The raw rows of a parquet file of the run, by position. */
async function rawRows(root: string, uri: string): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for await (const item of streamRecords('parquet', join(root, uri), selectionOf(trlMapper)))
    if (item.kind === 'record') rows.push(item.record as Record<string, unknown>);
  return rows;
}

test('run.json rewardWeights weigh each TRL reward column as the trainer does; read back agrees with the index', async () => {
  const root = trlRun({ rewardWeights: weights });
  const store = IndexStore.open(':memory:');
  const tally = await indexRunFolder(root, store);
  assert.equal(tally.issues, 0);
  const rows = episodes(store);
  assert.equal(rows.length, 96);
  let changed = 0;
  for (const row of rows) {
    const raw = (await rawRows(root, row.uri))[row.line - 1];
    assert.ok(raw);
    const expected = trlReward(raw);
    assert.equal(row.outcome, expected, row.external_id);
    const unweighted =
      ((raw['accuracy_reward'] as number | null) ?? 0) + ((raw['format_reward'] as number | null) ?? 0);
    if (expected !== null && expected !== unweighted) changed++;
    const read = await readEpisode(
      root,
      {
        uri: row.uri,
        format: row.format,
        line: row.line,
        offset: row.byte_offset,
        length: row.byte_length,
        externalId: row.external_id,
      },
      formatMappers,
    );
    assert.ok(read.ok, read.ok ? '' : read.error);
    assert.equal(read.value.reward ?? null, expected, `${row.external_id} read back`);
  }
  assert.ok(changed > 0, 'the weights change some rewards');
  store.close();
});

test('without rewardWeights every reward function weighs 1', async () => {
  const root = trlRun({ name: 'plain' });
  const store = IndexStore.open(':memory:');
  await indexRunFolder(root, store);
  for (const row of episodes(store)) {
    const raw = (await rawRows(root, row.uri))[row.line - 1] ?? {};
    const a = raw['accuracy_reward'] as number | null;
    const f = raw['format_reward'] as number | null;
    assert.equal(row.outcome, a === null && f === null ? null : (a ?? 0) + (f ?? 0));
  }
  store.close();
});

test('a rewardWeights name that is no reward column of the file is an issue on each row, naming the columns', async () => {
  const root = trlRun({ rewardWeights: { accuracy_reward: 1, length_reward: 2 } });
  const store = IndexStore.open(':memory:');
  await indexRunFolder(root, store);
  assert.equal(episodes(store).length, 0);
  const errors = store.summary.summary().errors.map((e) => e.reason);
  assert.ok(errors.length > 0);
  assert.match(
    errors[0] ?? '',
    /run\.json rewardWeights: "length_reward" is not a reward column of this file \(reward columns: accuracy_reward, format_reward\)/,
  );
  store.close();
});

test('decodeManifest rejects negative, non-numeric and unnamed reward weights', () => {
  const manifest = (rewardWeights: unknown): ReturnType<typeof decodeManifest> =>
    decodeManifest({ format: 'credit-lens', version: '1.0', rewardWeights }, 'run');
  const good = manifest({ a: 0, b: 2.5 });
  assert.ok(good.ok && good.value.rewardWeights?.['b'] === 2.5);
  for (const [bad, message] of [
    [{ a: -1 }, /rewardWeights\.a: expected a finite non-negative number, got -1/],
    [{ a: 'NaN' }, /rewardWeights\.a: expected a finite non-negative number/],
    [{ a: null }, /rewardWeights\.a/],
    [{ '': 1 }, /rewardWeights/],
    [[1, 0.5], /rewardWeights/],
  ] as const) {
    const decoded = manifest(bad);
    assert.ok(!decoded.ok, JSON.stringify(bad));
    assert.match(decoded.error, message);
  }
  assert.ok(manifest(null).ok, 'null means absent');
});
