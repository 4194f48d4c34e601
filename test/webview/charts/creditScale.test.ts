import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  beyondMark,
  creditColorScale,
  creditPaint,
  creditRampColor,
  domainBound,
  formatBound,
} from '../../../webview/src/charts/creditScale';

test('the ramp is centred on the theme neutral, runs to the theme ends, and clamps', () => {
  assert.equal(creditRampColor(0), 'var(--credit-zero)');
  assert.equal(creditRampColor(Number.NaN), 'var(--credit-zero)');
  assert.equal(creditRampColor(1), 'color-mix(in oklab, var(--credit-positive) 100%, var(--credit-zero))');
  assert.equal(creditRampColor(-0.25), 'color-mix(in oklab, var(--credit-negative) 25%, var(--credit-zero))');
  assert.equal(creditRampColor(7), creditRampColor(1));
  assert.equal(creditRampColor(-7), creditRampColor(-1));
});

test('creditColorScale keeps its signature: ±magnitude onto the same ramp, clamped', () => {
  const scale = creditColorScale(2);
  assert.equal(scale(0), creditRampColor(0));
  assert.equal(scale(1), creditRampColor(0.5));
  assert.equal(scale(-5), creditRampColor(-1));
  assert.equal(creditColorScale(Number.NaN)(1), creditRampColor(1), 'a bad magnitude falls back to 1');
});

test('creditPaint: one fixed domain, four distinct states, marked clamping', () => {
  const zero = creditPaint(0, 1);
  const none = creditPaint(null, 1);
  const unknown = creditPaint(null, 1, true);
  const value = creditPaint(0.5, 1);
  assert.deepEqual(
    [zero, none, unknown, value].map((p) => p.state),
    ['zero', 'none', 'unidentified', 'value'],
  );
  assert.equal(zero.color, 'var(--credit-zero)', 'zero is the neutral centre, solid');
  assert.equal(none.color, null, 'no credit has no fill (drawn by class)');
  assert.equal(unknown.color, null);
  assert.equal(creditPaint(Number.NaN, 1).state, 'none');
  assert.equal(creditPaint(0.5, 1, true).state, 'value', 'a value is never hidden as not identifiable');
  assert.equal(value.strength, 0.5);
  assert.equal(value.beyond, null);
  assert.equal(creditPaint(1, 1).beyond, null, 'the end itself is inside');
  const above = creditPaint(1.5, 1);
  assert.equal(above.beyond, 'above');
  assert.equal(above.color, creditRampColor(1));
  assert.equal(above.strength, 1);
  assert.equal(creditPaint(-1.5, 1).beyond, 'below');
  assert.equal(creditPaint(0.5, 0).strength, 0.5, 'a bad bound falls back to 1');
  assert.deepEqual(beyondMark(above, 1), { glyph: '▲', text: "beyond the scale's +1.00, drawn at its end" });
  assert.deepEqual(beyondMark(creditPaint(-30, 12.5), 12.5), {
    glyph: '▼',
    text: "beyond the scale's −13, drawn at its end",
  });
  assert.deepEqual(beyondMark(value, 1), { glyph: '', text: '' });
});

test('domainBound trusts only a positive finite bound', () => {
  assert.equal(domainBound({ bound: 2, reward: { min: -1, max: 1 } }), 2);
  assert.equal(domainBound(undefined), 1);
  assert.equal(domainBound({ bound: 0, reward: null }), 1);
  assert.equal(domainBound({ bound: Number.POSITIVE_INFINITY, reward: null }), 1);
  assert.equal(formatBound(0.5), '0.50');
  assert.equal(formatBound(40), '40');
});
