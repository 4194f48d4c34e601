import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { EpisodeViewService } from '../../../../src/engine/views/episodeViewService';
import { timelineFlagBits, timelineView } from '../../../../src/engine/views/timelineView';
import { timelineFlags } from '../../../../src/protocol/episodePanel';
import { rosterAgent } from './rosterFixture';
import { viewFixture, type ViewFixture } from './viewFixture';

let f: ViewFixture;
let service: EpisodeViewService;

before(async () => {
  f = await viewFixture();
  service = new EpisodeViewService(f.store.db, f.root);
});

after(() => f.store.close());

test("the engine's flag bits are the protocol's", () => {
  assert.deepEqual(timelineFlagBits, timelineFlags);
});

test('timeline() gives every message its author, tokens and flags from the index, in parallel arrays', () => {
  const timeline = service.timeline(f.id('t1a'));
  assert.deepEqual(timeline.authors, [0, 0, 1, 2], 'planner, planner, solver, verifier by roster position');
  assert.deepEqual(timeline.tokens, [4, 2, null, null], 'token counts as logged, null where none');
  assert.deepEqual(timeline.flags, [0, timelineFlags.tokenDetail, timelineFlags.tokenDetail, 0]);
});

test('timeline() rejects an episode that is not in the index', () => {
  assert.throws(() => service.timeline(999_999), /not in the index/);
});

test('authors map roster ordinals to roster positions; an ordinal outside the roster is -1', () => {
  const view = timelineView(
    {
      ordinals: [5, 2, 7, -1],
      channels: ['tool_call', 'tool_result', null, 'speech'],
      tokens: [1, null, 3, 0],
      hasTokens: [true, false, false, false],
    },
    [rosterAgent('a', 2), rosterAgent('b', 5)],
  );
  assert.deepEqual(view.authors, [1, 0, -1, -1]);
  assert.deepEqual(view.flags, [timelineFlags.toolCall | timelineFlags.tokenDetail, timelineFlags.toolResult, 0, 0]);
  assert.deepEqual(view.tokens, [1, null, 3, 0]);
});

test('a malformed stored entry reads as an author outside the roster with no tokens (never throws)', () => {
  const id = f.id('t1b');
  const column = f.store.db.prepare<{ m: string }>('SELECT messages_json AS m FROM episode WHERE episode_id = ?');
  const update = f.store.db.prepare('UPDATE episode SET messages_json = ? WHERE episode_id = ?');
  const stored = column.get(id)?.m ?? '[]';
  try {
    update.run('[[1, null, "assistant", "tool_result", 3, 7, 0], "x", null, [0]]', id);
    const timeline = service.timeline(id);
    assert.deepEqual(timeline.authors, [1, -1, -1, 0]);
    assert.deepEqual(timeline.tokens, [7, null, null, null]);
    assert.deepEqual(timeline.flags, [timelineFlags.toolResult, 0, 0, 0]);
  } finally {
    update.run(stored, id);
  }
});
