import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChatClientError } from '../../../../src/engine/evaluators/replay/chatErrors';
import { alwaysFault, faultsInOrder, type ChatFault } from '../../../../src/engine/evaluators/replay/localChatFaults';
import {
  openAiChatClient,
  type OpenAiChatClientOptions,
} from '../../../../src/engine/evaluators/replay/openAiChatClient';
import { eventually, settle, solverRequest, withServer } from './replayTestKit';

const timeout = { timeout: 15_000 };
/** Fast retries, so the tests measure the rules and not the waits. */
const quick: Partial<OpenAiChatClientOptions> = {
  backoff: { baseMs: 10, maxMs: 2000 },
  breaker: { threshold: 100, coolDownMs: 1000 },
};

/** Sends one solver request to a server with `faults`; returns how it settled, the stats and the server's request count. */
async function oneRequest(
  faults: ChatFault | readonly (ChatFault | undefined)[],
  options: Partial<OpenAiChatClientOptions> = {},
) {
  const fault = Array.isArray(faults)
    ? faultsInOrder(...(faults as (ChatFault | undefined)[]))
    : alwaysFault(faults as ChatFault);
  return withServer({ fault }, async (server) => {
    const client = openAiChatClient({ baseUrl: server.url, ...quick, ...options });
    const outcome = await settle(client.complete(solverRequest([20, 22])));
    await client.close();
    return { ...outcome, stats: client.stats(), received: server.requests.length, server };
  });
}

test(
  'a server that never answers: the request fails at its timeout, no later, and is not retried',
  timeout,
  async () => {
    for (const stream of [false, true]) {
      const { ms, error, received, stats } = await oneRequest({ kind: 'hang' }, { timeoutMs: 300, stream });
      assert.ok(error instanceof ChatClientError);
      assert.equal(error.kind, 'timeout');
      assert.match(
        error.message,
        /^the request to the model server at http:\/\/127\.0\.0\.1:\d+\/v1 failed: no complete answer within 300 ms$/,
      );
      assert.ok(ms >= 290 && ms < 1000, `failed after ${ms.toFixed(0)} ms`);
      assert.equal(received, 1);
      assert.deepEqual([stats.calls, stats.failedCalls, stats.retries], [1, 1, 0]);
    }
  },
);

test('a JSON body that stops half-way is cut at the timeout', timeout, async () => {
  const { ms, error } = await oneRequest({ kind: 'stall', afterChunks: 0 }, { timeoutMs: 300 });
  assert.match(String(error?.message), /no complete answer within 300 ms/);
  assert.ok(ms < 1000, `failed after ${ms.toFixed(0)} ms`);
});

test('a stream that goes quiet fails at the idle timeout, before the overall one', timeout, async () => {
  const { ms, error } = await oneRequest(
    { kind: 'stall', afterChunks: 3 },
    { stream: true, timeoutMs: 5000, idleTimeoutMs: 200 },
  );
  assert.ok(error instanceof ChatClientError);
  assert.equal(error.kind, 'idle');
  assert.match(error.message, /failed: no data for 200 ms while streaming \(after 3 chunks\)$/);
  assert.ok(ms >= 190 && ms < 1500, `failed after ${ms.toFixed(0)} ms`);
});

test('429 with Retry-After: the client waits as asked, retries once and succeeds', timeout, async () => {
  const { value, ms, stats, received } = await oneRequest([{ kind: 'status', status: 429, retryAfter: '0.3' }]);
  assert.equal(value?.content, 'The answer is 42.');
  assert.ok(ms >= 290, `waited ${ms.toFixed(0)} ms for Retry-After: 0.3`);
  assert.equal(received, 2);
  assert.deepEqual([stats.calls, stats.failedCalls, stats.retries], [1, 0, 1]);
});

test('a Retry-After longer than backoff.maxMs is capped', timeout, async () => {
  const { value, ms } = await oneRequest([{ kind: 'status', status: 503, retryAfter: '3600' }], {
    backoff: { baseMs: 10, maxMs: 200 },
  });
  assert.equal(value?.content, 'The answer is 42.');
  assert.ok(ms < 1500, `waited ${ms.toFixed(0)} ms, not an hour`);
});

test('500 twice, then success: two retries', timeout, async () => {
  for (const stream of [false, true]) {
    const { value, stats, received } = await oneRequest(
      [
        { kind: 'status', status: 500 },
        { kind: 'status', status: 502 },
      ],
      { stream },
    );
    assert.equal(value?.content, 'The answer is 42.');
    assert.equal(received, 3);
    assert.deepEqual([stats.calls, stats.failedCalls, stats.retries, stats.completionTokens], [1, 0, 2, 4]);
  }
});

