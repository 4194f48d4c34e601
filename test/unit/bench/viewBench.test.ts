import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runWithEpisodes } from '../../../bench/viewBench';

test('runWithEpisodes() measures the run that holds the episodes, not the empty root run beside it', () => {
  const runs = [
    { name: 'large', episodes: 0 },
    { name: 'planner-solver-verifier', episodes: 130_000 },
  ];
  assert.equal(runWithEpisodes(runs, 'bench').name, 'planner-solver-verifier');
});

test('runWithEpisodes() refuses a folder whose runs are all empty', () => {
  assert.throws(() => runWithEpisodes([{ name: 'large', episodes: 0 }], 'bench'), /no run with episodes in bench/);
  assert.throws(() => runWithEpisodes([], 'bench'), /no run with episodes/);
});
