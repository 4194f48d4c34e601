import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inspect } from 'node:util';
import { faultsInOrder } from '../../../../src/engine/evaluators/replay/localChatFaults';
import { openAiChatClient } from '../../../../src/engine/evaluators/replay/openAiChatClient';
import { downUrl, settle, solverRequest, withServer } from './replayTestKit';

const timeout = { timeout: 15_000 };

for (const stream of [false, true]) {
  const mode = stream ? 'SSE' : 'JSON';

  test(`${mode} round trip: the deterministic agent's answer, the finish reason and the server's usage`, timeout, () =>
    withServer({}, async (server) => {
      const client = openAiChatClient({ baseUrl: server.url, stream });
      try {
        const answers = await Promise.all(
          [
            [2, 3],
            [10, -4, 1],
            [40, 2],
          ].map((numbers) => client.complete(solverRequest(numbers))),
        );
        assert.deepEqual(
          answers.map((a) => a.content),
          ['The answer is 5.', 'The answer is 7.', 'The answer is 42.'],
        );
        assert.ok(answers.every((a) => a.finishReason === 'stop'));
        // The server counts words: 10 in the system prompt, 4 or 6 in the planner's; 4 in each answer.
        assert.deepEqual(answers[0]?.usage, { promptTokens: 14, completionTokens: 4, estimated: false });
        assert.deepEqual(answers[1]?.usage, { promptTokens: 16, completionTokens: 4, estimated: false });
        const stats = client.stats();
        assert.deepEqual(
          { ...stats, elapsedMs: 0 },
          { calls: 3, failedCalls: 0, retries: 0, promptTokens: 44, completionTokens: 12, elapsedMs: 0 },
        );
        assert.ok(stats.elapsedMs > 0);
        const wire = server.requests[0]?.body;
        assert.equal(wire?.stream, stream);
        assert.deepEqual(wire?.stream_options, stream ? { include_usage: true } : undefined);
        assert.equal(wire?.temperature, 0);
        assert.equal(wire?.seed, 7);
        assert.deepEqual((wire?.messages as unknown[])[1], { role: 'user', content: 'Add 2 and 3.', name: 'planner' });
      } finally {
        await client.close();
      }
    }),
  );

  test(`${mode}: a server that reports no usage gives estimated token counts`, timeout, () =>
    withServer({ fault: () => ({ kind: 'no-usage' }) }, async (server) => {
      const client = openAiChatClient({ baseUrl: server.url, stream });
      const answer = await client.complete(solverRequest([2, 3]));
      assert.equal(answer.content, 'The answer is 5.');
      // (54 + 12) characters of prompt, 16 of answer, at four characters a token.
      assert.deepEqual(answer.usage, { promptTokens: 17, completionTokens: 4, estimated: true });
      await client.close();
    }),
  );

  test(`${mode}: max_tokens is sent and a cut answer says finish "length"`, timeout, () =>
    withServer({}, async (server) => {
      const client = openAiChatClient({ baseUrl: server.url, stream });
      const answer = await client.complete(solverRequest([1, 1], { maxTokens: 2 }));
      assert.deepEqual(
        [answer.content, answer.finishReason, answer.usage.completionTokens],
        ['The answer', 'length', 2],
      );
      await client.close();
    }),
  );
}

test(
  'the reply decides its own shape: a JSON answer to a streaming request is read, and the other way round',
  timeout,
  async () => {
    const replies = [
      { type: 'application/json', body: '{"choices":[{"message":{"content":"json"},"finish_reason":"stop"}]}' },
      { type: 'text/event-stream', body: 'data: {"choices":[{"delta":{"content":"sse"}}]}\n\ndata: [DONE]\n\n' },
    ];
    for (const [index, reply] of replies.entries()) {
      const fetchStub = (() =>
        Promise.resolve(new Response(reply.body, { headers: { 'content-type': reply.type } }))) as typeof fetch;
      const client = openAiChatClient({ baseUrl: 'http://127.0.0.1:9/v1', stream: index === 0, fetch: fetchStub });
      assert.equal((await client.complete(solverRequest())).content, index === 0 ? 'json' : 'sse');
    }
  },
);

test('no more than `concurrency` requests are in flight', timeout, () =>
  withServer({ fault: () => ({ kind: 'delay', ms: 40 }) }, async (server) => {
    const client = openAiChatClient({ baseUrl: server.url, concurrency: 3 });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => client.complete(solverRequest([i]))));
    assert.deepEqual(
      answers.map((a) => a.content),
      Array.from({ length: 12 }, (_, i) => `The answer is ${i}.`),
    );
    assert.equal(server.maxInFlight, 3);
    await client.close();
  }),
);

