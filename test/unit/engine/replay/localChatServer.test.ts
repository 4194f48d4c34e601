import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { faultsInOrder } from '../../../../src/engine/evaluators/replay/localChatFaults';
import { tokensOf } from '../../../../src/engine/evaluators/replay/localChatProtocol';
import { startLocalChatServer } from '../../../../src/engine/evaluators/replay/localChatServer';
import { eventually, withServer } from './replayTestKit';

const timeout = { timeout: 10_000 };
const body = (extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ model: 'm1', messages: [{ role: 'user', content: 'Add 2 and 40.' }], ...extra });
/** The body as parsed JSON (`JSON.parse` types it loosely, as these checks want). */
const json = async (response: Response) => JSON.parse(await response.text());
const post = (url: string, text: string): Promise<Response> =>
  fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });

test('the local server answers a JSON chat completion with usage counted in its tokens', timeout, () =>
  withServer({}, async (server) => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await post(server.url, body({ temperature: 0, seed: 3 }));
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /application\/json/);
    const reply = await json(response);
    assert.equal(reply.object, 'chat.completion');
    assert.equal(reply.model, 'm1');
    assert.deepEqual(reply.choices, [
      { index: 0, message: { role: 'assistant', content: 'The answer is 42.' }, finish_reason: 'stop' },
    ]);
    assert.deepEqual(reply.usage, { prompt_tokens: 4, completion_tokens: 4, total_tokens: 8 });
    assert.equal(server.requests.length, 1);
    assert.deepEqual(server.requests[0]?.body, JSON.parse(body({ temperature: 0, seed: 3 })));
  }),
);

test('the local server streams server-sent events: role, small content chunks, finish, usage, [DONE]', timeout, () =>
  withServer({ chunkChars: 5 }, async (server) => {
    const response = await post(server.url, body({ stream: true, stream_options: { include_usage: true } }));
    assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
    const events = (await response.text()).split('\n\n').filter((e) => e !== '');
    assert.ok(events.every((e) => e.startsWith('data: ')));
    assert.equal(events.at(-1), 'data: [DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice(6)));
    assert.ok(chunks.every((c) => c.object === 'chat.completion.chunk'));
    assert.deepEqual(chunks[0].choices[0].delta, { role: 'assistant', content: '' });
    const contents = chunks.slice(1, -2).map((c) => c.choices[0].delta.content);
    assert.deepEqual(contents, ['The a', 'nswer', ' is 4', '2.']);
    assert.equal(chunks.at(-2).choices[0].finish_reason, 'stop');
    assert.deepEqual(chunks.at(-1), {
      id: chunks[0].id,
      object: 'chat.completion.chunk',
      created: 0,
      model: 'm1',
      choices: [],
      usage: { prompt_tokens: 4, completion_tokens: 4, total_tokens: 8 },
    });
  }),
);

test('the local server streams no usage chunk unless asked, and cuts at max_tokens with finish "length"', timeout, () =>
  withServer({ reply: () => 'one two three four five' }, async (server) => {
    const streamed = await (await post(server.url, body({ stream: true }))).text();
    assert.ok(!streamed.includes('"usage"'));
    const reply = await json(await post(server.url, body({ max_tokens: 2 })));
    assert.equal(reply.choices[0].message.content, 'one two');
    assert.equal(reply.choices[0].finish_reason, 'length');
    assert.equal(reply.usage.completion_tokens, 2);
    assert.deepEqual(tokensOf(' a  bc\nd '), [' a', '  bc', '\nd']);
  }),
);

test(
  'the local server lists its models, reports health, and answers unknown paths and methods in the OpenAI error shape',
  timeout,
  () =>
    withServer({ models: ['solver-7b', 'judge'] }, async (server) => {
      const models = await json(await fetch(`${server.url}/models`));
      assert.deepEqual(
        models.data.map((m: { id: string }) => m.id),
        ['solver-7b', 'judge'],
      );
      assert.equal((await fetch(server.url.replace('/v1', '/health'))).status, 200);
      const missing = await fetch(`${server.url}/completions`, { method: 'POST', body: '{}' });
      assert.equal(missing.status, 404);
      assert.equal((await json(missing)).error.type, 'invalid_request_error');
      assert.equal((await fetch(`${server.url}/chat/completions`)).status, 405);
    }),
);

test('the local server answers bad request bodies with 400 and a message', timeout, () =>
  withServer({}, async (server) => {
    const cases: [string, RegExp][] = [
      ['{"messages": [', /not valid JSON/],
      ['[1]', /must be a JSON object/],
      ['{"model": "m"}', /"messages" must be a non-empty array/],
      ['{"messages": [{"role": "robot", "content": "x"}]}', /"role"/],
      [body({ max_tokens: -1 }), /max_tokens/],
    ];
    for (const [text, message] of cases) {
      const response = await post(server.url, text);
      assert.equal(response.status, 400, text);
      assert.match((await json(response)).error.message, message);
    }
    assert.equal(server.requests.length, 0, 'bad bodies are not logged as chat requests');
  }),
);

test('the local server injects faults in order: status with Retry-After, malformed, cut streams', timeout, () =>
  withServer(
    {
      fault: faultsInOrder(
        { kind: 'status', status: 429, retryAfter: '1' },
        { kind: 'status', status: 500, body: 'plain text failure' },
        { kind: 'malformed' },
        { kind: 'end', afterChunks: 2 },
        { kind: 'stop', afterChunks: 1 },
        { kind: 'no-usage' },
      ),
    },
    async (server) => {
      const limited = await post(server.url, body());
      assert.equal(limited.status, 429);
      assert.equal(limited.headers.get('retry-after'), '1');
      assert.match((await json(limited)).error.message, /injected HTTP 429/);
      const failed = await post(server.url, body());
      assert.equal(failed.status, 500);
      assert.equal(await failed.text(), 'plain text failure');
      await assert.rejects(post(server.url, body()).then(json), SyntaxError);
      const ended = await (await post(server.url, body({ stream: true }))).text();
      assert.equal(ended.split('\n\n').filter(Boolean).length, 2, 'two chunks, then the end without [DONE]');
      assert.ok(!ended.includes('[DONE]'));
      await assert.rejects(
        post(server.url, body({ stream: true })).then((r) => r.text()),
        /terminated/,
      );
      assert.equal((await json(await post(server.url, body()))).usage, undefined);
      assert.equal((await json(await post(server.url, body()))).usage.completion_tokens, 4, 'no fault after the list');
    },
  ),
);

test('close() ends hung requests and open connections, so nothing keeps the process alive', timeout, async () => {
  const server = await startLocalChatServer({ reply: () => 'x', fault: () => ({ kind: 'hang' }) });
  const hung = post(server.url, body()).then(
    () => 'answered',
    () => 'connection closed',
  );
  await eventually(() => server.inFlight === 1);
  const idle = connect(server.port, '127.0.0.1');
  await new Promise((resolve) => idle.once('connect', resolve));
  const idleClosed = new Promise((resolve) => idle.once('close', resolve));
  const started = performance.now();
  await server.close();
  assert.equal(await hung, 'connection closed');
  await idleClosed;
  assert.ok(performance.now() - started < 1000, 'close() does not wait for the hung request');
  assert.equal(server.abandoned, 0, 'connections the server closed are not counted as abandoned by the client');
});
