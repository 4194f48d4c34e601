import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { episodeStateVersion } from '../../../src/protocol/episodePanel';
import {
  initialUi,
  maxSavedExpanded,
  restoreEpisodeState,
  sameRef,
  toSavedState,
} from '../../../webview/src/episode/state';

const ref = { folder: '/runs/a', episodeId: 7 };
const valid = { version: episodeStateVersion, ref, method: 'loo', topSeq: 120, focusedSeq: 125, expanded: [3, 125] };
const data = { ref, messageCount: 200, defaultMethod: 'shared' as const };

const nothing = { version: episodeStateVersion, ref: null, method: null, topSeq: 0, focusedSeq: 0, expanded: [] };

describe('restoreEpisodeState', () => {
  test('keeps a valid state', () => {
    assert.deepEqual(restoreEpisodeState(valid), valid);
  });

  test('another version or no record at all is nothing saved', () => {
    for (const bad of [undefined, null, 'state', { ...valid, version: episodeStateVersion + 1 }])
      assert.deepEqual(restoreEpisodeState(bad), nothing, JSON.stringify(bad));
  });

  test('a field that fails its check falls back alone; the others are kept', () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ ref: { folder: '', episodeId: 1 } }, { ref: null }],
      [{ method: 'magic' }, { method: null }],
      [{ topSeq: -1 }, { topSeq: 0 }],
      [{ focusedSeq: 1.5 }, { focusedSeq: 0 }],
      [{ expanded: 'all' }, { expanded: [] }],
      [{ expanded: [1, -2, 'x', 4] }, { expanded: [] }],
    ];
    for (const [bad, fallback] of cases)
      assert.deepEqual(restoreEpisodeState({ ...valid, ...bad }), { ...valid, ...fallback }, JSON.stringify(bad));
  });

  test('cleans the expanded list: no repeats, bounded', () => {
    const many = Array.from({ length: maxSavedExpanded + 10 }, (_, i) => i);
    assert.deepEqual(restoreEpisodeState({ ...valid, expanded: [1, 1, 4] }).expanded, [1, 4]);
    assert.equal(restoreEpisodeState({ ...valid, expanded: many }).expanded.length, maxSavedExpanded);
  });
});

describe('initialUi', () => {
  test('restores positions for the same episode, clamped to its messages', () => {
    const ui = initialUi(restoreEpisodeState({ ...valid, topSeq: 500, expanded: [3, 250] }), data);
    assert.deepEqual(
      { ...ui, expanded: [...ui.expanded] },
      { method: 'loo', topSeq: 199, focusedSeq: 125, expanded: [3] },
    );
  });

  test('another episode starts at the top but keeps the chosen method; no state uses the default', () => {
    const other = initialUi(restoreEpisodeState({ ...valid, ref: { ...ref, episodeId: 8 } }), data);
    assert.deepEqual(
      { ...other, expanded: [...other.expanded] },
      { method: 'loo', topSeq: 0, focusedSeq: 0, expanded: [] },
    );
    assert.equal(initialUi(undefined, data).method, 'shared');
    assert.equal(initialUi(restoreEpisodeState(undefined), data).method, 'shared');
  });

  test("the opening view's method (the dashboard's) wins over the saved one and the default", () => {
    const opened = { ...data, openedMethod: 'shapley-mc' as const };
    assert.equal(initialUi(restoreEpisodeState(valid), opened).method, 'shapley-mc');
    assert.equal(initialUi(undefined, opened).method, 'shapley-mc');
    assert.equal(initialUi(restoreEpisodeState(valid), { ...data, openedMethod: null }).method, 'loo');
  });

  test('round-trips through the saved state', () => {
    const ui = initialUi(restoreEpisodeState(valid), data);
    assert.deepEqual(restoreEpisodeState(JSON.parse(JSON.stringify(toSavedState(ref, ui)))), valid);
  });

  test('sameRef compares folder and id', () => {
    assert.equal(sameRef(ref, { ...ref }), true);
    assert.equal(sameRef(ref, { ...ref, folder: '/runs/b' }), false);
    assert.equal(sameRef(ref, null), false);
  });
});