test('queued requests are sent first come, first served', timeout, () =>
  withServer({ fault: () => ({ kind: 'delay', ms: 5 }) }, async (server) => {
    const client = openAiChatClient({ baseUrl: server.url, concurrency: 1 });
    await Promise.all(Array.from({ length: 8 }, (_, i) => client.complete(solverRequest([i]))));
    const arrival = server.requests.map((r) => (r.body.messages as { content: string }[])[1]?.content);
    assert.deepEqual(
      arrival,
      Array.from({ length: 8 }, (_, i) => `Add ${i}.`),
    );
    assert.equal(server.maxInFlight, 1);
    await client.close();
  }),
);

test(
  'the API key goes in the Authorization header and nowhere else: not in errors, stacks, inspect output or stats',
  timeout,
  async () => {
    const key = 'sk-test-0123456789abcdef';
    const headerSecret = 'azure-secret-value-42';
    await withServer(
      // A misbehaving proxy that echoes the credentials in its error body.
      {
        fault: faultsInOrder(undefined, {
          kind: 'status',
          status: 401,
          body: `{"error": {"message": "Incorrect API key provided: ${key} / ${headerSecret}"}}`,
        }),
      },
      async (server) => {
        const client = openAiChatClient({
          baseUrl: server.url,
          apiKey: key,
          extraHeaders: { 'api-key': headerSecret },
          retries: 0,
        });
        await client.complete(solverRequest());
        assert.equal(server.requests[0]?.headers.authorization, `Bearer ${key}`);
        assert.equal(server.requests[0]?.headers['api-key'], headerSecret);
        const error = await client.complete(solverRequest()).then(
          () => assert.fail('expected a 401'),
          (e: unknown) => e as Error,
        );
        assert.match(error.message, /HTTP 401: "Incorrect API key provided: \*\*\* \/ \*\*\*"/);
        for (const text of [
          error.message,
          String(error.stack),
          inspect(error, { depth: 5 }),
          JSON.stringify(error),
          JSON.stringify(client.stats()),
          inspect(client.stats()),
        ]) {
          assert.ok(!text.includes(key) && !text.includes(headerSecret), `no secret in: ${text.slice(0, 200)}`);
        }
        await client.close();
      },
    );
    const { url } = await downUrl();
    const down = openAiChatClient({ baseUrl: url, apiKey: key, retries: 0 });
    const error = await down.complete(solverRequest()).then(
      () => assert.fail('expected connection refused'),
      (e: unknown) => e as Error,
    );
    assert.match(error.message, /connection refused \(ECONNREFUSED\)/);
    assert.ok(!inspect(error, { depth: 5 }).includes(key));
  },
);

test('options are checked when the client is made', () => {
  assert.throws(() => openAiChatClient({ baseUrl: 'ftp://h/v1' }), /http:\/\/ or https:\/\//);
  assert.throws(
    () => openAiChatClient({ baseUrl: 'http://h/v1', concurrency: 0 }),
    /concurrency must be a positive integer/,
  );
  assert.throws(
    () => openAiChatClient({ baseUrl: 'http://h/v1', timeoutMs: 0 }),
    /timeoutMs must be a positive number/,
  );
});

/** A fetch answering every request with an event stream of `events` that stays open until aborted. */
function openStream(events: string): typeof fetch {
  return ((_url: string, init: RequestInit) => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(events));
        init.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
      },
    });
    return Promise.resolve(new Response(body, { headers: { 'content-type': 'text/event-stream' } }));
  }) as typeof fetch;
}

test(
  'a stream that sends [DONE] but never ends is complete: the client stops waiting after a short drain',
  timeout,
  async () => {
    const events =
      'data: {"choices":[{"delta":{"content":"The answer is 5."},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
    const client = openAiChatClient({ baseUrl: 'http://127.0.0.1:9/v1', stream: true, fetch: openStream(events) });
    const { value, ms } = await settle(client.complete(solverRequest()));
    assert.equal(value?.content, 'The answer is 5.');
    assert.ok(ms < 2500, `returned after ${ms.toFixed(0)} ms`);
  },
);

test(
  "an error event inside a stream fails the request (OpenAI's and vLLM's shapes), not a partial answer",
  timeout,
  async () => {
    const start = 'data: {"choices":[{"delta":{"content":"The ans"}}]}\n\n';
    const shapes = [
      '{"error": {"message": "engine dead", "type": "server_error"}}',
      '{"object": "error", "message": "engine dead", "type": "InternalServerError", "code": 500}',
    ];
    for (const shape of shapes) {
      const client = openAiChatClient({
        baseUrl: 'http://127.0.0.1:9/v1',
        stream: true,
        fetch: openStream(`${start}data: ${shape}\n\ndata: [DONE]\n\n`),
      });
      await assert.rejects(client.complete(solverRequest()), /failed: the stream carried an error: "engine dead"/);
    }
  },
);
