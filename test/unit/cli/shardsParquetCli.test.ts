import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { openDatabase } from '../../../src/store/database';
import { runCli as run } from '../../builders/cliRunner';
import { tempFolder } from '../../builders/episodeBuilder';

// Shards and the Parquet export (docs/beyond-one-machine.md) on the demo: the planner/solver/verifier
// team (13 steps) and the routed two-expert run, with loo credit and an audit stored in each index.

const team = 'planner-solver-verifier';
const routed = 'routed-experts';
let root = '';
let demo = '';
/** Credit Lens's own summary of the whole demo: `credit --json`, run → agent → mean. */
let creditMeans = new Map<string, number>();

interface AgentJson {
  agent: string;
  episodes: number;
  mean: number;
  early: number | null;
  late: number | null;
}
interface SummaryJson {
  shards: string[];
  skipped: { path: string; reason: string }[];
  runs: { run: string; agents: AgentJson[] }[];
  flags: { run: string; kind: string; agent: string | null; scope_id: string; shard: string }[];
}

/** Indexes a folder, computes its loo credit and audits it, as a training job's step would. */
function indexShard(folder: string): void {
  for (const args of [
    ['index', folder],
    ['credit', folder, '--method', 'loo'],
    ['audit', folder],
  ]) {
    const result = run(...args);
    assert.equal(result.status, 0, `${args.join(' ')}: ${result.stderr}`);
  }
}

/** A shard holding `runName`'s run.json and those of its step files `keep` selects. */
function copyRun(to: string, runName: string, keep: (file: string) => boolean = () => true): void {
  const from = join(demo, runName);
  mkdirSync(join(to, runName, 'rollouts'), { recursive: true });
  copyFileSync(join(from, 'run.json'), join(to, runName, 'run.json'));
  for (const file of readdirSync(join(from, 'rollouts')).filter(keep))
    copyFileSync(join(from, 'rollouts', file), join(to, runName, 'rollouts', file));
}

const firstSteps = (file: string): boolean => Number(/\d+/.exec(file)?.[0]) <= 6;

function summary(...args: string[]): SummaryJson {
  const result = run('summary', ...args, '--json');
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout) as SummaryJson;
}

/** run → agent → agent summary. */
function byAgent(s: SummaryJson): Map<string, AgentJson> {
  return new Map(s.runs.flatMap((r) => r.agents.map((a) => [`${r.run}/${a.agent}`, a] as const)));
}

function flagKeys(s: SummaryJson): string[] {
  return s.flags.map((f) => `${f.run} ${f.kind} ${f.agent ?? ''} ${f.scope_id}`).sort();
}

/** run/agent → mean credit of a summary. */
function meansOf(s: SummaryJson): Map<string, number> {
  return new Map([...byAgent(s)].map(([key, a]) => [key, a.mean]));
}

function assertSameMeans(actual: ReadonlyMap<string, number>, expected: ReadonlyMap<string, number>): void {
  assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort());
  for (const [key, mean] of expected) {
    const got = actual.get(key) ?? Number.NaN;
    assert.ok(Math.abs(got - mean) <= 1e-9, `${key}: ${String(got)} vs ${String(mean)}`);
  }
}

async function duck(): Promise<DuckDBConnection> {
  return (await DuckDBInstance.create(':memory:')).connect();
}

async function rows(c: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  return (await c.runAndReadAll(sql)).getRowObjects();
}

/** DuckDB's per-agent mean of the latest loo pass in `credit.parquet`, run/agent → mean. */
async function duckMeans(c: DuckDBConnection, dir: string): Promise<Map<string, number>> {
  const found = await rows(
    c,
    `SELECT run, agent, avg(value) AS mean FROM read_parquet('${join(dir, 'credit.parquet')}')
     WHERE method = 'loo' AND latest AND message_seq IS NULL GROUP BY run, agent`,
  );
  return new Map(found.map((r) => [`${String(r['run'])}/${String(r['agent'])}`, Number(r['mean'])]));
}

