import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CreditEpisode, CreditRow } from '../../../src/core/creditInput';
import { runCreditJob } from '../../../src/engine/credit/creditJob';
import { GroupAdvantages } from '../../../src/engine/credit/groupAdvantages';
import { runIndexJob } from '../../../src/engine/indexJob';
import { IndexStore } from '../../../src/store/indexStore';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';

function row(episodeId: number, agentId: number, value: number, messageSeq: number | null = null): CreditRow {
  const provenance = { stderr: null, ciLow: null, ciHigh: null, n: null, intervention: null, advantage: null };
  return { episodeId, agentId, messageSeq, value, status: 'exact', source: 'logged', ...provenance };
}

/** An episode of `group` (only its group matters to the buffer). */
function inGroup(group: string | null): CreditEpisode {
  const where = { uri: 'a.jsonl', offset: 0, length: 0, line: 1 };
  const empty = { loggedCoalitions: new Map(), loggedCounterfactuals: [], messageAuthors: [], labels: [] };
  return {
    episodeId: 0,
    externalId: 'e',
    runId: 1,
    step: 1,
    group,
    reward: 1,
    groundTruth: null,
    agents: [],
    ...where,
    ...empty,
  };
}

/** A fake convention that makes the order and grouping visible: each value plus 10 × its position in the series. */
const positions = (values: Float64Array): Float64Array => values.map((v, k) => v + 10 * k);

test('GroupAdvantages holds a group until the next one starts, then sets advantages per method and agent in episode order', () => {
  const buffer = new GroupAdvantages(positions);
  const e1 = new Map([['loo', [row(1, 7, 0.5), row(1, 8, 0.25), row(1, 7, 9, 0)]]]);
  const e2 = new Map([['loo', [row(2, 7, Number.NaN), row(2, 8, 1)]]]);
  const e3 = new Map([['loo', [row(3, 7, 2)]]]);
  assert.deepEqual(buffer.add(inGroup('g'), e2), []);
  assert.deepEqual(buffer.add(inGroup('g'), e1), [], 'accepted out of order within the group');
  const alone = new Map([['loo', [row(9, 7, 3)]]]);
  assert.deepEqual(buffer.add(inGroup(null), alone), [alone], 'an episode without a group is ready at once');
  const ready = buffer.add(inGroup('h'), e3);
  assert.deepEqual(ready, [e2, e1], 'the next group closes the first');
  const advantage = (m: ReadonlyMap<string, readonly CreditRow[]>): (number | null)[] =>
    (m.get('loo') ?? []).map((r) => r.advantage);
  assert.deepEqual(advantage(e1), [0.5, 0.25, null], 'episode 1 comes first; per-message rows get none');
  assert.deepEqual(advantage(e2), [10, 11], 'a NaN value counts as 0, as the stored NULL does');
  assert.deepEqual(advantage(alone), [null]);
  assert.deepEqual(buffer.close(), [e3]);
  assert.deepEqual(advantage(e3), [2]);
  assert.equal(buffer.contiguous, true);
});

test('GroupAdvantages gives up when a closed group comes back', () => {
  const buffer = new GroupAdvantages(positions);
  const first = new Map([['loo', [row(1, 7, 1)]]]);
  const other = new Map([['loo', [row(2, 7, 1)]]]);
  const back = new Map([['loo', [row(3, 7, 1)]]]);
  buffer.add(inGroup('g'), first);
  assert.deepEqual(buffer.add(inGroup('h'), other), [first]);
  assert.deepEqual(buffer.add(inGroup('g'), back), [other, back], 'everything held is released');
  assert.equal(buffer.contiguous, false);
  const later = new Map([['loo', [row(4, 7, 1)]]]);
  assert.deepEqual(buffer.add(inGroup('h'), later), [later]);
  assert.equal(later.get('loo')?.[0]?.advantage, null, 'no advantage is set once it gave up');
});

interface Stored {
  external_id: string;
  agent_id: number;
  value: number | null;
  advantage: number | null;
  status: string;
  source: string;
  intervention: string | null;
}

/** Stored loo rows after a first pass (advantages set before the write) and after a rerun (the stored-rows update). */
async function firstAndRerun(groups: readonly string[]): Promise<{ first: Stored[]; rerun: Stored[] }> {
  const root = tempFolder();
  const lines = groups.map((group, k) =>
    episode(`e${k}`, {
      group,
      reward: (k % 3) / 2,
      counterfactuals: [
        { intervention: 'remove', agents: ['planner'], reward: (k % 2) / 2 },
        { intervention: 'remove', agents: ['solver'], reward: ((k * 7) % 5) / 4 },
      ],
    }),
  );
  writeFileSync(join(root, 'a.jsonl'), jsonl(...lines));
  await runIndexJob({ root, search: false });
  const read = (): Stored[] => {
    const store = IndexStore.open(join(root, '.credit-lens', 'index.sqlite'));
    try {
      return store.db
        .prepare<Stored>(
          `SELECT e.external_id, c.agent_id, c.value, c.advantage, c.status, c.source, c.intervention
           FROM credit c JOIN episode e USING (episode_id) WHERE c.method = 'loo' ORDER BY c.episode_id, c.agent_id`,
        )
        .all();
    } finally {
      store.close();
    }
  };
  await runCreditJob({ root, method: 'loo' });
  const first = read();
  await runCreditJob({ root, method: 'loo' });
  return { first, rerun: read() };
}

test('a first loo pass stores the same rows and advantages as a rerun, with groups contiguous or interleaved', async () => {
  for (const groups of [
    ['a', 'a', 'a', 'b', 'b', 'c', 'c', 'c', 'c'],
    ['a', 'b', 'a', 'c', 'b', 'a', 'c', 'c', 'b'],
  ]) {
    const { first, rerun } = await firstAndRerun(groups);
    assert.equal(first.length, groups.length * 2);
    assert.deepEqual(first, rerun);
    assert.ok(
      first.every((r) => r.advantage !== null),
      'every row has its advantage',
    );
    const distinct = new Set(first.map((r) => r.advantage));
    assert.ok(distinct.size > 2, `advantages vary within groups (${[...distinct].join(', ')})`);
  }
});
