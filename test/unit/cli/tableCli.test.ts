import assert from 'node:assert/strict';
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { runCli as run } from '../../builders/cliRunner';
import { tempFolder } from '../../builders/episodeBuilder';

// `credit-lens table`: the first answer from the trace files, with nothing written beside them.
let demo = '';

before(() => {
  demo = join(tempFolder(), 'demo');
  assert.equal(run('demo', '--out', demo, '--episodes', '640').status, 0);
});

test('credit-lens table prints the per-agent table and credit over training, matching `credit`', () => {
  const table = run('table', demo, '--run', 'planner-solver-verifier');
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /planner-solver-verifier \(pipeline\): 640 episodes, 640 computed, 0 not identifiable/);
  assert.match(table.stdout, /over training \(mean per agent\):/);
  assert.match(table.stdout, /values from: logged 1,920/);
  const credit = run('credit', demo, '--method', 'loo', '--run', 'planner-solver-verifier');
  const agentLine = (text: string, agent: string): string =>
    new RegExp(`^\\s+${agent}\\s+640 .*$`, 'm').exec(text)?.[0].trim() ?? `no ${agent} line`;
  for (const agent of ['planner', 'solver', 'verifier'])
    assert.equal(agentLine(table.stdout, agent), agentLine(credit.stdout, agent), `${agent}: table and credit differ`);
});

test('credit-lens table --csv gives a row per (run, step, agent); --json the whole result', () => {
  const csv = run('table', demo, '--run', 'planner-solver-verifier', '--csv', '--method', 'shapley');
  assert.equal(csv.status, 0, csv.stderr);
  const lines = csv.stdout.trim().split('\n');
  assert.equal(lines[0], 'run,step,agent,episodes,mean,method,status,source');
  assert.match(lines[1] ?? '', /^planner-solver-verifier,1,planner,\d+,-?[\d.e-]+,shapley,exact,logged$/);
  // Every cell says how exact it is and where its values came from.
  const loo = run('table', demo, '--run', 'planner-solver-verifier', '--csv').stdout;
  assert.match(loo, /^planner-solver-verifier,1,verifier,\d+,-?[\d.e-]+,loo,exact,logged$/m);
  assert.ok(
    loo
      .trim()
      .split('\n')
      .slice(1)
      .every((l) => l.startsWith('planner-solver-verifier,')),
    '--run keeps the other runs out',
  );
  const json = JSON.parse(run('table', demo, '--json', '--step', '1..3').stdout) as {
    method: string;
    runs: {
      name: string;
      agents: { agent: string; status: Record<string, number> }[];
      steps: { step: number; agent: string; status: Record<string, number> }[];
    }[];
  };
  // The cells' statuses add up to their agent's.
  for (const r of json.runs)
    for (const a of r.agents) {
      const total: Record<string, number> = { exact: 0, estimated: 0, approximate: 0 };
      for (const c of r.steps.filter((s) => s.agent === a.agent))
        for (const [k, n] of Object.entries(c.status)) total[k] = (total[k] ?? 0) + n;
      assert.deepEqual(total, a.status, `${r.name} ${a.agent}`);
    }
  assert.equal(json.method, 'loo');
  const steps = new Set(json.runs.flatMap((r) => r.steps.map((s) => s.step)));
  assert.deepEqual([...steps].sort(), [1, 2, 3]);
});

test('credit-lens table writes no index, and refuses a method the trace cannot log', () => {
  const fresh = join(tempFolder(), 'run');
  cpSync(demo, fresh, { recursive: true, filter: (path) => !path.includes('.credit-lens') });
  assert.equal(existsSync(join(fresh, '.credit-lens')), false);
  const table = run('table', fresh, '--run', 'planner-solver-verifier');
  assert.equal(table.status, 0, table.stderr);
  assert.equal(existsSync(join(fresh, '.credit-lens')), false, 'the table wrote an index');
  assert.equal(run('table', fresh, '--run', 'nope').status, 1, 'no run named nope: nothing computed');
  const owen = run('table', fresh, '--method', 'owen');
  assert.equal(owen.status, 2);
  assert.match(owen.stderr, /table computes shared, loo, shapley from logged values; for "owen" index the folder/);
});
