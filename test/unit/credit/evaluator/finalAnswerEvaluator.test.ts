import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  coalitionAnswer,
  finalAnswerFingerprint,
  finalAnswerReward,
  type EvaluatorEpisode,
  type FinalAnswerOptions,
} from '../../../../src/credit/evaluator/finalAnswerEvaluator';
import { assertClose } from '../stats/assertClose';
import { exactShapley, leaveOneOut } from './exactShapley';

// credit-methods.md §8 E15: Reasoner → Actor on the Natalia problem, gold 72.
const natalia: EvaluatorEpisode = {
  agents: ['reasoner', 'actor'],
  messages: [
    { agent: 0, content: 'April 48, May 48/2 = 24, total 48 + 24 = 72.' },
    { agent: 1, content: '\\boxed{72}' },
  ],
  groundTruth: '72',
};
const strict: FinalAnswerOptions = { extraction: 'strict-boxed', aggregation: 'last' };
const lenient: FinalAnswerOptions = { extraction: 'last-number', aggregation: 'last' };

describe('finalAnswerReward on the Natalia example (E15)', () => {
  const withoutActor = 0b01;
  const everyone = 0b11;

  it('finalAnswerReward(episode, N, options) is 1 under both extractors', () => {
    assert.equal(finalAnswerReward(natalia, everyone, strict), 1);
    assert.equal(finalAnswerReward(natalia, everyone, lenient), 1);
  });

  it('finalAnswerReward(episode, N \\ {Actor}, strict-boxed) is 0, so LOO_Actor = 1', () => {
    assert.equal(finalAnswerReward(natalia, withoutActor, strict), 0);
    assert.equal(finalAnswerReward(natalia, everyone, strict) - finalAnswerReward(natalia, withoutActor, strict), 1);
  });

  it('finalAnswerReward(episode, N \\ {Actor}, last-number) is 1, so LOO_Actor = 0', () => {
    assert.equal(finalAnswerReward(natalia, withoutActor, lenient), 1);
    assert.equal(finalAnswerReward(natalia, everyone, lenient) - finalAnswerReward(natalia, withoutActor, lenient), 0);
  });

  it('finalAnswerReward(episode, ∅, options) is 0', () => {
    assert.equal(finalAnswerReward(natalia, 0, lenient), 0);
    assert.equal(finalAnswerReward({ ...natalia, groundTruth: undefined }, 0, lenient), 0);
  });
});

describe('finalAnswerReward on a majority vote (E4)', () => {
  // Gold 42; the three voters answer 42, 42, 17 in three formats.
  const vote: EvaluatorEpisode = {
    agents: ['a', 'b', 'c'],
    messages: [
      { agent: 0, content: 'I get 42.\n#### 42' },
      { agent: 1, content: 'Therefore \\boxed{42}' },
      { agent: 2, content: '#### 17' },
    ],
    groundTruth: 'She has 6 * 7 = 42 apples.\n#### 42',
  };
  const games = [
    { aggregation: 'vote', v: [0, 1, 1, 1, 0, 1, 1, 1], shapley: [1 / 2, 1 / 2, 0], loo: [0, 0, 0] },
    { aggregation: 'vote-ties-none', v: [0, 1, 1, 1, 0, 0, 0, 1], shapley: [2 / 3, 2 / 3, -1 / 3], loo: [1, 1, 0] },
  ] as const;
  for (const game of games) {
    const options: FinalAnswerOptions = { extraction: 'gsm8k', aggregation: game.aggregation };
    const value = (mask: number): number => finalAnswerReward(vote, mask, options);

    it(`finalAnswerReward(episode, S, '${game.aggregation}') gives v(S) for all 8 coalitions`, () => {
      assert.deepEqual(
        Array.from({ length: 8 }, (_, mask) => value(mask)),
        game.v,
      );
    });

    it(`finalAnswerReward(episode, S, '${game.aggregation}') yields Shapley (${game.shapley.map((x) => x.toFixed(3)).join(', ')}) and LOO (${game.loo.join(', ')})`, () => {
      assertClose(exactShapley(3, value), game.shapley, 1e-12);
      assertClose(leaveOneOut(3, value), game.loo, 0);
    });
  }
});

