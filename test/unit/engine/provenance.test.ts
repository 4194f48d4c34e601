import assert from 'node:assert/strict';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Episode } from '../../../src/core/episode';
import { runAudit } from '../../../src/engine/audit/auditJob';
import { runCreditJob, type CreditJobOptions } from '../../../src/engine/credit/creditJob';
import { runIndexJob } from '../../../src/engine/indexJob';
import type { CreditOutputRow } from '../../../src/store/creditRepository';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';

/** Indexes `episodes` (and a pipeline run.json) in a fresh folder. */
async function indexed(
  episodes: readonly Episode[],
  manifest: Record<string, unknown> = { mechanism: 'pipeline' },
): Promise<string> {
  const root = tempFolder();
  writeFileSync(join(root, 'a.jsonl'), jsonl(...episodes));
  writeFileSync(join(root, 'run.json'), JSON.stringify({ format: 'credit-lens', version: '1.0', ...manifest }));
  await runIndexJob({ root, search: false });
  return root;
}

/** Runs a credit job and returns its stored rows (agent level) with the job result. */
async function credit(options: CreditJobOptions) {
  const rows: CreditOutputRow[] = [];
  const result = await runCreditJob(options, {
    onRunStored: (_r, stored) => rows.push(...[...stored].filter((r) => r.message_seq === null)),
  });
  return { rows, result, run: result.runs[0] };
}

for (const n of [32, 33, 40, 64]) {
  test(`leave-one-out is exact with ${n} agents (no 32-bit masks): v(N) − v(N∖{i}) from logged removals`, async () => {
    const agents = Array.from({ length: n }, (_, i) => ({ name: `a${i}`, kind: 'llm' as const }));
    const counterfactuals = agents.map((a, i) => ({
      intervention: 'remove' as const,
      agents: [a.name],
      reward: (i % 5) / 10,
    }));
    const messages = agents.map((a) => ({ agent: a.name, content: `${a.name} speaks` }));
    const root = await indexed([episode('big', { agents, messages, counterfactuals, reward: 1 })]);
    const { rows, run } = await credit({ root, method: 'loo', evaluator: { kind: 'none' } });
    assert.equal(run?.computed, 1, JSON.stringify(run?.failures));
    assert.equal(rows.length, n);
    rows.forEach((r) => {
      const i = Number(r.agent.slice(1));
      assert.equal(r.value, 1 - (i % 5) / 10, r.agent);
      assert.equal(r.status, 'exact');
      assert.equal(r.source, 'logged');
      assert.equal(r.intervention, 'remove');
    });
  });
}

test('leave-one-out uses a logged replace_text counterfactual when no removal is logged, and names the intervention', async () => {
  const counterfactuals = [
    {
      intervention: 'replace_text' as const,
      agents: ['planner'],
      reward: 0.25,
      replacement: 'No plan.',
      replayed: true,
    },
    { intervention: 'remove' as const, agents: ['solver'], reward: 0 },
  ];
  const root = await indexed([episode('e', { counterfactuals, reward: 1 })]);
  const { rows } = await credit({ root, method: 'loo', evaluator: { kind: 'none' } });
  const planner = rows.find((r) => r.agent === 'planner');
  assert.deepEqual([planner?.value, planner?.intervention, planner?.status], [0.75, 'replace_text', 'exact']);
  assert.deepEqual(rows.find((r) => r.agent === 'solver')?.intervention, 'remove');
});

test('a logged removal that kept the downstream text (replayed: false) is approximate for an upstream agent', async () => {
  const counterfactuals = [
    { intervention: 'remove' as const, agents: ['planner'], reward: 1, replayed: false },
    { intervention: 'remove' as const, agents: ['solver'], reward: 0, replayed: false },
  ];
  const root = await indexed([episode('e', { counterfactuals, reward: 1 })]);
  const { rows } = await credit({ root, method: 'loo', evaluator: { kind: 'none' } });
  assert.equal(
    rows.find((r) => r.agent === 'planner')?.status,
    'approximate',
    'the solver read the planner: removing it without replay leaves its information',
  );
  assert.equal(
    rows.find((r) => r.agent === 'solver')?.status,
    'exact',
    'the solver speaks last: nothing downstream to replay',
  );
});

