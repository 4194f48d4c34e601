import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { EpisodeAgentView, EpisodeCreditView } from '../../../src/protocol/episodePanel';
import { creditColorScale } from '../../../webview/src/charts/creditScale';
import { agentBarsModel } from '../../../webview/src/episode/bars';
import { formatCredit, formatInterval, formatNumber, formatPosition } from '../../../webview/src/kit/format';
import {
  creditText,
  creditTint,
  kindMark,
  kindSentence,
  tintText,
  tokenHeat,
  withAlpha,
} from '../../../webview/src/episode/tint';

function credit(overrides: Partial<EpisodeCreditView> = {}): EpisodeCreditView {
  return {
    method: 'loo',
    status: 'computed',
    reason: null,
    approximate: false,
    source: 'logged',
    computedAt: null,
    shared: 0.75,
    agents: [
      { agent: 'planner', value: 0.5, ciLow: 0.3, ciHigh: 0.7, n: 100, advantage: 0.1 },
      { agent: 'verifier', value: 0, ciLow: null, ciHigh: null, n: null, advantage: null },
    ],
    messageCredit: [0.25, 0, null, -0.5, Number.NaN],
    messageCreditKind: 'spread',
    ...overrides,
  };
}

const agent = (name: string, messages = 1): EpisodeAgentView => ({
  name,
  kind: 'llm',
  declared: true,
  messages,
  tokens: null,
  loggedReward: null,
  loggedAdvantage: null,
});

describe('creditTint', () => {
  const domain = { bound: 2, reward: { min: -1, max: 1 } };
  const tintOf = (overrides: Partial<EpisodeCreditView> = {}) => {
    const tint = creditTint(credit(overrides), domain);
    assert.ok(tint);
    return tint;
  };

  test("colours messages on the run's fixed domain, not the episode's largest value", () => {
    const tint = tintOf();
    const scale = creditColorScale(2);
    assert.equal(tint.bound, 2);
    assert.equal(tint.paint(0).color, scale(0.25));
    assert.equal(tint.paint(1).color, scale(0));
    assert.equal(tint.paint(3).color, scale(-0.5));
    assert.equal(tint.paint(3).strength, 0.25, '|−0.5| of ±2');
    assert.notEqual(tint.paint(0).color, tint.paint(3).color);
    const other = creditTint(credit({ messageCredit: [0.25, 2] }), domain);
    assert.equal(other?.paint(0).color, tint.paint(0).color, 'one colour is one value in every episode');
  });

  test('zero is the neutral; null, NaN and missing values are no credit', () => {
    const tint = tintOf();
    assert.deepEqual(tint.paint(1), { state: 'zero', color: 'var(--credit-zero)', strength: 0, beyond: null });
    assert.deepEqual(
      [2, 4, 99].map((seq) => [tint.value(seq), tint.paint(seq).state, tint.paint(seq).color]),
      [
        [null, 'none', null],
        [null, 'none', null],
        [null, 'none', null],
      ],
    );
  });

  test('all-zero credit is coloured (zero is a value); no credit at all has no tint', () => {
    assert.equal(tintOf({ messageCredit: [0, 0] }).paint(0).state, 'zero');
    assert.equal(creditTint(credit({ messageCredit: [null, Number.NaN] }), domain), null);
    assert.equal(creditTint(null, domain), null);
  });

  test('a not-identifiable episode paints every message as such, with the reason', () => {
    const tint = tintOf({ status: 'not-identifiable', reason: 'no counterfactuals logged', messageCredit: [] });
    assert.equal(tint.paint(0).state, 'unidentified');
    assert.equal(tint.unidentified, 'no counterfactuals logged');
    assert.equal(tintText(tint, 0), 'Not identifiable under Leave-one-out: no counterfactuals logged');
  });

  test('a value beyond the domain is drawn at its end and said so', () => {
    const tint = tintOf({ messageCredit: [3, -2.5] });
    assert.equal(tint.paint(0).beyond, 'above');
    assert.equal(tint.paint(0).color, creditColorScale(2)(2), 'clamped to the end');
    assert.equal(tint.paint(1).beyond, 'below');
    assert.match(
      tintText(tint, 0),
      /^Credit \+3\.000 under Leave-one-out .*; beyond the scale's \+2\.00, drawn at its end$/,
    );
  });

  test('without a domain from the host the scale is ±1', () => {
    assert.equal(creditTint(credit())?.bound, 1);
  });

  test('the text names the number, the method and the kind', () => {
    assert.equal(
      creditText(-0.5, 'loo', 'spread'),
      'Credit −0.500 under Leave-one-out (agent credit spread evenly over its messages)',
    );
    assert.equal(
      creditText(0.1234, 'prefix', 'per-message'),
      'Credit +0.123 under Prefix (per message) (per-message credit)',
    );
    assert.equal(creditText(null, 'shared', 'spread'), 'No credit for this message under Shared reward');
    assert.equal(
      creditText(0.5, 'prefix', 'per-message', true),
      'Credit +0.500 under Prefix (per message) (per-message credit, replayed)',
    );
  });

  test('an estimated message credit carries its interval in the text and as ±half-width on the row', () => {
    const tint = tintOf({
      method: 'owen',
      messageCreditKind: 'per-message',
      messageCredit: [0.012, 0, null],
      messageMargin: [0.022, null, 0.5],
    });
    assert.deepEqual(tint.interval(0), [0.012 - 0.022, 0.012 + 0.022]);
    assert.equal(tint.interval(2), null, 'no value, no interval');
    assert.equal(
      tintText(tint, 0),
      'Credit +0.012 under Owen (per message) (per-message credit, estimated; 95% interval [−0.010, 0.034])',
    );
    assert.deepEqual(kindMark(tint, 0), { text: '±0.022', kind: 'interval' });
    assert.equal(kindMark(tint, 1), null, 'an exact per-message value needs no mark');
    assert.equal(kindMark(tint, 2), null);
  });

  test("a message showing its agent's spread says so on the row", () => {
    const tint = tintOf();
    assert.deepEqual(kindMark(tint, 0), { text: 'spread', kind: 'spread' });
    assert.equal(kindMark(tint, 2), null, 'no credit, no mark');
    assert.equal(tint.interval(0), null);
  });

  test('the legend sentence says what a colour stands for', () => {
    assert.equal(
      kindSentence('prefix', 'per-message', true),
      'Each message shows its own Prefix (per message) credit (replayed on your model server).',
    );
  });

  test('replayed values are marked: the source names replayed', () => {
    assert.equal(tintOf({ source: 'logged+replayed' }).replayed, true);
    assert.equal(tintOf({ source: 'logged+checked' }).replayed, false);
    assert.equal(tintOf({ source: null }).replayed, false);
  });
});

