import assert from 'node:assert/strict';
import { cpSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, test } from 'node:test';
import { runCli as run } from '../../builders/cliRunner';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';

let demo = '';

before(() => {
  demo = join(tempFolder(), 'demo');
  assert.equal(run('demo', '--out', demo, '--episodes', '640').status, 0);
});

test('credit-lens credit --method loo prints per-agent credit with early → late trends', () => {
  const result = run('credit', demo, '--method', 'loo', '--run', 'planner-solver-verifier');
  assert.equal(result.status, 0, result.stderr);
  assert.match(
    result.stdout,
    /planner-solver-verifier \(pipeline\): 640 episodes computed, 0 not identifiable, 0 failed/,
  );
  // Logged counterfactuals: every value exact, from the log.
  assert.match(result.stdout, /verifier\s+640 .*\sexact$/m);
  const verifier = /verifier\s+640\s+(-?[\d.]+)\s+\[[^\]]+\]\s+(-?[\d.]+) → (-?[\d.]+)/.exec(result.stdout);
  assert.ok(verifier, result.stdout);
  assert.ok(Number(verifier[2]) > 0.15 && Math.abs(Number(verifier[3])) < 0.02, result.stdout);
});

test('credit-lens credit --json gives runs, agent summaries, per-episode credit with group advantages, and cache stats', () => {
  const result = run(
    'credit',
    demo,
    '--method',
    'shared',
    '--run',
    'planner-solver-verifier',
    '--step',
    '1..2',
    '--json',
  );
  assert.equal(result.status, 0, result.stderr);
  const json = JSON.parse(result.stdout);
  const team = json.runs[0];
  assert.equal(team.name, 'planner-solver-verifier');
  assert.deepEqual(
    team.agents.map((a: { agent: string }) => a.agent),
    ['planner', 'solver', 'verifier'],
  );
  assert.ok(team.episodes.length > 0 && team.episodes.every((e: { step: number }) => e.step >= 1 && e.step <= 2));
  const first = team.episodes[0];
  assert.equal(first.credit.shared.verifier.value, first.reward);
  assert.equal(typeof first.credit.shared.verifier.advantage, 'number');
  assert.ok('hitRate' in json.values);
});

test('credit-lens credit --csv writes one row per episode and agent (and message rows with --messages)', () => {
  const csv = run('credit', demo, '--method', 'routing', '--run', 'routed-experts', '--step', '1', '--csv');
  assert.equal(csv.status, 0, csv.stderr);
  const lines = csv.stdout.trim().split('\n');
  assert.equal(
    lines[0],
    'run,episode,step,group,reward,agent,message,method,value,stderr,ci_low,ci_high,advantage,approximate,source,status,intervention,reason,remedy',
  );
  const methods = new Set(lines.slice(1).map((l) => l.split(',')[7]));
  assert.deepEqual([...methods].sort(), ['routing', 'routing-ipw', 'wta']);
  // IPW signals are single-decision estimates; winner-take-all is exactly what the winner got.
  const statuses = new Set(lines.slice(1).map((l) => `${l.split(',')[7]}:${l.split(',')[14]}:${l.split(',')[15]}`));
  assert.deepEqual([...statuses].sort(), [
    'routing-ipw:logged:estimated',
    'routing:logged:estimated',
    'wta:logged:exact',
  ]);
  assert.equal(lines.length - 1, 32 * 2 * 3);
});

test('credit-lens credit exits 1 when nothing could be computed, 2 on bad usage, and names failing lines', () => {
  assert.equal(run('credit', demo, '--method', 'nonsense').status, 2);
  assert.equal(run('credit', demo).status, 2);
  assert.equal(run('credit', tempFolder(), '--method', 'loo').status, 1);
  const root = tempFolder();
  const agents = [
    { name: 'a', kind: 'llm' as const },
    { name: 'b', kind: 'llm' as const },
  ];
  writeFileSync(join(root, 'a.jsonl'), jsonl(episode('crash-1', { agents }), episode('crash-2', { agents })));
  assert.equal(run('index', root).status, 0);
  const script = `"${process.execPath}" "${resolve('test/fixtures/evaluators/misbehaving.js')}"`;
  const failed = run('credit', root, '--method', 'loo', '--evaluator-cmd', script, '--concurrency', '1');
  assert.equal(failed.status, 1);
  assert.match(failed.stderr, /a\.jsonl:1: .*the evaluator exited with code 3/);
});

test('credit-lens credit --advantage trl changes the group advantages and prints the convention; the default comes from the framework', () => {
  const args = ['credit', demo, '--method', 'shared', '--run', 'planner-solver-verifier', '--step', '1', '--json'];
  const byDefault = JSON.parse(run(...args).stdout);
  const trl = run(...args, '--advantage', 'trl');
  assert.equal(trl.status, 0, trl.stderr);
  const json = JSON.parse(trl.stdout);
  assert.deepEqual([byDefault.runs[0].advantage.name, byDefault.runs[0].advantage.source], ['verl', 'producer']);
  assert.deepEqual(
    [json.runs[0].advantage.name, json.runs[0].advantage.source, json.runs[0].params.advantage],
    ['trl', 'flag', 'trl'],
  );
  const advantages = (j: { runs: { episodes: { credit: { shared: { solver: { advantage: number } } } }[] }[] }) =>
    j.runs[0]!.episodes.map((e) => e.credit.shared.solver.advantage);
  const [a, b] = [advantages(byDefault), advantages(json)];
  assert.ok(
    a.some((x, i) => x !== 0 && x !== b[i]),
    'advantages differ',
  );
  const text = run(
    'credit',
    demo,
    '--method',
    'shared',
    '--run',
    'planner-solver-verifier',
    '--step',
    '1',
    '--advantage',
    'trl',
  );
  assert.match(text.stdout, /advantages: trl \(sample std, eps 1e-4; from --advantage\)/);
});

test('credit-lens credit on a verl-format run defaults to the verl convention; --advantage help lists them; unknown names are usage errors', () => {
  const root = tempFolder();
  cpSync(resolve('test/fixtures/importers/verl/rollout'), join(root, 'rollout'), { recursive: true });
  assert.equal(run('index', root).status, 0);
  const text = run('credit', root, '--method', 'shared');
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /advantages: verl \(sample std, eps 1e-6; from the producer verl\)/);
  const help = run('credit', root, '--advantage', 'help');
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^c3 +population std, eps 1e-8 inside the sqrt +EIT-EAST-Lab\/C3@/m);
  const bad = run('credit', root, '--method', 'shared', '--advantage', 'ppo');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /unknown advantage convention "ppo" in --advantage \(known: verl, trl/);
});

test('credit-lens credit takes the convention from run.json "advantage" over the producer', () => {
  const root = tempFolder();
  cpSync(resolve('test/fixtures/importers/verl/rollout'), join(root, 'rollout'), { recursive: true });
  writeFileSync(
    join(root, 'run.json'),
    JSON.stringify({ format: 'credit-lens', version: '1.0', name: 'r', advantage: 'magrpo' }),
  );
  assert.equal(run('index', root).status, 0);
  const json = JSON.parse(run('credit', root, '--method', 'shared', '--json').stdout);
  assert.deepEqual([json.runs[0].advantage.name, json.runs[0].advantage.source], ['c3', 'run.json']);
});
