import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { advantagesFor } from '../../../../src/credit/signals/advantageConventions';
import { runIndexJob } from '../../../../src/engine/indexJob';
import { GroupViewService } from '../../../../src/engine/views/groupViewService';
import type { GroupViewData } from '../../../../src/protocol/groupPanel';
import { CreditRepository } from '../../../../src/store/creditRepository';
import { IndexStore } from '../../../../src/store/indexStore';
import { episode, jsonl, tempFolder } from '../../../builders/episodeBuilder';

// Oracle: group G of run "team" has 4 rollouts, e1…e4 (samples 0…3), rewards 0.2, 1.0, 0.6, 0.2.
// mean 0.5; sample std (verl, ddof 1) √(0.44/3) = 0.3829708; A = (r − 0.5)/(0.3829708 + 1e-6):
// e2 +1.3055790, e3 +0.2611158, e1 and e4 −0.7833474 (hand-computed).
// LOO credit of the planner 0.1, 0.3, 0.2, 0.0: mean 0.15, std √(0.05/3) = 0.1290994,
// A = e1 −0.3872953, e2 +1.1618860, e3 +0.3872953, e4 −1.1618860; the solver's 0.5 everywhere: A = 0.
// The trainer logged the solver's advantage in e1 (−0.25) and e2 (0.75).
const rewards = [0.2, 1.0, 0.6, 0.2];
const plannerLoo = [0.1, 0.3, 0.2, 0.0];

let root: string;
let store: IndexStore;
let service: GroupViewService;
let runId: (name: string) => number;
let id: (externalId: string) => number;

before(async () => {
  root = tempFolder('credit-lens-group-');
  for (const run of ['team', 'flat']) {
    mkdirSync(join(root, run));
    writeFileSync(join(root, run, 'run.json'), JSON.stringify({ format: 'credit-lens', version: '1.0', name: run }));
  }
  const group = rewards.map((reward, i) =>
    episode(`e${String(i + 1)}`, {
      step: 5,
      group: 'G',
      sample: i,
      reward,
      ...(i < 2 ? { advantages: { solver: i === 0 ? -0.25 : 0.75 } } : {}),
    }),
  );
  const single = episode('e5', { step: 6, group: 'one', sample: 0, reward: 1 });
  writeFileSync(join(root, 'team', 'a.jsonl'), jsonl(...group, single));
  writeFileSync(join(root, 'flat', 'b.jsonl'), jsonl(episode('f1', { group: undefined, sample: undefined })));
  const { index } = await runIndexJob({ root });
  store = IndexStore.open(index.path);
  const db = store.db;
  runId = (name) => db.prepare<{ id: number }>('SELECT run_id AS id FROM run WHERE name = ?').get(name)?.id ?? -1;
  id = (externalId) =>
    db.prepare<{ id: number }>('SELECT episode_id AS id FROM episode WHERE external_id = ?').get(externalId)?.id ?? -1;
  const agent = (name: string): number =>
    db
      .prepare<{ id: number }>('SELECT agent_id AS id FROM agent WHERE run_id = ? AND name = ?')
      .get(runId('team'), name)?.id ?? -1;
  const insert = db.prepare(`
    INSERT INTO credit (run_id, episode_id, scope_kind, scope_id, agent_id, message_seq, method, value, approximate, status, source, params_hash, computed_at)
    VALUES (?, ?, 'episode', ?, ?, NULL, 'loo', ?, 0, ?, 'logged', 'h1', '2026-03-01T00:00:00.000Z')`);
  for (const [i, value] of plannerLoo.entries()) {
    const episodeId = id(`e${String(i + 1)}`);
    insert.run(runId('team'), episodeId, String(episodeId), agent('planner'), value, 'exact');
    insert.run(runId('team'), episodeId, String(episodeId), agent('solver'), 0.5, 'estimated');
  }
  // The advantages the credit engine stores, by its own update (the view reads them back).
  new CreditRepository(db).updateGroupAdvantages(runId('team'), { method: 'loo', params: {}, hash: 'h1' }, (v) =>
    advantagesFor('verl', v),
  );
  db.prepare(
    `INSERT INTO credit_error (run_id, episode_id, method, params_hash, reason, computed_at, status, remedy)
     VALUES (?, ?, 'shapley', 'h2', 'no coalition values', '2026-03-02T00:00:00.000Z', 'not-identifiable', 'log counterfactuals')`,
  ).run(runId('team'), id('e1'));
  service = new GroupViewService(db, root);
});

after(() => store.close());

const near = (actual: number | null | undefined, expected: number, what: string): void => {
  assert.ok(
    actual !== null && actual !== undefined && Math.abs(actual - expected) < 1e-6,
    `${what}: ${String(actual)}`,
  );
};

const byId = (data: GroupViewData, externalId: string): GroupViewData['rollouts'][number] => {
  const rollout = data.rollouts.find((r) => r.externalId === externalId);
  assert.ok(rollout, externalId);
  return rollout;
};

