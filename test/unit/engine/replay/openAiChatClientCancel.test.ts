import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChatClientError } from '../../../../src/engine/evaluators/replay/chatErrors';
import { alwaysFault, faultsInOrder } from '../../../../src/engine/evaluators/replay/localChatFaults';
import { openAiChatClient } from '../../../../src/engine/evaluators/replay/openAiChatClient';
import { eventually, settle, solverRequest, withServer } from './replayTestKit';

const timeout = { timeout: 15_000 };

/** Aborts `controller` and returns how long `pending` then took to settle, and its error. */
async function abortAndTime(
  controller: AbortController,
  pending: Promise<unknown>,
): Promise<{ ms: number; error?: Error }> {
  const started = performance.now();
  controller.abort();
  const { error } = await settle(pending);
  return { ms: performance.now() - started, ...(error ? { error } : {}) };
}

function assertCancelled(error: Error | undefined, message = 'cancelled'): void {
  assert.ok(error instanceof ChatClientError, String(error));
  assert.equal(error.name, 'AbortError');
  assert.equal(error.kind, 'cancelled');
  assert.equal(error.message, message);
}

test('abort while in flight: rejects at once with "cancelled" and the server sees the connection closed', timeout, () =>
  withServer({ fault: alwaysFault({ kind: 'hang' }) }, async (server) => {
    for (const stream of [false, true]) {
      const client = openAiChatClient({ baseUrl: server.url, stream });
      const controller = new AbortController();
      const pending = client.complete(solverRequest(), controller.signal);
      await eventually(() => server.inFlight === 1);
      const { ms, error } = await abortAndTime(controller, pending);
      assertCancelled(error);
      assert.ok(ms < 100, `rejected ${ms.toFixed(1)} ms after the abort`);
      await eventually(() => server.inFlight === 0);
      assert.deepEqual([client.stats().calls, client.stats().failedCalls], [1, 0], 'a cancelled call is not a failure');
      await client.close();
    }
    assert.equal(server.abandoned, 2);
  }),
);

test('abort mid-stream: the stream is cut and the call rejects', timeout, () =>
  withServer({ fault: alwaysFault({ kind: 'stall', afterChunks: 3 }) }, async (server) => {
    const client = openAiChatClient({ baseUrl: server.url, stream: true });
    const controller = new AbortController();
    const pending = client.complete(solverRequest(), controller.signal);
    await eventually(() => server.inFlight === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { ms, error } = await abortAndTime(controller, pending);
    assertCancelled(error);
    assert.ok(ms < 100);
    await eventually(() => server.abandoned === 1);
    await client.close();
  }),
);

test('abort while queued: the waiting call leaves the queue at once and is never sent', timeout, () =>
  withServer({ fault: faultsInOrder({ kind: 'hang' }) }, async (server) => {
    const client = openAiChatClient({ baseUrl: server.url, concurrency: 1 });
    const first = new AbortController();
    const running = client.complete(solverRequest([1]), first.signal);
    await eventually(() => server.inFlight === 1);
    const queued = new AbortController();
    const waiting = client.complete(solverRequest([2]), queued.signal);
    const third = client.complete(solverRequest([3]));
    const { ms, error } = await abortAndTime(queued, waiting);
    assertCancelled(error);
    assert.ok(ms < 50, `left the queue ${ms.toFixed(1)} ms after the abort`);
    assertCancelled((await abortAndTime(first, running)).error);
    assert.equal((await third).content, 'The answer is 3.', 'the next in the queue gets the slot');
    assert.deepEqual(
      server.requests.map((r) => (r.body.messages as { content: string }[])[1]?.content),
      ['Add 1.', 'Add 3.'],
    );
    await client.close();
  }),
);

test('abort while waiting to retry ends the wait at once; an aborted signal sends nothing', timeout, () =>
  withServer({ fault: alwaysFault({ kind: 'status', status: 429, retryAfter: '20' }) }, async (server) => {
    const client = openAiChatClient({ baseUrl: server.url });
    const controller = new AbortController();
    const pending = client.complete(solverRequest(), controller.signal);
    await eventually(() => server.requests.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const { ms, error } = await abortAndTime(controller, pending);
    assertCancelled(error);
    assert.ok(ms < 50);
    const before = server.requests.length;
    assertCancelled((await settle(client.complete(solverRequest(), AbortSignal.abort()))).error);
    assert.equal(server.requests.length, before);
    await client.close();
  }),
);

test('one signal shared by many calls cancels them all, without a listener per call', timeout, () =>
  withServer({ fault: alwaysFault({ kind: 'hang' }) }, async (server) => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const client = openAiChatClient({ baseUrl: server.url, concurrency: 4 });
      const controller = new AbortController();
      const calls = Array.from({ length: 40 }, (_, i) => client.complete(solverRequest([i]), controller.signal));
      await eventually(() => server.inFlight === 4);
      controller.abort();
      for (const outcome of await Promise.all(calls.map(settle))) assertCancelled(outcome.error);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        warnings.map((w) => w.message),
        [],
      );
      await client.close();
    } finally {
      process.off('warning', onWarning);
    }
  }),
);

test(
  'close() rejects calls in flight and queued with "the chat client was closed", and every later call',
  timeout,
  () =>
    withServer({ fault: alwaysFault({ kind: 'hang' }) }, async (server) => {
      const client = openAiChatClient({ baseUrl: server.url, concurrency: 2 });
      const calls = Array.from({ length: 5 }, () => settle(client.complete(solverRequest())));
      await eventually(() => server.inFlight === 2);
      const started = performance.now();
      await client.close();
      // At once, not after the hung server: 1 s leaves room for a loaded 2-core machine (the server never answers).
      assert.ok(performance.now() - started < 1000);
      for (const outcome of await Promise.all(calls)) assertCancelled(outcome.error, 'the chat client was closed');
      assertCancelled((await settle(client.complete(solverRequest()))).error, 'the chat client was closed');
      await eventually(() => server.inFlight === 0);
      assert.equal(server.requests.length, 2);
    }),
);
