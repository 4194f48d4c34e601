import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pairEpisodes, sharedKeys } from '../../../../src/engine/compare/pairEpisodes';
import type { CompareEpisode } from '../../../../src/store/compareRepository';

let nextId = 1;
function row(externalId: string, task: string | null, group: string | null = null, sample: number | null = null) {
  const e: CompareEpisode = {
    episodeId: nextId++,
    externalId,
    task,
    group,
    sample,
    step: 1,
    reward: 1,
    uri: 'a.jsonl',
    format: 'credit_lens_jsonl',
    line: 1,
    offset: 0,
    length: 1,
  };
  return e;
}
const byTask = (e: CompareEpisode): string | undefined => e.task ?? undefined;
const names = (pairs: readonly { a: CompareEpisode; b: CompareEpisode }[]): string[][] =>
  pairs.map((p) => [p.a.externalId, p.b.externalId]);

describe('pairEpisodes', () => {
  it('pairs one episode per task on each side and counts the rest as unpaired', () => {
    const a = [row('a1', 't1'), row('a2', 't2'), row('a3', 't3'), row('a4', null)];
    const b = [row('b2', 't2'), row('b1', 't1'), row('b9', 't9')];
    const { pairs, summary } = pairEpisodes(a, b, 'task', byTask);
    assert.deepEqual(names(pairs), [
      ['a1', 'b1'],
      ['a2', 'b2'],
    ]);
    assert.deepEqual(summary, {
      key: 'task',
      pairs: 2,
      episodesA: 4,
      episodesB: 3,
      unpairedA: 2,
      unpairedB: 1,
      ambiguousKeys: 0,
    });
  });

  it('pairs the rollouts of one task by group rank and rollout index, whatever the group ids', () => {
    const a = [row('a-r0', 't', 's1-g0', 0), row('a-r1', 't', 's1-g0', 1), row('a-r2', 't', 's1-g0', 2)];
    const b = [row('b-r1', 't', 'uid-7', 1), row('b-r0', 't', 'uid-7', 0), row('b-r5', 't', 'uid-7', 5)];
    const { pairs, summary } = pairEpisodes(a, b, 'task', byTask);
    assert.deepEqual(names(pairs), [
      ['a-r0', 'b-r0'],
      ['a-r1', 'b-r1'],
    ]);
    assert.equal(summary.ambiguousKeys, 1);
    assert.equal(summary.unpairedA, 1);
    assert.equal(summary.unpairedB, 1);
  });

  it('pairs in logged order when a side does not log the rollout index', () => {
    const a = [row('a1', 't'), row('a2', 't'), row('a3', 't')];
    const b = [row('b1', 't', 'g', 0), row('b2', 't', 'g', 1)];
    const { pairs, summary } = pairEpisodes(a, b, 'task', byTask);
    assert.deepEqual(names(pairs), [
      ['a1', 'b1'],
      ['a2', 'b2'],
    ]);
    assert.deepEqual([summary.unpairedA, summary.unpairedB, summary.ambiguousKeys], [1, 0, 1]);
  });

  it('reports the key "none" when nothing pairs, and reads each side with its own key function', () => {
    const a = [row('a1', 'x')];
    const b = [row('b1', 'y')];
    assert.equal(pairEpisodes(a, b, 'task', byTask).summary.key, 'none');
    assert.equal(sharedKeys(a, b, byTask), 0);
    const paired = pairEpisodes(
      a,
      b,
      'prompt',
      () => 'p',
      () => 'p',
    );
    assert.deepEqual(names(paired.pairs), [['a1', 'b1']]);
    assert.equal(paired.summary.key, 'prompt');
  });
});
