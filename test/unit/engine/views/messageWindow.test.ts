import assert from 'node:assert/strict';
import { test } from 'node:test';
import { messageWindow, RecentEpisodes } from '../../../../src/engine/views/messageWindow';
import { episode } from '../../../builders/episodeBuilder';

const e = episode('w', {
  messages: [
    { agent: 'a', content: 'hello', tokens: ['he', 'llo'], attribution: [0.1, 0.9] },
    { agent: 'b', content: 'abcdef', tokens: ['abc', 'def'], attribution: [1] },
    { agent: 'a', content: 'x', attribution: [1] },
  ],
});

test('messageWindow(episode, offset, limit) cuts text at maxChars and keeps attribution only with tokens of equal length', () => {
  const window = messageWindow(e, 0, 3, 4);
  assert.deepEqual(
    window.messages.map((m) => [m.seq, m.content, m.contentChars, m.truncated, m.tokens]),
    [
      [0, 'hell', 5, true, { text: ['he', 'llo'], attribution: [0.1, 0.9] }],
      [1, 'abcd', 6, true, null],
      [2, 'x', 1, false, null],
    ],
  );
  assert.deepEqual(
    window.messages.map((m) => [m.turn, m.role, m.channel, m.tokenCount]),
    [
      [null, null, null, null],
      [null, null, null, null],
      [null, null, null, null],
    ],
  );
});

test('messageWindow(episode, offset, limit) is empty past the end and short at it', () => {
  assert.deepEqual(
    messageWindow(e, 2, 5).messages.map((m) => m.seq),
    [2],
  );
  assert.deepEqual(messageWindow(e, 3, 5), { offset: 3, messages: [] });
  assert.deepEqual(messageWindow(e, 0, 0).messages, []);
});

test('RecentEpisodes keeps the most recently used entries up to its capacity', () => {
  const cache = new RecentEpisodes<number>(2);
  cache.set('a', 1);
  cache.set('b', 2);
  assert.equal(cache.get('a'), 1);
  cache.set('c', 3);
  assert.deepEqual([cache.get('a'), cache.get('b'), cache.get('c')], [1, undefined, 3]);
  cache.clear();
  assert.equal(cache.get('c'), undefined);
});
