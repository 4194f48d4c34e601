import assert from 'node:assert/strict';
import { test } from 'node:test';
import { episodeCreditView } from '../../../../src/engine/views/creditView';
import type { EpisodeCreditRow } from '../../../../src/store/episodeViewRepository';
import { creditViewInput } from './creditViewInput';
import { rosterAgent } from './rosterFixture';

const roster = ['planner', 'solver'].map(rosterAgent);

function row(messageSeq: number | null, value: number, ci: [number, number] | null = null): EpisodeCreditRow {
  return {
    agentId: messageSeq === null || messageSeq % 2 === 0 ? 10 : 11,
    messageSeq,
    value,
    ciLow: ci?.[0] ?? null,
    ciHigh: ci?.[1] ?? null,
    n: ci ? 200 : null,
    advantage: null,
    approximate: false,
    source: ci ? 'replayed+estimated' : 'replayed',
    status: ci ? 'estimated' : 'exact',
    computedAt: '2026-01-01T00:00:00.000Z',
  };
}

function view(rows: EpisodeCreditRow[]) {
  return episodeCreditView(creditViewInput({ method: 'owen', reward: 1, roster, authors: [0, 1, 0], rows }));
}

test('estimated message rows give the view the half-widths of their 95% intervals, per message', () => {
  const credit = view([row(0, 0.2, [0.1, 0.3]), row(1, 0.5, [0.4, 0.6]), row(2, 0.3, [0.25, 0.35]), row(null, 0.5)]);
  assert.equal(credit.messageCreditKind, 'per-message');
  assert.deepEqual(credit.messageCredit, [0.2, 0.5, 0.3]);
  const margins = credit.messageMargin ?? [];
  [0.1, 0.1, 0.05].forEach((half, seq) => assert.ok(Math.abs((margins[seq] ?? NaN) - half) < 1e-12, `#${seq}`));
  assert.equal(credit.valueStatus, 'estimated');
});

test('exact message rows and agent-only rows send no margin array (a long exact episode stays small)', () => {
  assert.equal(view([row(0, 0.2), row(1, 0.5), row(2, 0.3)]).messageMargin, undefined);
  const spread = view([row(null, 0.6)]);
  assert.equal(spread.messageCreditKind, 'spread');
  assert.equal(spread.messageMargin, undefined);
  const partial = view([row(0, 0.2, [0.1, 0.3]), row(1, 0.5), row(7, 1, [0, 2])]);
  assert.deepEqual(
    partial.messageMargin?.map((m) => (m === null ? null : Math.round(m * 1000) / 1000)),
    [0.1, null, null],
    'a row outside the messages is ignored',
  );
});
