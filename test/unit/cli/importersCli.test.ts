// Issue 7's "done when", end to end through the built CLI with the registered importers.
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { cliPath as cli, runCli as run } from '../../builders/cliRunner';
import { tempFolder } from '../../builders/episodeBuilder';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'importers');

before(() => {
  assert.ok(existsSync(cli), 'dist/cli.js missing: run `node esbuild.mjs` first');
});

test('all seventeen Who&When samples index with no error, each as who-and-when, and the declared-but-silent expert is flagged silent', () => {
  const root = tempFolder();
  for (const part of ['Algorithm-Generated', 'Hand-Crafted'])
    cpSync(join(fixtures, 'who-and-when', part), join(root, part), { recursive: true });
  const samples = ['Algorithm-Generated', 'Hand-Crafted'].flatMap((part) =>
    readdirSync(join(root, part)).filter((n) => n.endsWith('.json')),
  );
  assert.equal(samples.length, 17);
  assert.equal(run('index', root).status, 0);
  const summary = JSON.parse(run('info', root, '--json').stdout).summary;
  assert.equal(summary.errorCount, 0, JSON.stringify(summary.errors));
  assert.equal(summary.episodes, 17);
  assert.deepEqual(new Set(summary.sources.map((s: { format: string }) => s.format)), new Set(['who-and-when']));
  // One run (the folder): `audit --json` prints its report.
  const audit = JSON.parse(run('audit', root, '--json').stdout) as { flags: { kind: string; agent?: string }[] };
  const silent = audit.flags.filter((f) => f.kind === 'silent');
  assert.ok(
    silent.some((f: { agent?: string }) => f.agent === 'Geography_Expert'),
    JSON.stringify(silent),
  );
});

test('a CCPO dump yields leave-one-out credit from its logged solo rewards with zero evaluator calls', () => {
  const root = tempFolder();
  cpSync(join(fixtures, 'ccpo', 'run.json'), join(root, 'run.json'));
  // The CCPO lines that log a solo branch (the fixture's last line is a single-solver SEPO line).
  const lines = readFileSync(join(fixtures, 'ccpo', '120.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .filter((l) => l.includes('"solo_reward"'));
  assert.ok(lines.length >= 3);
  writeFileSync(join(root, '120.jsonl'), `${lines.join('\n')}\n`);
  const indexed = run('index', root, '--json');
  assert.equal(indexed.status, 0, indexed.stderr);
  assert.match(run('info', root).stdout, /ccpo {2}120\.jsonl/);
  const credit = run('credit', root, '--method', 'loo', '--json');
  assert.equal(credit.status, 0, credit.stderr);
  const report = JSON.parse(credit.stdout);
  assert.equal(report.values.evaluated, 0, JSON.stringify(report.values));
  assert.ok(report.values.logged > 0);
  const episodes = report.runs[0].episodes as {
    id: string;
    credit: { loo: Record<string, { value: number; source: string }> };
  }[];
  assert.equal(episodes.length, lines.length);
  // Thinker's LOO is the joint reward minus the logged solo reward, line by line, from logged values.
  for (const [i, line] of lines.entries()) {
    const record = JSON.parse(line) as { joint_reward: unknown; solo_reward: unknown };
    const thinker = episodes[i]?.credit.loo['Thinker'];
    assert.equal(thinker?.value, Number(record.joint_reward) - Number(record.solo_reward));
    assert.equal(thinker?.source, 'logged');
  }
  rmSync(root, { recursive: true, force: true });
});

test('export --otlp writes the index as OTLP/JSON spans that the otel importer reads back to the same episodes and credit', () => {
  const root = tempFolder();
  cpSync(join(fixtures, 'ccpo', 'run.json'), join(root, 'run.json'));
  cpSync(join(fixtures, 'ccpo', '120.jsonl'), join(root, '120.jsonl'));
  assert.equal(run('index', root).status, 0);
  assert.equal(run('credit', root, '--method', 'shared').status, 0);
  const out = join(tempFolder(), 'spans.jsonl');
  const exported = run('export', root, '--otlp', '--method', 'shared', '--out', out);
  assert.equal(exported.status, 0, exported.stderr);
  assert.match(exported.stderr, /Wrote 4 episodes in 1 OTLP request/);
  const request = JSON.parse(readFileSync(out, 'utf8').trim()) as {
    resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[];
  };
  const names = request.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((span) => span.name)));
  assert.ok(
    names.some((n) => n.startsWith('invoke_workflow')),
    names.join(', '),
  );
  // Read back: a folder holding only the export is detected as OpenTelemetry and yields the same episodes.
  const back = join(out, '..');
  assert.equal(run('index', back).status, 0);
  const summary = JSON.parse(run('info', back, '--json').stdout).summary;
  assert.deepEqual(
    summary.sources.map((s: { format: string; episodes: number }) => [s.format, s.episodes]),
    [['otel', 4]],
  );
  assert.equal(
    run('export', root, '--otlp', '--out', join(root, 'missing', 'x.jsonl')).status,
    1,
    'a bad path is an error, not a crash',
  );
  assert.equal(run('export', root).status, 2, '--otlp is required');
});