before(() => {
  root = tempFolder();
  demo = join(root, 'demo');
  assert.equal(run('demo', '--out', demo, '--episodes', '480', '--json').status, 0);
  // The shards below hold the team and routed runs: the index forgets the demo's third run with its files.
  rmSync(join(demo, 'planner-solver-verifier-credit'), { recursive: true });
  assert.equal(run('index', demo).status, 0);
  const credit = run('credit', demo, '--method', 'loo', '--json');
  assert.equal(credit.status, 0, credit.stderr);
  const json = JSON.parse(credit.stdout) as {
    runs: { name: string; agents: { agent: string; meanCredit: number }[] }[];
  };
  creditMeans = new Map(json.runs.flatMap((r) => r.agents.map((a) => [`${r.name}/${a.agent}`, a.meanCredit] as const)));
  assert.equal(run('audit', demo).status, 0);
  // Shards by run: each run whole in one shard, so each shard's audit is the whole index's.
  copyRun(join(root, 'by-run-a'), team);
  copyRun(join(root, 'by-run-b'), routed);
  // Shards by step: the team's steps 1–6 in one shard, 7–13 and the routed run in the other.
  copyRun(join(root, 'by-step-a'), team, firstSteps);
  copyRun(join(root, 'by-step-b'), team, (file) => !firstSteps(file));
  copyRun(join(root, 'by-step-b'), routed);
  for (const shard of ['by-run-a', 'by-run-b', 'by-step-a', 'by-step-b']) indexShard(join(root, shard));
});

test('summary of one index gives the per-agent means of `credit-lens credit`', () => {
  const whole = summary(demo);
  assertSameMeans(meansOf(whole), creditMeans);
  assert.ok(
    flagKeys(whole).some((f) => f.startsWith(`${team} free-rider verifier`)),
    flagKeys(whole).join('; '),
  );
});

test('two shards by run, ATTACHed, give the means, windows and flags of one index over all the files', () => {
  const whole = summary(demo);
  const shards = summary(join(root, 'by-run-a'), join(root, 'by-run-b'));
  assert.equal(shards.shards.length, 2);
  assertSameMeans(meansOf(shards), creditMeans);
  for (const [key, a] of byAgent(whole)) {
    const b = byAgent(shards).get(key);
    assert.equal(b?.episodes, a.episodes, key);
    assert.ok(Math.abs((b?.early ?? NaN) - (a.early ?? NaN)) <= 1e-9, `${key} early`);
    assert.ok(Math.abs((b?.late ?? NaN) - (a.late ?? NaN)) <= 1e-9, `${key} late`);
  }
  assert.deepEqual(flagKeys(shards), flagKeys(whole));
});

test('two shards splitting one run by steps give its means over all the files (Σ / Σn, not a mean of means)', () => {
  const a = join(root, 'by-step-a', '.credit-lens', 'index.sqlite');
  const b = join(root, 'by-step-b', '.credit-lens', 'index.sqlite');
  const shards = summary('--db', a, '--db', b);
  assertSameMeans(meansOf(shards), creditMeans);
  const wholeTeam = byAgent(summary(demo)).get(`${team}/verifier`);
  const partA = byAgent(summary('--db', a)).get(`${team}/verifier`);
  assert.equal(byAgent(shards).get(`${team}/verifier`)?.episodes, wholeTeam?.episodes);
  assert.ok((partA?.episodes ?? 0) < (wholeTeam?.episodes ?? 0));
  // Each shard's audit saw only its own steps: the flags listed are theirs, named with their shard.
  assert.ok(shards.flags.every((f) => f.shard === a || f.shard === b));
});

test('export --parquet: DuckDB reads each file back with the index’s row counts and Credit Lens’s per-agent means', async () => {
  const out = join(root, 'parquet');
  const result = run('export', demo, '--parquet', out, '--json');
  assert.equal(result.status, 0, result.stderr);
  const written = JSON.parse(result.stdout) as { files: { file: string; rows: number }[] };
  const db = openDatabase(join(demo, '.credit-lens', 'index.sqlite'), { readonly: true });
  const expected = db
    .prepare<Record<string, number>>(
      `SELECT (SELECT count(*) FROM episode) AS episodes, (SELECT sum(n_messages) FROM episode) AS messages,
        (SELECT count(*) FROM credit) AS credit, (SELECT count(*) FROM flag) AS flags`,
    )
    .get();
  db.close();
  const c = await duck();
  for (const name of ['episodes', 'messages', 'credit', 'flags']) {
    const [row] = await rows(c, `SELECT count(*) AS n FROM read_parquet('${join(out, `${name}.parquet`)}')`);
    assert.equal(Number(row?.['n']), expected?.[name], name);
    assert.equal(written.files.find((f) => f.file.endsWith(`${name}.parquet`))?.rows, expected?.[name], name);
  }
  assert.ok((expected?.['flags'] ?? 0) > 0);
  assertSameMeans(await duckMeans(c, out), creditMeans);
  // The messages join their episodes; the episode row locates the record (and its text) in its trace file.
  const [joined] = await rows(
    c,
    `SELECT count(*) AS n, sum((e.source LIKE '%.jsonl')::INT) AS located
     FROM read_parquet('${join(out, 'messages.parquet')}') m JOIN read_parquet('${join(out, 'episodes.parquet')}') e
     USING (shard, run, episode_id)`,
  );
  assert.equal(Number(joined?.['n']), expected?.['messages']);
  assert.equal(Number(joined?.['located']), expected?.['messages']);
});

