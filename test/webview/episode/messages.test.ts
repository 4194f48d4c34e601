import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MessageView, MessageWindow } from '../../../src/protocol/episodePanel';
import { Finder, maxFindWindows } from '../../../webview/src/episode/finder';
import { MessageSource } from '../../../webview/src/episode/messageSource';
import { windowSize } from '../../../webview/src/episode/windows';

function message(seq: number, content = `message ${String(seq)}`): MessageView {
  return {
    seq,
    agent: 'a',
    turn: null,
    role: null,
    channel: null,
    tokenCount: null,
    content,
    contentChars: content.length,
    truncated: false,
    tokens: null,
  };
}

/** A fake host whose window requests stay pending until the test settles them. */
function fakeHost() {
  const pending: { offset: number; limit: number; resolve: (w: MessageWindow) => void; reject: (e: Error) => void }[] =
    [];
  const fetch = (offset: number, limit: number) =>
    new Promise<MessageWindow>((resolve, reject) => pending.push({ offset, limit, resolve, reject }));
  const answer = async (index = 0) => {
    const [call] = pending.splice(index, 1);
    assert.ok(call, 'a pending request');
    call.resolve({
      offset: call.offset,
      messages: Array.from({ length: call.limit }, (_, i) => message(call.offset + i)),
    });
    await new Promise((r) => setImmediate(r));
  };
  return { pending, fetch, answer };
}

describe('MessageSource', () => {
  test('fetches the windows of the rows asked for, once, and serves them by seq', async () => {
    const host = fakeHost();
    let changes = 0;
    const source = new MessageSource(1000, host.fetch, () => changes++);
    source.ensure(0, windowSize + 5);
    source.ensure(0, windowSize + 5);
    assert.deepEqual(
      host.pending.map((p) => [p.offset, p.limit]),
      [
        [0, windowSize],
        [windowSize, windowSize],
      ],
    );
    assert.equal(source.message(3), undefined);
    await host.answer();
    assert.equal(source.message(3)?.content, 'message 3');
    assert.equal(changes, 1);
  });

  test('asks at most four windows at a time and forgets windows scrolled past', async () => {
    const host = fakeHost();
    const source = new MessageSource(100_000, host.fetch, () => undefined);
    source.ensure(0, 10 * windowSize);
    assert.equal(host.pending.length, 4);
    source.ensure(300 * windowSize, 300 * windowSize + 10);
    await host.answer();
    assert.deepEqual(
      host.pending.map((p) => p.offset / windowSize),
      [1, 2, 3, 300],
    );
  });

  test('reports a failed window and does not ask again right away', async () => {
    const host = fakeHost();
    const source = new MessageSource(100, host.fetch, () => undefined);
    source.ensure(0, 10);
    host.pending.splice(0, 1)[0]?.reject(new Error('trace unreadable'));
    await new Promise((r) => setImmediate(r));
    assert.equal(source.error(4), 'trace unreadable');
    source.ensure(0, 10);
    assert.equal(host.pending.length, 0);
  });

  test('a disposed source ignores late answers', async () => {
    const host = fakeHost();
    let changes = 0;
    const source = new MessageSource(100, host.fetch, () => changes++);
    source.ensure(0, 10);
    source.dispose();
    await host.answer();
    assert.equal(changes, 0);
    assert.equal(source.message(1), undefined);
  });
});

describe('Finder', () => {
  const count = 60 * windowSize;
  const loads: number[] = [];
  const rows = (index: number) => {
    loads.push(index);
    return Promise.resolve(
      Array.from({ length: windowSize }, (_, i) =>
        message(index * windowSize + i, index * windowSize + i === 55 * windowSize ? 'the needle' : 'hay'),
      ),
    );
  };

  test('finds the next match, going on from where a bounded search stopped', async () => {
    const finder = new Finder();
    const status: string[] = [];
    const revealed: number[] = [];
    const host = {
      count,
      fromSeq: 10,
      load: rows,
      reveal: (seq: number) => revealed.push(seq),
      status: (s: string) => status.push(s),
    };
    loads.length = 0;
    await finder.find('NEEDLE', 'forward', host);
    assert.equal(loads.length, maxFindWindows);
    assert.deepEqual(revealed, []);
    assert.match(status.at(-1) ?? '', /Enter searches on/);
    await finder.find('needle', 'forward', host);
    await finder.find('needle', 'forward', host);
    assert.deepEqual(revealed, [55 * windowSize]);
    assert.match(status.at(-1) ?? '', /Match in message #11,000/);
  });

  test('says so when no message matches, and clears on empty text', async () => {
    const finder = new Finder();
    const status: string[] = [];
    const small = {
      count: 2 * windowSize,
      fromSeq: 0,
      load: rows,
      reveal: () => undefined,
      status: (s: string) => status.push(s),
    };
    await finder.find('absent', 'backward', small);
    assert.equal(status.at(-1), 'No message contains this text');
    await finder.find('  ', 'forward', small);
    assert.equal(status.at(-1), '');
  });
});