/** A solver that computes the answer and a repeater that restates it; one failure so the checker calibrates. */
function repeaterEpisodes(): Episode[] {
  const agents = [
    { name: 'solver', kind: 'llm' as const },
    { name: 'repeater', kind: 'llm' as const },
  ];
  return Array.from({ length: 120 }, (_, i) => {
    const wrong = i % 4 === 3;
    const answer = wrong ? 13 : 12;
    const messages = [
      { agent: 'solver', content: `7 + 5 = ${answer}. #### ${answer}` },
      { agent: 'repeater', content: `The answer is #### ${answer}` },
    ];
    return episode(`e${i}`, {
      agents,
      messages,
      groundTruth: '12',
      reward: wrong ? 0 : 1,
      step: Math.floor(i / 10),
      group: `g${Math.floor(i / 4)}`,
      sample: i % 4,
    });
  });
}

test('checked values: the last agent is exact, an agent read by later agents is approximate, and no verdict is drawn from it', async () => {
  const root = await indexed(repeaterEpisodes());
  const { rows, run } = await credit({ root, method: 'loo' });
  assert.equal(run?.calibration?.accepted, true);
  assert.equal(run?.calibration?.rate, 1);
  const solver = rows.filter((r) => r.agent === 'solver');
  const repeater = rows.filter((r) => r.agent === 'repeater');
  assert.ok(
    solver.every((r) => r.status === 'approximate' && r.value === 0 && r.source === 'logged+checked'),
    'the repeated answer survives the solver’s removal: no-replay LOO is 0 and says so',
  );
  assert.ok(repeater.every((r) => r.status === 'exact' && r.value === 0));
  const [report] = (
    await runAudit({
      root,
      readText: false,
      thresholds: {
        minEpisodesPerWindow: 100,
        alpha: 0.05,
        dominantShare: 0.9,
        copyThreshold: 0.8,
        minTokens: 5,
        freeRiderMinReward: 0.1,
      },
    })
  ).runs;
  assert.ok(!report?.flags.some((f) => f.agent === 'solver'), JSON.stringify(report?.flags));
  assert.ok(
    report?.unreachable.some((u) => /for solver: its loo credit is approximate in 120 episode/.test(u)),
    report?.unreachable.join('\n'),
  );
});

test('a checker that does not reproduce the logged rewards is not calibrated: counterfactual credit is not identifiable, with the count and an example', async () => {
  // The trace logs reward 1 where the final answer (13) is wrong against the gold 12: 30 of 120 disagree.
  const episodes = repeaterEpisodes().map((e, i) => (i % 4 === 3 ? { ...e, reward: 1 } : e));
  const root = await indexed(episodes);
  const { rows, run } = await credit({ root, method: 'shapley' });
  assert.equal(rows.length, 0, 'no numeric credit from an uncalibrated checker');
  assert.equal(run?.unidentified, 120);
  assert.deepEqual([run?.calibration?.sampled, run?.calibration?.agreed, run?.calibration?.accepted], [120, 90, false]);
  assert.match(
    run?.failures[0]?.reason ?? '',
    /reproduces the logged reward of 90 of 120 sampled episodes \(75%, below the 95% required\); e\.g\. episode e3 \(a\.jsonl:4\) logs 1, the evaluator scores 0/,
  );
  assert.match(run?.failures[0]?.remedy ?? '', /log counterfactuals, configure a replay evaluator/);
});

test('a team that always fails: the checker agrees trivially, which calibrates nothing', async () => {
  const episodes = repeaterEpisodes().map((e) => ({ ...e, reward: 0, groundTruth: '99' }));
  const root = await indexed(episodes);
  const { run } = await credit({ root, method: 'loo' });
  assert.equal(run?.computed, 0);
  assert.match(
    run?.calibration?.reason ?? '',
    /all 120 sampled episodes log reward 0, so agreement cannot show .* tells success from failure/,
  );
  const [report] = (await runAudit({ root, readText: false })).runs;
  assert.ok(!report?.flags.some((f) => f.kind === 'idle' || f.kind === 'free-rider'));
});

