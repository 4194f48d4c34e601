import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { timelineFlags, type EpisodeAgentView, type TimelineView } from '../../../src/protocol/episodePanel';
import { blockText, sizingNote } from '../../../webview/src/episode/swimlanes/blockText';
import { leftForFraction, minimapCells, windowFraction } from '../../../webview/src/episode/swimlanes/minimapModel';
import {
  blockGeometry,
  maxTrackPx,
  minBlockPx,
  moveFrom,
  nearestIn,
  outsideLaneName,
  scrollLeftFor,
  scrolledMeanPx,
  seqAtX,
  swimlaneModel,
  visibleBlocks,
} from '../../../webview/src/episode/swimlanes/model';
import { creditTint } from '../../../webview/src/episode/tint';

const agent = (name: string, messages: number): EpisodeAgentView => {
  return { name, kind: 'llm', declared: true, messages, tokens: null, loggedReward: null, loggedAdvantage: null };
};
const roster = [agent('planner', 2), agent('solver', 2), agent('verifier', 1), agent('critic', 0)];
const timeline = (authors: number[], tokens: (number | null)[]): TimelineView => ({
  authors,
  tokens,
  flags: authors.map(() => 0),
});
// planner, solver, planner, solver, verifier
const five = timeline([0, 1, 0, 1, 2], [10, null, 30, 0, 5]);

describe('swimlane model: lanes', () => {
  test('one lane per roster agent in roster order; a silent agent is an empty lane', () => {
    const model = swimlaneModel(roster, five);
    assert.deepEqual(
      model.lanes.map((l) => [l.name, l.silent, [...l.seqs]]),
      [
        ['planner', false, [0, 2]],
        ['solver', false, [1, 3]],
        ['verifier', false, [4]],
        ['critic', true, []],
      ],
    );
    assert.deepEqual([...model.laneOf], [0, 1, 0, 1, 2]);
    assert.deepEqual([...model.indexInLane], [0, 0, 1, 1, 0]);
  });

  test('authors outside the roster (or bad entries) get one extra lane at the end', () => {
    const model = swimlaneModel(roster.slice(0, 2), timeline([0, 7, -1, 1], [1, 1, 1, 1]));
    assert.deepEqual(
      model.lanes.map((l) => [l.name, l.outside, [...l.seqs]]),
      [
        ['planner', false, [0]],
        ['solver', false, [3]],
        [outsideLaneName, true, [1, 2]],
      ],
    );
    const bad = swimlaneModel(roster, { authors: [0, Number.NaN], tokens: [], flags: [] });
    assert.equal(bad.count, 2);
    assert.equal(bad.lanes.at(-1)?.name, outsideLaneName);
    assert.equal(bad.unknownTokens, 2, 'missing tokens read as unknown');
  });

  test('a block is sized by its tokens, by 1 where they are unknown (and 0 tokens is 1)', () => {
    const model = swimlaneModel(roster, five);
    assert.deepEqual([...model.units], [10, 1, 30, 1, 5]);
    assert.equal(model.unknownTokens, 1);
    assert.match(sizingNote(model), /1 of 5 messages log no token count and are drawn as 1 token\.$/);
    assert.match(sizingNote(swimlaneModel(roster, timeline([0], [null]))), /logs no token counts, so every block/);
    assert.doesNotMatch(sizingNote(swimlaneModel(roster, timeline([0], [3]))), /drawn as 1 token/);
  });
});

describe('swimlane model: geometry', () => {
  test('a short episode fills the viewport; widths grow with tokens from the minimum', () => {
    const model = swimlaneModel(roster, five);
    const g = blockGeometry(model.units, 470);
    assert.equal(g.fits, true);
    assert.ok(Math.abs(g.total - 470) < 1e-9);
    const width = (seq: number): number => (g.starts[seq + 1] ?? 0) - (g.starts[seq] ?? 0);
    // 470 − 5 × 4 = 450 px over 47 units: 9.574… px a token.
    assert.ok(Math.abs(width(2) - (minBlockPx + (30 * 450) / 47)) < 1e-9);
    assert.ok(width(2) > width(0) && width(0) > width(4) && width(4) > width(1));
    assert.equal(width(1), width(3), 'unknown and zero tokens draw alike');
  });

  test('a long episode scrolls at the mean block width, and the track never passes its cap', () => {
    const units = new Float64Array(100_000).fill(80);
    const g = blockGeometry(units, 800);
    assert.equal(g.fits, false);
    assert.ok(Math.abs(g.total - 100_000 * scrolledMeanPx) < 1e-6);
    const huge = blockGeometry(new Float64Array(1_000_000).fill(3), 800);
    assert.ok(huge.total <= maxTrackPx + 1e-6, String(huge.total));
    assert.ok((huge.starts[1] ?? 0) >= minBlockPx);
    assert.equal(blockGeometry(new Float64Array(0), 800).total, 0);
  });

  test('hit testing and the visible range by binary search', () => {
    const g = blockGeometry(new Float64Array(100_000).fill(1), 800);
    // Every block 16 px wide.
    assert.equal(seqAtX(g, 0), 0);
    assert.equal(seqAtX(g, 15.9), 0);
    assert.equal(seqAtX(g, 16), 1);
    assert.equal(seqAtX(g, -50), 0);
    assert.equal(seqAtX(g, 1e12), 99_999);
    assert.deepEqual(visibleBlocks(g, 16_000, 800, 0), { first: 1000, last: 1050 });
    assert.deepEqual(visibleBlocks(g, 16_000, 800, 160), { first: 990, last: 1060 });
    assert.equal(visibleBlocks(blockGeometry(new Float64Array(0), 800), 0, 800, 0), null);
    assert.equal(seqAtX(blockGeometry(new Float64Array(0), 800), 3), -1);
  });

  test('scrolling a block into view moves only as far as needed', () => {
    const g = blockGeometry(new Float64Array(1000).fill(1), 100);
    assert.equal(scrollLeftFor(g, 10, 0, 800), 0, 'already in view');
    assert.equal(scrollLeftFor(g, 100, 0, 800), 1616 - 800, 'right of the view: its end at the right edge');
    assert.equal(scrollLeftFor(g, 5, 400, 800), 80, 'left of the view: its start at the left edge');
  });
});