test('500 forever: the error comes after the retries and quotes the server error body', timeout, async () => {
  const body = '{"error": {"message": "CUDA out of memory", "type": "server_error", "code": "oom"}}';
  const { error, received, stats } = await oneRequest({ kind: 'status', status: 500, body }, { retries: 3 });
  assert.ok(error instanceof ChatClientError);
  assert.deepEqual([error.kind, error.status], ['http', 500]);
  assert.match(
    error.message,
    /failed: HTTP 500: "CUDA out of memory" \(type server_error, code oom\) \(after 3 retries\)$/,
  );
  assert.equal(received, 4);
  assert.deepEqual([stats.failedCalls, stats.retries], [1, 3]);
});

test('error bodies in other shapes are quoted: vLLM/FastAPI detail, Ollama, plain text', timeout, async () => {
  const cases: [number, string, RegExp][] = [
    [400, '{"detail": "max_tokens must be at least 1"}', /HTTP 400: "max_tokens must be at least 1"$/],
    [
      404,
      '{"error": "model \\"qwen\\" not found, try pulling it first"}',
      /HTTP 404: "model \\"qwen\\" not found, try pulling it first"$/,
    ],
    [
      503,
      '<html><body>upstream unavailable</body></html>',
      /HTTP 503: "<html><body>upstream unavailable<\/body><\/html>" \(after 1 retry\)$/,
    ],
  ];
  for (const [status, body, message] of cases) {
    const { error, received } = await oneRequest({ kind: 'status', status, body }, { retries: 1 });
    assert.match(String(error?.message), message);
    assert.equal(received, status === 503 ? 2 : 1, '4xx other than 429 is not retried');
  }
});

test('malformed JSON fails at once with a clear error quoting the body', timeout, async () => {
  const { error, received } = await oneRequest({ kind: 'malformed', body: '{"choices": [{"message": ' });
  assert.ok(error instanceof ChatClientError);
  assert.equal(error.kind, 'malformed');
  assert.match(error.message, /failed: the reply is not valid JSON: "\{\\"choices\\": \[\{\\"message\\":"$/);
  assert.equal(received, 1, 'not retried: the same server would say the same');
  const streamed = await oneRequest({ kind: 'malformed' }, { stream: true });
  assert.match(
    String(streamed.error?.message),
    /failed: stream chunk 2 is not valid JSON: "\{\\"choices\\": \[\{\\"delta\\":"$/,
  );
});

test(
  'a stream that stops mid-way: retried, and reported with the chunk count when it keeps stopping',
  timeout,
  async () => {
    const recovered = await oneRequest([{ kind: 'stop', afterChunks: 3 }], { stream: true });
    assert.equal(recovered.value?.content, 'The answer is 42.');
    assert.equal(recovered.stats.retries, 1);
    const { error, received } = await oneRequest({ kind: 'stop', afterChunks: 3 }, { stream: true, retries: 2 });
    assert.ok(error instanceof ChatClientError);
    assert.equal(error.kind, 'stream-stopped');
    assert.match(
      error.message,
      /failed: the stream stopped after 3 chunks \(the server closed the connection \(UND_ERR_SOCKET\)\) \(after 2 retries\)$/,
    );
    assert.equal(received, 3);
  },
);

test('a stream that ends cleanly but without [DONE] is an error too', timeout, async () => {
  const { error } = await oneRequest({ kind: 'end', afterChunks: 2 }, { stream: true, retries: 0 });
  assert.match(String(error?.message), /failed: the stream stopped after 2 chunks without \[DONE\]$/);
});

test('a JSON body cut by a closed connection is a network failure, retried', timeout, async () => {
  const { value, stats } = await oneRequest([{ kind: 'stop', afterChunks: 0 }]);
  assert.equal(value?.content, 'The answer is 42.');
  assert.equal(stats.retries, 1);
});

test('every fault ends with the server seeing no request left open', timeout, () =>
  withServer({ fault: faultsInOrder({ kind: 'hang' }, { kind: 'stall', afterChunks: 2 }) }, async (server) => {
    const client = openAiChatClient({
      baseUrl: server.url,
      timeoutMs: 200,
      idleTimeoutMs: 100,
      stream: true,
      retries: 0,
    });
    await assert.rejects(client.complete(solverRequest()), /no complete answer within 200 ms/);
    await assert.rejects(client.complete(solverRequest()), /no data for 100 ms while streaming \(after 2 chunks\)/);
    await eventually(() => server.inFlight === 0);
    assert.equal(server.abandoned, 2, 'the client closed both connections when it gave up');
    await client.close();
  }),
);
