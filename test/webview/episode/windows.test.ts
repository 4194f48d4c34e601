import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { maxMessageWindow } from '../../../src/protocol/episodePanel';
import { WindowCache, windowBounds, windowOf, windowSize, windowsCovering } from '../../../webview/src/episode/windows';

describe('message windows', () => {
  test('windows fit the protocol limit and tile the episode', () => {
    assert.ok(windowSize <= maxMessageWindow);
    assert.equal(windowOf(0), 0);
    assert.equal(windowOf(windowSize - 1), 0);
    assert.equal(windowOf(windowSize), 1);
    assert.deepEqual(windowBounds(2, 2 * windowSize + 7), { offset: 2 * windowSize, limit: 7 });
    assert.deepEqual(windowBounds(5, 10), { offset: 5 * windowSize, limit: 0 });
    assert.deepEqual(windowsCovering(windowSize - 1, 2 * windowSize), [0, 1, 2]);
  });

  test('the cache evicts the least recently used window, never a pinned one', () => {
    const cache = new WindowCache<string>(2);
    cache.set(1, 'a');
    cache.set(2, 'b');
    assert.equal(cache.get(1), 'a');
    cache.set(3, 'c');
    assert.equal(cache.has(2), false, '2 was least recently used');
    assert.equal(cache.has(1), true);
    cache.set(4, 'd', new Set([1, 3]));
    assert.deepEqual(
      [1, 3, 4].map((i) => cache.has(i)),
      [true, true, true],
      'over capacity rather than dropping what is shown',
    );
    cache.set(5, 'e');
    assert.equal(cache.size, 2);
    assert.equal(cache.peek(5), 'e');
    cache.clear();
    assert.equal(cache.size, 0);
  });
});
