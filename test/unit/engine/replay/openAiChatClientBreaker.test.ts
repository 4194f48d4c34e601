import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChatClientError } from '../../../../src/engine/evaluators/replay/chatErrors';
import { alwaysFault } from '../../../../src/engine/evaluators/replay/localChatFaults';
import { openAiChatClient } from '../../../../src/engine/evaluators/replay/openAiChatClient';
import { adder, downUrl, settle, solverRequest, withServer } from './replayTestKit';

const timeout = { timeout: 15_000 };

test('a server that is down: retries until the breaker opens, then every request fails fast', timeout, async () => {
  const { url } = await downUrl();
  const client = openAiChatClient({
    baseUrl: url,
    retries: 4,
    backoff: { baseMs: 5, maxMs: 50 },
    breaker: { threshold: 5, coolDownMs: 60_000 },
  });
  const first = await settle(client.complete(solverRequest()));
  assert.ok(first.error instanceof ChatClientError);
  assert.equal(first.error.kind, 'down');
  assert.match(
    first.error.message,
    /^the model server at http:\/\/127\.0\.0\.1:\d+\/v1 is down: connection refused \(ECONNREFUSED\); 5 requests failed in a row \(next try in \d+\.\d s\)$/,
  );
  assert.equal(client.stats().retries, 4);
  const later = await Promise.all(Array.from({ length: 8 }, () => settle(client.complete(solverRequest()))));
  for (const outcome of later) {
    assert.match(
      String(outcome.error?.message),
      /is down: connection refused \(ECONNREFUSED\); 5 requests failed in a row/,
    );
    assert.ok(outcome.ms < 50, `failed fast: ${outcome.ms.toFixed(1)} ms`);
  }
  assert.deepEqual(
    [client.stats().calls, client.stats().failedCalls, client.stats().retries],
    [9, 9, 4],
    'no retries once open',
  );
  await client.close();
});

test('after the cool-down one probe goes through; a server that is back closes the breaker', timeout, async () => {
  const { url, port } = await downUrl();
  const client = openAiChatClient({
    baseUrl: url,
    retries: 0,
    concurrency: 4,
    breaker: { threshold: 2, coolDownMs: 300 },
  });
  for (let i = 0; i < 2; i++) await assert.rejects(client.complete(solverRequest()), /connection refused|is down/);
  await assert.rejects(
    client.complete(solverRequest()),
    /is down: connection refused \(ECONNREFUSED\); 2 requests failed in a row/,
  );
  await withServer({ port, reply: adder }, async (server) => {
    const stillOpen = await settle(client.complete(solverRequest()));
    assert.match(
      String(stillOpen.error?.message),
      /is down/,
      'fails fast during the cool-down even though the server is back',
    );
    assert.equal(server.requests.length, 0);
    await new Promise((resolve) => setTimeout(resolve, 320));
    // Four at once: one probes, three wait for it, then all go through.
    const answers = await Promise.all([[1], [2], [3], [4]].map((numbers) => client.complete(solverRequest(numbers))));
    assert.deepEqual(
      answers.map((a) => a.content),
      ['The answer is 1.', 'The answer is 2.', 'The answer is 3.', 'The answer is 4.'],
    );
    assert.equal(server.requests.length, 4);
  });
  await client.close();
});

test('a failed probe keeps the breaker open for another cool-down', timeout, async () => {
  const { url } = await downUrl();
  const client = openAiChatClient({ baseUrl: url, retries: 0, breaker: { threshold: 1, coolDownMs: 150 } });
  await assert.rejects(client.complete(solverRequest()), /is down: connection refused/);
  await new Promise((resolve) => setTimeout(resolve, 170));
  await assert.rejects(
    client.complete(solverRequest()),
    /is down: connection refused \(ECONNREFUSED\); 2 requests failed in a row/,
    'the probe failed',
  );
  const fast = await settle(client.complete(solverRequest()));
  assert.match(String(fast.error?.message), /is down/);
  assert.ok(fast.ms < 50);
  await client.close();
});

test('5xx in a row opens the breaker too; 4xx answers never do', timeout, async () => {
  await withServer(
    { fault: alwaysFault({ kind: 'status', status: 503, body: '{"error": {"message": "overloaded"}}' }) },
    async (server) => {
      const client = openAiChatClient({
        baseUrl: server.url,
        retries: 1,
        backoff: { baseMs: 5 },
        breaker: { threshold: 3, coolDownMs: 60_000 },
      });
      await assert.rejects(client.complete(solverRequest()), /failed: HTTP 503: "overloaded" \(after 1 retry\)/);
      await assert.rejects(
        client.complete(solverRequest()),
        /is down: HTTP 503: "overloaded"; 3 requests failed in a row/,
      );
      assert.equal(server.requests.length, 3);
      await client.close();
    },
  );
  await withServer({ fault: alwaysFault({ kind: 'status', status: 400 }) }, async (server) => {
    const client = openAiChatClient({ baseUrl: server.url, breaker: { threshold: 2 } });
    for (let i = 0; i < 5; i++) await assert.rejects(client.complete(solverRequest()), /failed: HTTP 400/);
    assert.equal(server.requests.length, 5);
    await client.close();
  });
});