test('TRL completions written by pandas.to_parquet (pyarrow, snappy) as TRL logs them: 48 rollouts per generation, re-dumps counted as repeats', () => {
  const root = join(tempFolder(), 'trl-run');
  cpSync('test/fixtures/importers/trl/grpo-parquet', root, { recursive: true });
  const indexed = run('index', root, '--json');
  assert.equal(indexed.status, 0, indexed.stderr);
  const json = JSON.parse(indexed.stdout) as {
    pass: { episodes: number; repeats?: number; errors: number };
    summary: { episodes: number; errorCount?: number };
  };
  assert.equal(
    json.summary.episodes,
    96,
    '2 generations × 48 rollouts; identical short answers inside a group are distinct rollouts',
  );
  assert.match(run('index', root).stdout + run('info', root).stdout, /96 episodes/);
  const text = run('credit', root, '--method', 'shared', '--json');
  const rewards =
    (JSON.parse(text.stdout) as { runs: { episodes: { reward: number | null }[] }[] }).runs[0]?.episodes.map(
      (e) => e.reward,
    ) ?? [];
  assert.equal(rewards.length, 96);
  assert.ok(
    rewards.every((r) => r === null || (r >= 0 && r <= 2)),
    'the reward is the nansum of the reward columns',
  );
});

test('credit-lens index on a folder mixing every format lists each source with its format and 0 errors', () => {
  const root = join(tempFolder(), 'mixed');
  const fixtures = 'test/fixtures/importers';
  const copy = (from: string, to: string): void => cpSync(join(fixtures, from), join(root, to), { recursive: true });
  copy('verl/generated/search-r1-retrieval-qwen7b', 'verl');
  copy('trl/grpo-parquet', 'trl');
  copy('c3/run', 'c3');
  copy('inspect/research-zstd.eval', 'inspect/research.eval');
  copy('rllm/train', 'rllm/train');
  copy('rllm/eval', 'rllm/eval');
  copy('atif/run-1', 'atif/run-1');
  copy('who-and-when/Hand-Crafted', 'who-and-when');
  copy('ccpo', 'ccpo');
  copy('otel/genai-trace.json', 'otel/genai-trace.json');
  // The tau-bench fixture holds two deliberately bad records; keep its valid, distinct ones.
  const tau = (
    JSON.parse(readFileSync(join(fixtures, 'tau-bench/trajectories.json'), 'utf8')) as {
      task_id: number;
      trial?: number;
      traj?: unknown;
    }[]
  ).filter(
    (r, i, all) => r.traj !== undefined && all.findIndex((o) => o.task_id === r.task_id && o.trial === r.trial) === i,
  );
  writeFileSync(join(root, 'tau-bench.json'), JSON.stringify(tau));
  const indexed = run('index', root, '--json');
  assert.equal(indexed.status, 0, indexed.stderr);
  const summary = (
    JSON.parse(indexed.stdout) as {
      summary: { errorCount: number; errors: unknown[]; sources: { file: string; format: string; errors: number }[] };
    }
  ).summary;
  assert.equal(summary.errorCount, 0, JSON.stringify(summary.errors));
  const formats = new Set(summary.sources.map((s) => s.format));
  for (const format of ['verl', 'trl', 'c3', 'inspect', 'rllm', 'atif', 'who-and-when', 'ccpo', 'otel', 'tau-bench'])
    assert.ok(formats.has(format), `${format} in ${[...formats].join(', ')}`);
  assert.ok(summary.sources.every((s) => s.errors === 0));
});

test('a mapping file that does not match a file says which path found nothing, in which mapping', () => {
  const root = join(tempFolder(), 'unmatched');
  cpSync('test/fixtures/importers/mapping/team-logs.mapping.json', join(root, 'team-logs.mapping.json'));
  writeFileSync(join(root, 'run-b.teamlog.jsonl'), `${JSON.stringify({ id: 'x', history: [1], meta: {} })}\n`);
  const indexed = run('index', root);
  assert.equal(indexed.status, 0, indexed.stderr);
  assert.match(
    indexed.stdout,
    /run-b\.teamlog\.jsonl:0: no importer recognises this file .*; run-b\.teamlog\.jsonl: mapping team-logs\.mapping\.json: "messages" path "\$\.turns\[\*\]" found nothing in the first 1 record \(keys seen: id, history, meta\)/,
  );
});
