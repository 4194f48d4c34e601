import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RoutingDecision } from '../../../../src/core/episode';
import { routingDecisionArrays } from '../../../../src/credit/signals/routingDecisionArrays';
import { routingEstimates } from '../../../../src/credit/signals/routingEstimates';
import { assertClose } from '../stats/assertClose';

describe('routingDecisionArrays', () => {
  const experts = ['fast', 'careful'];

  it('routingDecisionArrays(decision, experts) aligns the logged probabilities with the roster order', () => {
    const result = routingDecisionArrays(
      { probs: { careful: 0.3, fast: 0.7 }, selected: 'careful', behaviourProbs: { fast: 0.5, careful: 0.5 } },
      experts,
    );
    assert.ok(result.ok);
    assertClose(result.value.probs, [0.7, 0.3], 0);
    assertClose(result.value.behaviourProbs!, [0.5, 0.5], 0);
    assert.equal(result.value.selected, 1);
    const e = routingEstimates(result.value.probs, result.value.selected, 1, result.value.behaviourProbs);
    assert.ok(e.ok);
    assertClose(e.value.weight, 0.6, 1e-12);
  });

  it('routingDecisionArrays(decision, experts) omits behaviourProbs when none were logged', () => {
    const result = routingDecisionArrays({ probs: { fast: 0.7, careful: 0.3 }, selected: 'fast' }, experts);
    assert.ok(result.ok);
    assert.equal(result.value.behaviourProbs, undefined);
  });

  const failures: { name: string; decision: RoutingDecision; message: RegExp }[] = [
    {
      name: 'a missing probability',
      decision: { probs: { fast: 1 }, selected: 'fast' },
      message: /router probability missing for expert 'careful'/,
    },
    {
      name: 'an expert outside the roster',
      decision: { probs: { fast: 0.5, careful: 0.3, slow: 0.2 }, selected: 'fast' },
      message: /logged for 'slow'/,
    },
    {
      name: 'a selected expert outside the roster',
      decision: { probs: { fast: 0.7, careful: 0.3 }, selected: 'slow' },
      message: /selected expert 'slow'/,
    },
    {
      name: 'a missing behaviour probability',
      decision: { probs: { fast: 0.7, careful: 0.3 }, selected: 'fast', behaviourProbs: { fast: 1 } },
      message: /behaviour router probability missing for expert 'careful'/,
    },
  ];
  for (const f of failures) {
    it(`routingDecisionArrays(decision, experts) rejects ${f.name}`, () => {
      const result = routingDecisionArrays(f.decision, experts);
      assert.ok(!result.ok);
      assert.match(result.error, f.message);
    });
  }
});