describe('swimlane model: keyboard moves', () => {
  const model = swimlaneModel(roster, timeline([0, 1, 0, 1, 2, 0, 0, 0, 1], Array<number>(9).fill(1)));
  test('left and right move along the lane, stopping at its ends', () => {
    assert.equal(moveFrom(model, 0, 'right'), 2);
    assert.equal(moveFrom(model, 2, 'right'), 5);
    assert.equal(moveFrom(model, 7, 'right'), 7);
    assert.equal(moveFrom(model, 0, 'left'), 0);
    assert.equal(moveFrom(model, 8, 'left'), 3);
  });

  test('up and down move to the nearest lane with messages, to the message nearest in time', () => {
    assert.equal(moveFrom(model, 6, 'down'), 8, 'planner #6 → solver: #3 is 3 away, #8 is 2');
    assert.equal(moveFrom(model, 4, 'up'), 3);
    assert.equal(moveFrom(model, 4, 'down'), 4, 'the silent critic below has no block: stays');
    assert.equal(moveFrom(model, 0, 'up'), 0);
    assert.equal(moveFrom(model, 2, 'down'), 1, 'a tie goes to the earlier message');
  });

  test('first and last are the episode ends; an empty episode has no block', () => {
    assert.equal(moveFrom(model, 4, 'first'), 0);
    assert.equal(moveFrom(model, 4, 'last'), 8);
    assert.equal(moveFrom(swimlaneModel(roster, timeline([], [])), 0, 'right'), -1);
    assert.equal(moveFrom(model, 99, 'left'), 3, 'a seq past the end is clamped to the last (solver #8) first');
  });

  test('nearestIn', () => {
    const seqs = Int32Array.from([2, 5, 9]);
    assert.deepEqual(
      [0, 2, 3, 4, 7, 8, 100].map((s) => nearestIn(seqs, s)),
      [2, 2, 2, 5, 5, 9, 9],
    );
  });
});

describe('swimlane minimap', () => {
  test('cells hold the mean credit of their lane and columns; empty cells are left out', () => {
    const model = swimlaneModel(roster, timeline([0, 1, 0, 1], [1, 1, 1, 1]));
    const g = blockGeometry(model.units, 100);
    const values = [0.5, null, 0.25, -1];
    const { columns, cells } = minimapCells(model, g, (seq) => values[seq] ?? null, 2);
    assert.equal(columns, 2);
    assert.deepEqual(cells, [
      { column: 0, lane: 0, messages: 1, mean: 0.5 },
      { column: 0, lane: 1, messages: 1, mean: null },
      { column: 1, lane: 0, messages: 1, mean: 0.25 },
      { column: 1, lane: 1, messages: 1, mean: -1 },
    ]);
    assert.equal(minimapCells(model, g, () => null).columns, 4, 'never more columns than messages');
  });

  test('the window mark and a click on the strip', () => {
    assert.deepEqual(windowFraction(500, 100, 1000), { start: 0.5, size: 0.1 });
    assert.deepEqual(windowFraction(990, 100, 1000), { start: 0.9, size: 0.1 }, 'clamped to the strip');
    assert.deepEqual(windowFraction(0, 100, 0), { start: 0, size: 1 });
    assert.equal(leftForFraction(0.5, 100, 1000), 450, 'centred on the click');
    assert.equal(leftForFraction(0, 100, 1000), 0);
    assert.equal(leftForFraction(1, 100, 1000), 900);
    assert.equal(leftForFraction(Number.NaN, 100, 1000), 0);
  });
});

describe('swimlane block text', () => {
  test('position, lane, tokens, credit and labels, in words', () => {
    const model = swimlaneModel(roster, five);
    const tint = creditTint(
      {
        method: 'prefix',
        status: 'computed',
        reason: null,
        approximate: false,
        source: 'logged',
        computedAt: null,
        shared: 1,
        agents: [],
        messageCredit: [0.25, null, 0, 0.5, 2],
        messageCreditKind: 'per-message',
      },
      { bound: 1, reward: { min: 0, max: 1 } },
    );
    const label = { kind: 'mistake', agent: 'solver', message: 1, value: 'step 1', reason: null };
    assert.equal(
      blockText(model, 1, { tokens: null, flags: 0 }, tint, [label]),
      '#1 solver · no token count (drawn as 1 token) · No credit for this message under Prefix (per message) · label mistake: step 1',
    );
    assert.match(
      blockText(model, 4, { tokens: 5, flags: 0 }, tint, []),
      /^#4 verifier · 5 tokens · Credit \+2\.00.*beyond the scale's \+1\.00/,
    );
    assert.equal(blockText(model, 0, { tokens: 10, flags: 0 }, null, []), '#0 planner · 10 tokens · No credit shown');
    assert.equal(
      blockText(model, 2, { tokens: 3, flags: timelineFlags.toolCall | timelineFlags.tokenDetail }, null, []),
      '#2 planner · tool call · 3 tokens · No credit shown',
    );
    assert.match(
      blockText(model, 3, { tokens: 3, flags: timelineFlags.toolResult }, null, []),
      /^#3 solver · tool result · /,
    );
  });
});