test('a group of 4: rollouts by reward, mean and std, the reward advantage under verl, the convention named', () => {
  const data = service.group({ runId: runId('team'), group: 'G' }, 'loo');
  assert.deepEqual(
    data.rollouts.map((r) => [r.externalId, r.reward]),
    [
      ['e2', 1],
      ['e3', 0.6],
      ['e1', 0.2],
      ['e4', 0.2],
    ],
  );
  near(data.rewardMean, 0.5, 'mean');
  near(data.rewardStd, 0.3829708431, 'std');
  assert.equal(data.rewarded, 4);
  assert.deepEqual(data.steps, [5]);
  assert.deepEqual(data.agents, ['planner', 'solver']);
  assert.deepEqual(data.convention, {
    name: 'verl',
    formula: '(r − mean) / (std + ε) over 4 rollouts',
    detail: 'sample std, eps 1e-6; default',
  });
  const reward = data.signals.findIndex((s) => s.id === 'reward');
  const expected = { e2: 1.305579, e3: 0.2611158, e1: -0.7833474, e4: -0.7833474 };
  for (const [episodeId, value] of Object.entries(expected))
    near(byId(data, episodeId).advantages[reward]?.[0], value, `A(reward) ${episodeId}`);
  assert.deepEqual(data.notes, []);
});

test('per-agent credit of the chosen method with its status and stored advantage; logged advantages where present', () => {
  const data = service.group({ runId: runId('team'), group: 'G' }, 'loo');
  assert.equal(data.creditStatus, 'computed');
  assert.equal(data.credited, 4);
  assert.deepEqual(
    data.signals.map((s) => [s.id, s.perAgent, s.covered]),
    [
      ['reward', false, 4],
      ['logged', true, 2],
      ['loo', true, 4],
    ],
  );
  const expected = { e1: -0.3872953, e2: 1.161886, e3: 0.3872953, e4: -1.161886 };
  for (const [episodeId, advantage] of Object.entries(expected)) {
    const rollout = byId(data, episodeId);
    assert.equal(rollout.creditStatus, 'computed');
    assert.equal(rollout.credit[0]?.status, 'exact');
    near(rollout.credit[0]?.advantage, advantage, `A(planner loo) ${episodeId}`);
    assert.deepEqual(rollout.credit[1], { value: 0.5, status: 'estimated', advantage: 0 });
    near(rollout.advantages[2]?.[0], advantage, `loo signal ${episodeId}`);
  }
  assert.deepEqual(byId(data, 'e1').credit[0]?.value, 0.1);
  assert.deepEqual(byId(data, 'e1').advantages[1], [null, -0.25]);
  assert.deepEqual(byId(data, 'e2').advantages[1], [null, 0.75]);
  assert.deepEqual(byId(data, 'e3').advantages[1], [null, null]);
});

test('a method not computed: no number anywhere, the not-identifiable rollout with its remedy, what would answer', () => {
  const data = service.group({ runId: runId('team'), group: 'G' }, 'shapley');
  assert.equal(data.credited, 0);
  assert.equal(data.creditStatus, 'not-computed');
  for (const rollout of data.rollouts)
    assert.deepEqual(
      rollout.credit.map((c) => c.value),
      [null, null],
    );
  assert.equal(byId(data, 'e1').creditStatus, 'not-identifiable');
  assert.equal(byId(data, 'e1').creditRemedy, 'log counterfactuals');
  assert.equal(byId(data, 'e2').creditStatus, 'not-computed');
  assert.deepEqual(data.notes, [
    "shapley credit covers 0 of 4 rollouts; 3 not computed yet: Recompute Credit… (Runs view or dashboard) computes them; 1 not identifiable from the data (see each rollout's remedy).",
  ]);
});

test('shared credit is the logged reward, with the reward advantage', () => {
  const data = service.group({ runId: runId('team'), group: 'G' }, 'shared');
  assert.equal(data.credited, 4);
  const top = byId(data, 'e2');
  assert.equal(top.credit[0]?.value, 1);
  near(top.credit[1]?.advantage, 1.305579, 'A(shared) e2');
});

test('a singleton group: no advantage, and the view says why', () => {
  const data = service.group({ runId: runId('team'), group: 'one' }, 'loo');
  assert.equal(data.rollouts.length, 1);
  assert.equal(data.rollouts[0]?.advantages[0]?.[0], null);
  assert.equal(data.rewardMean, 1);
  assert.equal(data.rewardStd, null);
  assert.match(data.notes[0] ?? '', /^A group of 1 rollout: a group-relative advantage is undefined/);
  assert.match(data.notes[1] ?? '', /^loo credit covers 0 of 1 rollouts; 1 not computed yet: Recompute Credit…/);
});

test('a run without groups, an unknown group and an unknown run say so; groupOfEpisode gives the size', () => {
  const flat = service.group({ runId: runId('flat'), group: 'G' }, 'loo');
  assert.deepEqual(flat.rollouts, []);
  assert.deepEqual(flat.notes, ['Run flat logs no GRPO groups: none of its episodes carries a group id.']);
  const missing = service.group({ runId: runId('team'), group: 'nope' }, 'loo');
  assert.match(missing.notes[0] ?? '', /^Run team has no group "nope"/);
  assert.throws(() => service.group({ runId: 999, group: 'G' }, 'loo'), /run 999 is not in the index/);
  assert.deepEqual(service.groupOfEpisode(id('e3')), { runId: runId('team'), group: 'G', rollouts: 4 });
  assert.equal(service.groupOfEpisode(id('f1')), undefined);
});

test('hasRollout(group, episode) refuses a foreign episode: another group, another run, no group, unknown', () => {
  const group = { runId: runId('team'), group: 'G' };
  assert.equal(service.hasRollout(group, id('e4')), true);
  assert.equal(service.hasRollout(group, id('e5')), false, 'a rollout of group "one"');
  assert.equal(service.hasRollout(group, id('f1')), false, 'an episode of another run, without a group');
  assert.equal(
    service.hasRollout({ runId: runId('flat'), group: 'G' }, id('e4')),
    false,
    'the same group id in another run',
  );
  assert.equal(service.hasRollout(group, 999_999), false, 'an episode id the index does not have');
});
