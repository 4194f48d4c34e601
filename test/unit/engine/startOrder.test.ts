import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { writeDemoRun } from '../../../src/demo/writeDemoRun';
import type { EpisodeCreditReport } from '../../../src/engine/credit/creditJob';
import { creditParams } from '../../../src/engine/credit/creditParams';
import { directCreditWrites } from '../../../src/engine/credit/creditWrites';
import { defaultMonteCarlo } from '../../../src/engine/credit/monteCarloCredit';
import { forEachConcurrently, RunState } from '../../../src/engine/credit/runState';
import { StartOrder } from '../../../src/engine/credit/startOrder';
import type { Evaluator } from '../../../src/engine/evaluators/evaluator';
import { runIndexJob } from '../../../src/engine/indexJob';
import { CreditInputRepository } from '../../../src/store/creditInputRepository';
import { IndexStore } from '../../../src/store/indexStore';
import { tempFolder } from '../../builders/episodeBuilder';
import { runContextFor } from '../../builders/runContext';

// The credit pass takes its episodes in the order it started them (src/engine/credit/startOrder.ts).

test('episodes that complete out of order are finished in start order, each once', () => {
  const order = new StartOrder();
  const tickets = [0, 1, 2, 3, 4].map(() => order.start());
  const finished: number[] = [];
  const finish = (t: number): void => {
    order.finish(t, () => finished.push(t));
  };
  finish(2);
  finish(1);
  assert.deepEqual(finished, [], 'nothing before the first');
  finish(0);
  assert.deepEqual(finished, [0, 1, 2]);
  finish(4);
  assert.deepEqual(finished, [0, 1, 2]);
  finish(3);
  assert.deepEqual(finished, tickets);
});

test('an episode that completes in order is finished at once, and gives what its finish returns', () => {
  const order = new StartOrder();
  for (let k = 0; k < 3; k++)
    assert.equal(
      order.finish(order.start(), () => k * 10),
      k * 10,
    );
  const held = order.start();
  const last = order.start();
  assert.equal(
    order.finish(last, () => 'late'),
    undefined,
    'held for an earlier one',
  );
  assert.equal(
    order.finish(held, () => 'first'),
    'first',
  );
});

test('a pass whose evaluator answers later episodes first takes them in start order, its groups together', async () => {
  const root = tempFolder();
  writeDemoRun(root, { episodes: 96, routed: false, creditRun: false });
  await runIndexJob({ root, search: false });
  const store = IndexStore.open(join(root, '.credit-lens', 'index.sqlite'));
  try {
    const input = new CreditInputRepository(store.db);
    const run = input.runs().find((r) => r.name === 'planner-solver-verifier');
    assert.ok(run);
    const taken: number[] = [];
    const base = runContextFor(store, { root, method: 'loo', useLogged: false, concurrency: 4 });
    const ctx = { ...base, hooks: { onEpisode: (r: EpisodeCreditReport) => taken.push(r.episode.episodeId) } };
    // Of four episodes in flight, the first started answers last (15 ms), the last at once.
    const evaluator: Evaluator = {
      fingerprint: 'test-later-first',
      label: 'a test evaluator that answers earlier episodes later',
      evaluate: (request) =>
        new Promise((resolve) => {
          const rewards = new Map(request.masks.map((mask) => [mask, 1]));
          setTimeout(() => resolve({ rewards, replayed: true }), 5 * (3 - (request.episode.episodeId % 4)));
        }),
      close: () => Promise.resolve(),
    };
    const total = input.countEpisodes(run.runId);
    const state = new RunState(
      run,
      creditParams('loo', { evaluator: evaluator.fingerprint, useLogged: false }),
      ctx,
      total,
      evaluator,
      defaultMonteCarlo,
      directCreditWrites(ctx.output),
    );
    state.writesWhole((values) => values);
    await forEachConcurrently(input.episodes(run.runId), 4, (episode) => {
      const computed = state.compute(episode);
      return computed instanceof Promise ? computed.then(() => undefined) : undefined;
    });
    state.flush(true);
    assert.equal(state.computed, total);
    assert.ok(total > 8);
    assert.deepEqual(
      taken,
      [...taken].sort((a, b) => a - b),
      'taken in id order',
    );
    assert.equal(state.groupAdvantages?.contiguous, true, 'each group taken together');
  } finally {
    store.close();
  }
});
