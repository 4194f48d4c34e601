import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AttemptError } from '../../../../src/engine/evaluators/replay/chatErrors';
import {
  chatRequestBody,
  describeErrorBody,
  estimatedUsage,
  parseJsonCompletion,
} from '../../../../src/engine/evaluators/replay/chatWire';
import { solverRequest } from './replayTestKit';

/** The malformed-reply detail `parseJsonCompletion` fails with. */
function parseFailure(text: string): string {
  try {
    parseJsonCompletion(text, solverRequest());
  } catch (error) {
    assert.ok(error instanceof AttemptError);
    assert.equal(error.failure.kind, 'malformed');
    assert.equal(error.failure.retryable, false);
    return error.failure.detail;
  }
  throw new Error('expected a malformed-reply failure');
}

test('chatRequestBody sends the OpenAI field names, name only when set, and usage in streams', () => {
  const request = { ...solverRequest([1, 2], { temperature: 0.7, topP: 0.9, maxTokens: 64, seed: 3 }) };
  assert.deepEqual(chatRequestBody(request, true), {
    model: 'credit-lens-demo',
    messages: [
      { role: 'system', content: 'You are the solver. Add the numbers the planner gives.' },
      { role: 'user', content: 'Add 1 and 2.', name: 'planner' },
    ],
    temperature: 0.7,
    top_p: 0.9,
    max_tokens: 64,
    seed: 3,
    stream: true,
    stream_options: { include_usage: true },
  });
  const plain = chatRequestBody(solverRequest([1], {}), false);
  assert.deepEqual(
    Object.keys(plain),
    ['model', 'messages', 'stream'],
    'unset sampling parameters are left to the server',
  );
});

test('parseJsonCompletion reads content, finish reason and usage', () => {
  const reply = {
    choices: [{ index: 0, message: { role: 'assistant', content: 'The answer is 5.' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 12, completion_tokens: 4 },
  };
  assert.deepEqual(parseJsonCompletion(JSON.stringify(reply), solverRequest()), {
    content: 'The answer is 5.',
    finishReason: 'stop',
    usage: { promptTokens: 12, completionTokens: 4, estimated: false },
  });
});

test('parseJsonCompletion estimates tokens at four characters each when usage is missing or broken', () => {
  const request = solverRequest();
  const chars = request.messages.reduce((sum, m) => sum + m.content.length, 0);
  for (const usage of [undefined, null, { prompt_tokens: 'x', completion_tokens: 1 }]) {
    const reply = { choices: [{ message: { content: '12345678' } }], ...(usage === undefined ? {} : { usage }) };
    const completion = parseJsonCompletion(JSON.stringify(reply), request);
    assert.deepEqual(completion.usage, { promptTokens: Math.ceil(chars / 4), completionTokens: 2, estimated: true });
    assert.equal(completion.finishReason, undefined);
  }
  assert.deepEqual(estimatedUsage(request, ''), {
    promptTokens: Math.ceil(chars / 4),
    completionTokens: 0,
    estimated: true,
  });
});

test('parseJsonCompletion takes a null content (a tool call) as empty text', () => {
  assert.equal(
    parseJsonCompletion('{"choices":[{"message":{"content":null},"finish_reason":"tool_calls"}]}', solverRequest())
      .content,
    '',
  );
});

test('parseJsonCompletion fails clearly on replies that are not a completion, quoting at most 200 characters', () => {
  assert.match(parseFailure('<html>Bad gateway</html>'), /^the reply is not valid JSON: "<html>Bad gateway<\/html>"$/);
  assert.match(parseFailure('{"choices": [{"message": {"content": "cut'), /not valid JSON/);
  assert.match(parseFailure('[1, 2]'), /not a JSON object/);
  assert.match(parseFailure('{"choices": []}'), /no choices\[0\]\.message/);
  assert.match(parseFailure('{"choices": [{"message": {"content": 7}}]}'), /content is not a string/);
  assert.match(parseFailure('{"error": {"message": "model not loaded"}}'), /the reply is an error: "model not loaded"/);
  const long = parseFailure(`not json ${'x'.repeat(500)}`);
  assert.ok(long.length < 260, `quoted text is cut (${long.length} chars)`);
  assert.ok(long.endsWith('…'));
});

test('describeErrorBody reads OpenAI, vLLM/FastAPI, Ollama and plain-text error bodies', () => {
  assert.equal(
    describeErrorBody(
      '{"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}}',
    ),
    '"Rate limit reached" (type requests, code rate_limit_exceeded)',
  );
  assert.equal(
    describeErrorBody(
      '{"object": "error", "message": "The model `x` does not exist.", "type": "NotFoundError", "code": 404}',
    ),
    '"The model `x` does not exist."',
  );
  assert.equal(describeErrorBody('{"detail": "Not Found"}'), '"Not Found"');
  assert.equal(
    describeErrorBody('{"detail": [{"loc": ["body", "messages"], "msg": "field required"}]}'),
    JSON.stringify(JSON.stringify([{ loc: ['body', 'messages'], msg: 'field required' }])),
  );
  assert.equal(
    describeErrorBody('{"error": "model \\"llama3\\" not found, try pulling it first"}'),
    '"model \\"llama3\\" not found, try pulling it first"',
  );
  assert.equal(describeErrorBody('upstream connect error\n'), '"upstream connect error"');
  assert.equal(describeErrorBody(''), '(empty body)');
  assert.equal(describeErrorBody('x'.repeat(300)), `"${'x'.repeat(200)}"…`);
});
