import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompareService } from '../../../../src/engine/compare/compareService';
import { runCreditJob } from '../../../../src/engine/credit/creditJob';
import { findIndexLocation } from '../../../../src/engine/indexLocation';
import { IndexStore } from '../../../../src/store/indexStore';
import { tempFolder } from '../../../builders/episodeBuilder';
import { creditedEpisode, indexWithCredit, writeRun } from './compareRuns';

const close = (actual: number, expected: number, tolerance = 1e-9): void =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} ≠ ${expected}`);

/** Opens the folder's index, runs `use` on a CompareService over it, closes it. */
function withService<T>(root: string, use: (service: CompareService) => T, withRoot = true): T {
  const location = findIndexLocation(root);
  assert.ok(location);
  const store = IndexStore.open(location.path);
  try {
    return use(new CompareService(store.db, withRoot ? { root } : {}));
  } finally {
    store.close();
  }
}

/** Runs `before` and `after` with planner credit a_k and b_k on task t<k>, plus one unpaired task each. */
async function taskRuns(a: readonly number[], b: readonly number[]): Promise<string> {
  const root = tempFolder();
  const side = (prefix: string, credit: readonly number[], extra: string) => [
    ...credit.map((c, k) => creditedEpisode(`${prefix}${k}`, c, { task: `t${k}` })),
    creditedEpisode(`${prefix}-extra`, 0.5, { task: extra }),
  ];
  writeRun(root, 'before', side('a', a, 'only-a'));
  writeRun(root, 'after', side('b', b, 'only-b'));
  await indexWithCredit(root);
  return root;
}

describe('CompareService', () => {
  it('pairs by task id and gives the paired credit and share differences (hand-computed t-test)', async () => {
    const root = await taskRuns([0.1, 0.2, 0.3, 0.4, 0.5], [0.2, 0.4, 0.3, 0.7, 0.6]);
    const c = withService(root, (s) => s.compare({ a: { run: 'before' }, b: { run: 'after' }, method: 'loo' }));
    assert.deepEqual(c.pairing, {
      key: 'task',
      pairs: 5,
      episodesA: 6,
      episodesB: 6,
      unpairedA: 1,
      unpairedB: 1,
      ambiguousKeys: 0,
    });
    const planner = c.agents.find((a) => a.agent === 'planner');
    assert.ok(planner);
    // d = 0.1, 0.2, 0, 0.3, 0.1: the E-style oracle of pairedTest.test.ts scaled by 0.1 (p unchanged).
    assert.equal(planner.credit.test, 't');
    close(planner.credit.difference, 0.14);
    close(planner.credit.p, 0.05160595781117472, 1e-8);
    close(planner.credit.interval[0], 0.14 - 2.7764451051977934 * 0.05099019513592785, 1e-8);
    // Shares of the positive credit (the solver earns 1 every episode): 1.5/6.5 and 2.2/7.2.
    close(planner.shareA, 1.5 / 6.5);
    close(planner.shareB, 2.2 / 7.2);
    close(planner.share?.difference ?? NaN, 2.2 / 7.2 - 1.5 / 6.5);
    assert.deepEqual(
      [planner.statusA, planner.statusB, planner.sourceA, planner.sourceB],
      ['exact', 'exact', 'logged', 'logged'],
    );
    assert.equal(c.reward.difference, 0, 'every episode earns 1');
    assert.deepEqual(
      c.examples.filter((e) => e.agent === 'planner').map((e) => [e.key, e.episodeA, e.episodeB]),
      [
        ['t3', 'a3', 'b3'],
        ['t1', 'a1', 'b1'],
        ['t0', 'a0', 'b0'],
      ],
    );
    assert.ok(
      c.notes.some((n) => n.includes('1 of 6 episodes of before, 1 of 6 of after')),
      c.notes.join('\n'),
    );
    assert.ok(c.notes.some((n) => n.includes('before has no audit yet')));
    assert.deepEqual(c.flags, []);
  });

  it('uses Student t below 30 pairs and the normal approximation at 30', async () => {
    for (const [n, test] of [
      [29, 't'],
      [30, 'normal'],
    ] as const) {
      const a = Array.from({ length: n }, (_, k) => (k % 3) / 10);
      const b = Array.from({ length: n }, (_, k) => (k % 4) / 10);
      const root = await taskRuns(a, b);
      const c = withService(root, (s) => s.compare({ a: { run: 'before' }, b: { run: 'after' }, method: 'loo' }));
      assert.equal(c.pairing.pairs, n);
      assert.equal(c.agents.find((x) => x.agent === 'planner')?.credit.test, test, `${n} pairs`);
    }
  });

  it('pairs by prompt when no episode logs a task id, read back from the trace', async () => {
    const root = tempFolder();
    const prompts = ['What is 2 + 2?', 'What is 3 × 5?', 'Halve 18.'];
    writeRun(
      root,
      'before',
      prompts.map((prompt, k) => creditedEpisode(`a${k}`, 0.1 * (k + 1), { prompt })),
    );
    // B logs the same prompts in another order, with planner credit 0.5 more on each.
    const order = [2, 0, 1];
    writeRun(
      root,
      'after',
      order.map((k) => creditedEpisode(`b${k}`, 0.1 * (k + 1) + 0.5, { prompt: ` ${prompts[k] ?? ''}\n` })),
    );
    await indexWithCredit(root);
    const c = withService(root, (s) => s.compare({ a: { run: 'before' }, b: { run: 'after' }, method: 'loo' }));
    assert.equal(c.pairing.key, 'prompt');
    assert.equal(c.pairing.pairs, 3);
    const planner = c.agents.find((a) => a.agent === 'planner');
    close(planner?.credit.difference ?? NaN, 0.5, 1e-12);
    assert.deepEqual(planner?.credit.interval, [planner?.credit.difference, planner?.credit.difference]);
    // Without the folder the prompts cannot be read: nothing pairs, and the note says what would.
    const blind = withService(
      root,
      (s) => s.compare({ a: { run: 'before' }, b: { run: 'after' }, method: 'loo' }),
      false,
    );
    assert.equal(blind.pairing.key, 'none');
    assert.equal(blind.pairing.unpairedA, 3);
    assert.ok(blind.notes.some((n) => n.startsWith('No episode of before and after could be paired')));
    assert.ok(blind.agents.every((a) => a.credit.n === 0));
  });

  it('refuses a side without stored credit for the method, naming the command, and an unknown run', async () => {
    const root = await taskRuns([0.1], [0.2]);
    assert.throws(
      () => withService(root, (s) => s.compare({ a: { run: 'before' }, b: { run: 'after' }, method: 'shapley' })),
      /before has no stored shapley credit; run `credit-lens credit .* --method shapley --run before` first/,
    );
    assert.throws(
      () => withService(root, (s) => s.compare({ a: { run: 'nope' }, b: { run: 'after' }, method: 'loo' })),
      /unknown run "nope".*runs: after, before|unknown run "nope".*runs: before, after/,
    );
    assert.throws(
      () =>
        withService(root, (s) =>
          s.compare({ a: { run: 'before', steps: { from: 5, to: 1 } }, b: { run: 'after' }, method: 'loo' }),
        ),
      /reversed/,
    );
  });

  it('says which side has no value for an agent, and gives no number for it', async () => {
    const root = tempFolder();
    writeRun(root, 'before', [creditedEpisode('a0', 0.2, { task: 't0' }), creditedEpisode('a1', 0.4, { task: 't1' })]);
    const withCritic = (id: string, task: string) =>
      creditedEpisode(id, 0.3, {
        task,
        agents: [
          { name: 'planner', kind: 'llm' },
          { name: 'solver', kind: 'llm' },
          { name: 'critic', kind: 'llm' },
        ],
        counterfactuals: [
          { intervention: 'remove', agents: ['planner'], reward: 0.7 },
          { intervention: 'remove', agents: ['solver'], reward: 0 },
          { intervention: 'remove', agents: ['critic'], reward: 0.9 },
        ],
      });
    writeRun(root, 'after', [withCritic('b0', 't0'), withCritic('b1', 't1')]);
    await indexWithCredit(root);
    const c = withService(root, (s) => s.compare({ a: { run: 'before' }, b: { run: 'after' }, method: 'loo' }));
    const critic = c.agents.find((a) => a.agent === 'critic');
    assert.ok(critic);
    assert.deepEqual([critic.statusA, critic.statusB, critic.credit.n], ['not-identifiable', 'exact', 0]);
    assert.ok(Number.isNaN(critic.credit.difference) && Number.isNaN(critic.shareA));
    close(critic.shareB, 0.1 / 1.4);
    assert.match(
      critic.missing ?? '',
      /^no stored credit for critic on A; if its episodes have it, run `credit-lens credit/,
    );
    assert.equal(c.agents.find((a) => a.agent === 'planner')?.missing, undefined);
  });

  it('lists the runs a view can offer with their steps and stored methods', async () => {
    const root = await taskRuns([0.1, 0.2], [0.2, 0.3]);
    const choices = withService(root, (s) => s.choices());
    assert.deepEqual(
      [...choices].sort((x, y) => x.run.localeCompare(y.run)),
      [
        { run: 'after', episodes: 3, steps: { from: 1, to: 1 }, methods: ['loo'] },
        { run: 'before', episodes: 3, steps: { from: 1, to: 1 }, methods: ['loo'] },
      ],
    );
  });
});