describe('finalAnswerReward details', () => {
  const routed: EvaluatorEpisode = {
    agents: ['fast', 'careful'],
    messages: [
      { agent: 0, content: '#### 70' },
      { agent: 1, content: 'Step by step.\n#### 72' },
    ],
    groundTruth: '72',
    selected: 1,
  };
  const selected: FinalAnswerOptions = { extraction: 'gsm8k', aggregation: 'selected' };

  it("finalAnswerReward(episode, S, 'selected') scores the routed expert's answer only when it is present", () => {
    assert.deepEqual(
      [0, 1, 2, 3].map((mask) => finalAnswerReward(routed, mask, selected)),
      [0, 0, 1, 1],
    );
    assert.equal(finalAnswerReward({ ...routed, selected: 0 }, 3, selected), 0);
  });

  it("finalAnswerReward(episode, S, 'selected') is NaN when the episode records no selection", () => {
    const { selected: _, ...unrouted } = routed;
    assert.ok(Number.isNaN(finalAnswerReward(unrouted, 3, selected)));
  });

  it('finalAnswerReward(episode, S, options) is NaN without a ground truth', () => {
    assert.ok(Number.isNaN(finalAnswerReward({ ...routed, groundTruth: undefined }, 3, selected)));
    assert.ok(Number.isNaN(finalAnswerReward({ ...routed, groundTruth: '  ' }, 3, selected)));
  });

  it('finalAnswerReward(episode, S, options) compares normalised answers', () => {
    const episode: EvaluatorEpisode = {
      agents: ['x'],
      messages: [{ agent: 0, content: '#### $1,000.00' }],
      groundTruth: '1000',
    };
    assert.equal(finalAnswerReward(episode, 1, { extraction: 'gsm8k', aggregation: 'last' }), 1);
    assert.equal(finalAnswerReward(episode, 1, { extraction: 'gsm8k', aggregation: 'last', stripCurrency: false }), 0);
  });

  it('finalAnswerReward(episode, S, options) never counts undeclared speakers (negative agent index) as present', () => {
    const episode: EvaluatorEpisode = {
      agents: ['x'],
      messages: [
        { agent: 0, content: '#### 1' },
        { agent: -1, content: '#### 2' },
      ],
      groundTruth: '1',
    };
    assert.equal(finalAnswerReward(episode, 1, { extraction: 'gsm8k', aggregation: 'last' }), 1);
  });

  it('finalAnswerReward(episode, mask, options) throws for a negative or fractional mask', () => {
    assert.throws(() => finalAnswerReward(routed, -1, selected), RangeError);
    assert.throws(() => finalAnswerReward(routed, 1.5, selected), RangeError);
  });

  it('coalitionAnswer(episode, S, options) returns the aggregated answer', () => {
    assert.equal(coalitionAnswer(natalia, 0b01, lenient), '72');
    assert.equal(coalitionAnswer(natalia, 0b01, strict), undefined);
  });
});

describe('finalAnswerFingerprint', () => {
  it('finalAnswerFingerprint(options) names the evaluator, version and every resolved option', () => {
    assert.equal(
      finalAnswerFingerprint({ extraction: 'gsm8k', aggregation: 'last' }),
      'final-answer@1 extraction=gsm8k aggregation=last stripThousands=1 stripCurrency=1 stripTrailingZeros=1 foldCase=0 foldWhitespace=1',
    );
  });

  it('finalAnswerFingerprint(options) is equal for equal semantics and differs otherwise', () => {
    const base = finalAnswerFingerprint({ extraction: 'gsm8k', aggregation: 'last' });
    assert.equal(finalAnswerFingerprint({ aggregation: 'last', extraction: 'gsm8k', stripThousands: true }), base);
    assert.notEqual(finalAnswerFingerprint({ extraction: 'gsm8k', aggregation: 'last', foldCase: true }), base);
    assert.notEqual(finalAnswerFingerprint({ extraction: 'strict-boxed', aggregation: 'last' }), base);
    assert.notEqual(finalAnswerFingerprint({ extraction: 'gsm8k', aggregation: 'vote' }), base);
  });
});