describe('tokenHeat', () => {
  test('withAlpha turns colours translucent', () => {
    assert.equal(withAlpha('rgb(5, 48, 97)', 0.5), 'rgba(5, 48, 97, 0.500)');
    assert.equal(withAlpha('var(--credit-zero)', 0.5), 'color-mix(in srgb, var(--credit-zero) 50.0%, transparent)');
  });

  test('scales tokens by the message’s own largest attribution', () => {
    const heat = tokenHeat({ tokens: { text: ['a', 'b', 'c'], attribution: [0.1, -0.2, Number.NaN] } });
    assert.ok(heat);
    assert.equal(heat.magnitude, 0.2);
    assert.equal(heat.tokens[1]?.color, creditColorScale(0.2)(-0.2));
    assert.deepEqual(heat.tokens[2], { text: 'c', attribution: null, color: null, fill: null });
    assert.equal(heat.tokens[1]?.fill, withAlpha(creditColorScale(0.2)(-0.2), 0.4));
    assert.equal(heat.tokens[0]?.fill, withAlpha(creditColorScale(0.2)(0.1), 0.23));
  });

  test('is null without tokens', () => {
    assert.equal(tokenHeat({ tokens: null }), null);
    assert.equal(tokenHeat({ tokens: { text: [], attribution: [] } }), null);
  });
});

describe('agentBarsModel', () => {
  test('bars run from zero to the value; the domain covers intervals and the shared reward', () => {
    const model = agentBarsModel([agent('planner'), agent('verifier'), agent('critic', 0)], credit(), 0.75);
    assert.deepEqual(model.domain, [0, 0.8]);
    assert.equal(model.zeroAt, 0);
    assert.equal(model.sharedAt, 93.75);
    const [planner, verifier, critic] = model.bars;
    assert.deepEqual(planner?.bar, { left: 0, width: 62.5 });
    assert.ok(Math.abs((planner?.interval?.left ?? 0) - 37.5) < 1e-9);
    assert.deepEqual(verifier?.bar, { left: 0, width: 0 });
    assert.equal(verifier?.interval, null);
    assert.equal(critic?.credit, null);
    assert.equal(critic?.bar, null);
  });

  test('negative values extend left of zero; agents only the credit names come last', () => {
    const model = agentBarsModel(
      [agent('planner')],
      credit({
        agents: [{ agent: 'ghost', value: -0.4, ciLow: null, ciHigh: null, n: null, advantage: null }],
        shared: null,
      }),
      null,
    );
    assert.deepEqual(
      model.bars.map((b) => b.agent),
      ['planner', 'ghost'],
    );
    assert.equal(model.bars[1]?.declared, false);
    assert.deepEqual(model.domain, [-0.4, 0]);
    assert.deepEqual(model.bars[1]?.bar, { left: 0, width: 100 });
    assert.deepEqual(
      model.bars.map((b) => b.negative),
      [false, true],
    );
    assert.equal(model.sharedAt, null);
  });

  test('without credit the bars are empty and the shared reward is the logged one', () => {
    const model = agentBarsModel([agent('planner')], null, 0.5);
    assert.equal(model.shared, 0.5);
    assert.equal(model.bars[0]?.bar, null);
  });
});

describe('format', () => {
  test('signs credit and keeps small values readable', () => {
    assert.deepEqual([0.0833, -1.25, 0, 0.00022, 1.2e-7, 123.45, null, Number.NaN].map(formatCredit), [
      '+0.083',
      '−1.250',
      '0',
      '+0.00022',
      '+1.2e-7',
      '+123.5',
      '—',
      '—',
    ]);
    assert.equal(formatNumber(-0.5), '−0.500');
    assert.equal(formatInterval(0.3, 0.52), '[0.300, 0.520]');
    assert.equal(formatInterval(null, 0.52), '');
    assert.equal(formatPosition(12, 'g3', null), 'step 12 · group g3');
  });
});
