import assert from 'node:assert/strict';
import { test } from 'node:test';
import { routingProbabilityTolerance, sumsToOne } from '../../../../src/core/routingTolerance';
import { routingEstimates } from '../../../../src/credit/signals/routingEstimates';
import { decodeEpisode } from '../../../../src/ingest/canonical/decodeEpisode';

/** Whether the indexer accepts `probs` (over experts a, b, c, ...) as routing.probs. */
function indexAccepts(probs: readonly number[]): boolean {
  const names = probs.map((_, i) => String.fromCharCode(97 + i));
  const routing = { probs: Object.fromEntries(names.map((name, i) => [name, probs[i]])), selected: 'a' };
  const messages = names.map((agent) => ({ agent, content: '' }));
  return decodeEpisode({ id: 'e', messages, routing }).ok;
}

/** Whether the credit engine accepts the same probabilities, in roster order. */
function creditAccepts(probs: readonly number[]): boolean {
  return routingEstimates(probs, 0, 1).ok;
}

const t = routingProbabilityTolerance;
const cases: readonly (readonly number[])[] = [
  [0.5, 0.5],
  [0.5, 0.499], // 1 − t, exactly at the boundary
  [0.5, 0.501], // 1 + t
  [0.499, 0.5],
  [0.3333, 0.3333, 0.3333],
  [0.2, 0.2, 0.2, 0.2, 0.199],
  [0.2, 0.2, 0.2, 0.2, 0.201],
  [0.5, 0.5 - t / 2],
  [0.5, 0.5 - 1.5 * t], // beyond
  [0.5, 0.5 + 1.5 * t],
  [0.5, 0.498],
  [0.7, 0.2],
];

test('the indexer and the credit engine use one tolerance for the sum of routing probabilities', () => {
  assert.equal(t, 1e-3);
  for (const probs of cases) {
    assert.equal(indexAccepts(probs), creditAccepts(probs), `index and credit disagree on [${probs.join(', ')}]`);
    assert.equal(
      indexAccepts([...probs].reverse()),
      creditAccepts([...probs].reverse()),
      `disagree on reversed [${probs.join(', ')}]`,
    );
  }
});

test('sums of exactly 1 ± tolerance are accepted at both times, farther ones rejected at both', () => {
  assert.ok(indexAccepts([0.5, 0.499]) && creditAccepts([0.5, 0.499]));
  assert.ok(indexAccepts([0.5, 0.501]) && creditAccepts([0.5, 0.501]));
  assert.ok(!indexAccepts([0.5, 0.498]) && !creditAccepts([0.5, 0.498]));
  assert.ok(sumsToOne(1 - t) && sumsToOne(1 + t) && !sumsToOne(1 - 1.01 * t) && !sumsToOne(1 + 1.01 * t));
});