test('export --parquet over two shards gives the same per-agent means as one index over all the files', async () => {
  const out = join(root, 'parquet-shards');
  assert.equal(run('export', join(root, 'by-step-a'), join(root, 'by-step-b'), '--parquet', out).status, 0);
  const c = await duck();
  const means = await duckMeans(c, out);
  assertSameMeans(means, creditMeans);
  const shards = await rows(c, `SELECT DISTINCT shard FROM read_parquet('${join(out, 'episodes.parquet')}')`);
  assert.equal(shards.length, 2);
});

test('the export holds only the listed columns: no run configuration, evaluator settings or credit parameters', async () => {
  const out = join(root, 'parquet');
  const c = await duck();
  const columns = async (name: string): Promise<string[]> =>
    (await rows(c, `DESCRIBE SELECT * FROM read_parquet('${join(out, `${name}.parquet`)}')`)).map((r) =>
      String(r['column_name']),
    );
  assert.deepEqual(await columns('credit'), [
    'shard',
    'run',
    'scope_kind',
    'scope_id',
    'episode_id',
    'step',
    'group_id',
    'reward',
    'agent',
    'message_seq',
    'method',
    'value',
    'stderr',
    'ci_low',
    'ci_high',
    'advantage',
    'n',
    'status',
    'source',
    'intervention',
    'params_hash',
    'latest',
    'computed_at',
  ]);
  for (const name of ['episodes', 'messages', 'flags'])
    for (const column of await columns(name)) assert.doesNotMatch(column, /config|evaluator|params_json|key|content/);
});

test('a NULL or infinite credit value is null in Parquet, and DuckDB’s mean still equals the summary’s', async () => {
  const copy = join(root, 'nulls.sqlite');
  const db = openDatabase(join(demo, '.credit-lens', 'index.sqlite'), { readonly: true });
  db.prepare('VACUUM INTO ?').run(copy);
  db.close();
  const edit = openDatabase(copy);
  const ids = edit
    .prepare<{ credit_id: number }>(
      "SELECT credit_id FROM credit WHERE method = 'loo' AND message_seq IS NULL AND value <> 0 ORDER BY credit_id LIMIT 2",
    )
    .all()
    .map((r) => r.credit_id);
  edit.prepare('UPDATE credit SET value = NULL WHERE credit_id = ?').run(ids[0] ?? 0);
  edit.prepare('UPDATE credit SET value = 9e999 WHERE credit_id = ?').run(ids[1] ?? 0);
  edit.close();
  const out = join(root, 'parquet-nulls');
  assert.equal(run('export', '--db', copy, '--parquet', out).status, 0);
  const c = await duck();
  const [counts] = await rows(
    c,
    `SELECT count(*) AS n, count(value) AS finite, sum(isinf(value)::INT) AS inf FROM read_parquet('${join(out, 'credit.parquet')}')`,
  );
  assert.equal(Number(counts?.['n']) - Number(counts?.['finite']), 2);
  assert.equal(Number(counts?.['inf'] ?? 0), 0);
  const fromSummary = meansOf(summary('--db', copy));
  assert.notDeepEqual(fromSummary, creditMeans);
  const means = await duckMeans(c, out);
  assertSameMeans(means, fromSummary);
});

test('a missing or corrupt shard is named on stderr and the others are still read; none readable exits 1', () => {
  const corrupt = join(root, 'corrupt.sqlite');
  writeFileSync(corrupt, 'not an index '.repeat(100));
  const missing = join(root, 'missing.sqlite');
  const result = run('summary', '--db', missing, '--db', corrupt, join(root, 'by-run-a'), '--json');
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stderr, new RegExp(`shard ${missing} left out: no such index file`));
  assert.match(result.stderr, new RegExp(`shard ${corrupt} left out: .*not a database`));
  const json = JSON.parse(result.stdout) as SummaryJson;
  assert.deepEqual(
    json.runs.map((r) => r.run),
    [team],
  );
  assert.equal(json.skipped.length, 2);
  const out = join(root, 'parquet-partial');
  assert.equal(run('export', '--db', corrupt, join(root, 'by-run-b'), '--parquet', out).status, 0);
  const none = run('summary', '--db', missing, '--db', corrupt);
  assert.equal(none.status, 1);
  assert.match(none.stderr, /no index could be read/);
  assert.equal(run('summary').status, 2);
  assert.equal(run('info', demo, '--db', corrupt, '--db', missing).status, 2);
  copyRun(join(root, 'no-index'), team);
  const unindexed = run('summary', join(root, 'no-index'), join(root, 'by-run-b'));
  assert.equal(unindexed.status, 0);
  assert.match(unindexed.stderr, /no-index left out: no index/);
});
