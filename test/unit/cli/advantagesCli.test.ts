import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import type { AdvantageExportRow } from '../../../src/engine/export/advantagesExport';
import { runCli as run } from '../../builders/cliRunner';
import { e16Groups, e16Sample } from '../../builders/e16Episodes';
import { jsonl, tempFolder } from '../../builders/episodeBuilder';
import { assertClose } from '../credit/stats/assertClose';

// `credit-lens advantages` (docs/advantages-export.md) on credit-methods.md §8 E16: E7's group, the
// always-successful group and one episode without a group, indexed and credited with loo.
let root = '';

function rows(...args: string[]): AdvantageExportRow[] {
  const result = run('advantages', root, ...args);
  assert.equal(result.status, 0, result.stderr);
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as AdvantageExportRow);
}

const of = (list: readonly AdvantageExportRow[], agent: string, group: string): AdvantageExportRow[] =>
  list.filter((r) => r.agent === agent && r.group_id === group);

before(() => {
  root = tempFolder();
  writeFileSync(join(root, 'a.jsonl'), jsonl(...e16Groups(1), e16Sample('lonely', 1, undefined, 1, 0, 0)));
  for (const args of [
    ['index', root],
    ['credit', root, '--method', 'loo'],
  ])
    assert.equal(run(...args).status, 0, args.join(' '));
});

describe('credit-lens advantages', () => {
  it('--signal loo: one row per (sample, agent) with the stored LOO credit and its GRPO advantage, keyed by the sample identity', () => {
    const all = rows();
    assert.equal(all.length, 9 * 2, 'nine episodes, two agents each');
    const planner = of(all, 'planner', 's1-e7');
    assert.deepEqual(
      planner.map((r) => [r.episode_id, r.step, r.uid, r.rollout_index, r.group_position, r.row, r.reward, r.credit]),
      [
        ['s1-e7-0', 1, 'u-s1-e7', 0, 0, 0, 1, 0],
        ['s1-e7-1', 1, 'u-s1-e7', 1, 1, 1, 1, 1],
        ['s1-e7-2', 1, 'u-s1-e7', 2, 2, 2, 0, 0],
        ['s1-e7-3', 1, 'u-s1-e7', 3, 3, 3, 1, 1],
      ],
    );
    // E7's D_Rsn = [0, 1, 0, 1] with the sample std (verl): ±1/(2·√(1/3)) = ±0.866025.
    assertClose(
      planner.map((r) => r.advantage ?? NaN),
      [-0.866025, 0.866025, -0.866025, 0.866025],
      1e-5,
    );
    assert.ok(planner.every((r) => r.signal === 'loo' && r.credit_status === 'exact' && r.credit_source === 'logged'));
    assert.ok(planner.every((r) => r.advantage_convention === 'verl' && r.format === 'credit_lens_jsonl'));
    const lonely = all.filter((r) => r.episode_id === 'lonely');
    assert.deepEqual(
      lonely.map((r) => [r.group_id, r.group_position, r.uid]),
      [
        [null, null, null],
        [null, null, null],
      ],
    );
  });

  it('--signal shared: the team reward as every agent signal, its advantage over the group; none without a group', () => {
    const all = rows('--signal', 'shared');
    assertClose(
      of(all, 'solver', 's1-e7').map((r) => r.advantage ?? NaN),
      [0.5, 0.5, -1.5, 0.5], // E7 with the sample std; verl's eps 1e-6 moves it by < 1e-5
      1e-5,
    );
    assert.deepEqual(
      of(all, 'planner', 's1-win').map((r) => r.advantage),
      [0, 0, 0, 0],
      'a constant group pushes nobody',
    );
    assert.deepEqual(
      all.filter((r) => r.episode_id === 'lonely').map((r) => [r.credit, r.credit_status, r.advantage]),
      [
        [1, 'exact', null],
        [1, 'exact', null],
      ],
    );
  });

  it('--format parquet writes the same rows, read back by DuckDB', async () => {
    const file = join(root, 'adv.parquet');
    const result = run('advantages', root, '--format', 'parquet', '--out', file);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /Wrote 18 rows to /);
    const c = await (await DuckDBInstance.create(':memory:')).connect();
    const read = await c.runAndReadAll(
      `SELECT episode_id, agent, advantage, uid, rollout_index FROM read_parquet('${file}') WHERE agent = 'planner' AND group_id = 's1-e7' ORDER BY episode_id`,
    );
    const jsonRows = of(rows(), 'planner', 's1-e7');
    assert.deepEqual(
      read.getRowObjects().map((r) => [r['episode_id'], r['uid'], r['rollout_index']]),
      jsonRows.map((r) => [r.episode_id, r.uid, r.rollout_index]),
    );
    assertClose(
      read.getRowObjects().map((r) => Number(r['advantage'])),
      jsonRows.map((r) => r.advantage ?? NaN),
    );
  });

  it('--out FILE writes JSON lines, and stdout stays empty', () => {
    const file = join(root, 'adv.jsonl');
    const result = run('advantages', root, '--signal', 'loo', '--out', file);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, '');
    assert.equal(readFileSync(file, 'utf8').trim().split('\n').length, 18);
  });

  it('bad input: an unknown signal or format, parquet without --out (usage), a method never computed (says what would answer)', () => {
    assert.equal(run('advantages', root, '--signal', 'reward').status, 2);
    assert.equal(run('advantages', root, '--format', 'csv').status, 2);
    assert.equal(run('advantages', root, '--format', 'parquet').status, 2);
    const missing = run('advantages', root, '--signal', 'shapley');
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /no shapley credit is stored for run .*credit-lens credit .* --method shapley/);
    assert.equal(run('advantages', join(root, 'nowhere')).status, 1);
  });
});

describe('credit-lens advantages on what verl writes', () => {
  it("keys rows of verl's own _dump_generations file (generate.py) by file, line and row; its dump logs no uid", () => {
    // test/fixtures/importers/verl/generated: verl's writer transcribed and run (README there names the commit).
    const folder = tempFolder();
    cpSync(join(import.meta.dirname, '../../fixtures/importers/verl/generated/dapo-overlong'), join(folder, 'dapo'), {
      recursive: true,
    });
    assert.equal(run('index', folder).status, 0);
    const result = run('advantages', folder, '--signal', 'shared');
    assert.equal(result.status, 0, result.stderr);
    const exported = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AdvantageExportRow);
    const lines = readFileSync(join(folder, 'dapo', 'rollout_data', '1.jsonl'), 'utf8')
      .trim()
      .split('\n');
    assert.equal(exported.length, lines.length, 'one row per training sample; val_data is not a training split');
    assert.deepEqual(
      exported.map((r) => [r.source, r.line, r.row, r.format, r.uid, r.rollout_index]),
      lines.map((_, i) => ['dapo/rollout_data/1.jsonl', i + 1, i, 'verl', null, null]),
    );
    // Each row's reward is the one DAPO trains on: the score plus its overlong penalty (both logged on
    // the line), and GRPO advantages are centred within each group.
    const rewards = lines.map((line) => {
      const record = JSON.parse(line) as { score: number; overlong_reward?: number };
      return record.score + (record.overlong_reward ?? 0);
    });
    assert.deepEqual(
      exported.map((r) => r.reward),
      rewards,
    );
    for (const group of new Set(exported.map((r) => r.group_id))) {
      const sum = exported.filter((r) => r.group_id === group).reduce((s, r) => s + (r.advantage ?? NaN), 0);
      assertClose(sum, 0, 1e-9);
    }
  });
});