describe('CompareService parameter sets', () => {
  it('compares the set covering the most episodes, not a newer one recomputed for one episode, and says so', async () => {
    const root = await taskRuns([0.1, 0.2, 0.3, 0.4, 0.5], [0.2, 0.4, 0.3, 0.7, 0.6]);
    // The Episode view's Recompute under other settings: one episode of `after` (row 1: the
    // folders index in name order) gets a newer parameter set.
    const recomputed = await runCreditJob({
      root,
      method: 'loo',
      evaluator: { kind: 'none' },
      run: 'after',
      episodes: [1],
      budget: 1000,
    });
    assert.equal(recomputed.runs[0]?.computed, 1);
    const c = withService(root, (s) => s.compare({ a: { run: 'before' }, b: { run: 'after' }, method: 'loo' }));
    const planner = c.agents.find((a) => a.agent === 'planner');
    assert.equal(planner?.credit.n, 5, 'every pair is compared, not the one recomputed episode');
    close(planner?.credit.difference ?? NaN, 0.14);
    assert.ok(
      c.notes.some((n) =>
        /^after: loo credit of parameter set \w+ \(6 episodes of the run, the set covering the most\)/.test(n),
      ),
      c.notes.join('\n'),
    );
    assert.ok(
      c.notes.some((n) => /^after: newer loo credit under \w+ \(1 episode\) is not compared/.test(n)),
      c.notes.join('\n'),
    );
    assert.ok(!c.notes.some((n) => n.startsWith('before: newer')), 'before has one parameter set');
  });
});
