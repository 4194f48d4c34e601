import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { episodeStateVersion } from '../../../src/protocol/episodePanel';
import {
  initialUi,
  maxSavedExpanded,
  parseEpisodeState,
  sameRef,
  toSavedState,
} from '../../../webview/src/episode/state';

const ref = { folder: '/runs/a', episodeId: 7 };
const valid = { version: episodeStateVersion, ref, method: 'loo', topSeq: 120, focusedSeq: 125, expanded: [3, 125] };
const data = { ref, messageCount: 200, defaultMethod: 'shared' as const };

describe('parseEpisodeState', () => {
  test('keeps a valid state', () => {
    assert.deepEqual(parseEpisodeState(valid), valid);
  });

  test('drops another version, a bad shape or a bad method', () => {
    for (const bad of [
      undefined,
      null,
      'state',
      { ...valid, version: episodeStateVersion + 1 },
      { ...valid, ref: { folder: '', episodeId: 1 } },
      { ...valid, method: 'magic' },
      { ...valid, topSeq: -1 },
      { ...valid, focusedSeq: 1.5 },
      { ...valid, expanded: 'all' },
    ]) {
      assert.equal(parseEpisodeState(bad), undefined, JSON.stringify(bad));
    }
  });

  test('cleans the expanded list: integers only, no repeats, bounded', () => {
    const many = Array.from({ length: maxSavedExpanded + 10 }, (_, i) => i);
    assert.deepEqual(parseEpisodeState({ ...valid, expanded: [1, 1, -2, 'x', 2.5, 4] })?.expanded, [1, 4]);
    assert.equal(parseEpisodeState({ ...valid, expanded: many })?.expanded.length, maxSavedExpanded);
  });
});

describe('initialUi', () => {
  test('restores positions for the same episode, clamped to its messages', () => {
    const ui = initialUi(parseEpisodeState({ ...valid, topSeq: 500, expanded: [3, 250] }), data);
    assert.deepEqual(
      { ...ui, expanded: [...ui.expanded] },
      { method: 'loo', topSeq: 199, focusedSeq: 125, expanded: [3] },
    );
  });

  test('another episode starts at the top but keeps the chosen method; no state uses the default', () => {
    const other = initialUi(parseEpisodeState({ ...valid, ref: { ...ref, episodeId: 8 } }), data);
    assert.deepEqual(
      { ...other, expanded: [...other.expanded] },
      { method: 'loo', topSeq: 0, focusedSeq: 0, expanded: [] },
    );
    assert.equal(initialUi(undefined, data).method, 'shared');
  });

  test('round-trips through the saved state', () => {
    const ui = initialUi(parseEpisodeState(valid), data);
    assert.deepEqual(parseEpisodeState(JSON.parse(JSON.stringify(toSavedState(ref, ui)))), valid);
  });

  test('sameRef compares folder and id', () => {
    assert.equal(sameRef(ref, { ...ref }), true);
    assert.equal(sameRef(ref, { ...ref, folder: '/runs/b' }), false);
    assert.equal(sameRef(ref, null), false);
  });
});