test('owen on a one-message-per-agent episode uses the logged coalitions, so it equals Shapley (1, 0), not re-scored prefixes', async () => {
  const coalitions = [
    { agents: [], value: 0 },
    { agents: ['planner'], value: 0 },
    { agents: ['solver'], value: 1 },
    { agents: ['planner', 'solver'], value: 1 },
  ];
  const root = await indexed([episode('e', { coalitions, reward: 1 })]);
  const owen = await credit({ root, method: 'owen', evaluator: { kind: 'none' } });
  const shapley = await credit({ root, method: 'shapley', evaluator: { kind: 'none' } });
  const values = (rows: CreditOutputRow[]) => rows.map((r) => [r.agent, r.value, r.status]);
  assert.deepEqual(values(owen.rows), [
    ['planner', 0, 'exact'],
    ['solver', 1, 'exact'],
  ]);
  assert.deepEqual(values(owen.rows), values(shapley.rows));
});

test('routing without a logged router is not identifiable with the real reason, not "no evaluator"', async () => {
  const root = await indexed([episode('e')], { mechanism: 'routed' });
  const { run } = await credit({ root, method: 'routing' });
  assert.equal(run?.failures[0]?.status, 'not-identifiable');
  assert.match(run?.failures[0]?.reason ?? '', /logged router probabilities .* this episode logs no routing decision/);
  assert.doesNotMatch(run?.failures[0]?.reason ?? '', /evaluator/);
});

/** A copy of a fixture folder, indexed. */
async function indexedCopy(fixture: string): Promise<string> {
  const root = join(tempFolder(), 'run');
  cpSync(fixture, root, { recursive: true });
  await runIndexJob({ root, search: false });
  return root;
}

test('tau-bench trajectories: no numeric LOO or Shapley without a calibrated checker or replay, and no idle verdict', async () => {
  const root = await indexedCopy('test/fixtures/importers/tau-bench');
  for (const method of ['loo', 'shapley'] as const) {
    const { rows, run } = await credit({ root, method });
    assert.equal(rows.length, 0, method);
    assert.ok((run?.unidentified ?? 0) > 0 && run?.unidentified === run?.failures.length);
    assert.match(
      run?.failures[0]?.reason ?? '',
      /final-answer checker cannot score this episode: tau-bench rewards compare the tool actions/,
    );
  }
  const [report] = (await runAudit({ root, readText: false })).runs;
  assert.deepEqual(
    report?.flags.filter((f) => f.kind !== 'silent'),
    [],
  );
  assert.ok(report?.unreachable.some((u) => /for user: it is a user simulator, not a trained agent/.test(u)));
  assert.ok(report?.unreachable.some((u) => /for system: it is a system prompt/.test(u)));
});

test('Who&When (every team fails, nothing logged): no idle or free-rider flag; each silent expert located at every silent episode', async () => {
  const root = await indexedCopy('test/fixtures/importers/who-and-when');
  const [report] = (await runAudit({ root, readText: false })).runs;
  assert.deepEqual(
    report?.flags.filter((f) => f.kind === 'idle' || f.kind === 'free-rider'),
    [],
  );
  const silent = report?.flags.filter((f) => f.kind === 'silent') ?? [];
  assert.ok(silent.length > 0);
  for (const flag of silent) assert.equal(flag.locations?.length, flag.evidence['silentEpisodes'], flag.agent);
  assert.ok(report?.unreachable.some((u) => /for human: it is a human, not a trained agent/.test(u)));
  assert.ok(report?.unreachable.some((u) => /for Computer_terminal: it is a tool/.test(u)));
  // `--evaluator none` is honoured: nothing is calibrated or evaluated, and the audit says why.
  const [none] = (await runAudit({ root, readText: false, evaluator: { kind: 'none' } })).runs;
  assert.ok(
    none?.unreachable.some((u) => /no evaluator is configured/.test(u)),
    none?.unreachable.join('\n'),
  );
});
