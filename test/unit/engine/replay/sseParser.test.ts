import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SseParser } from '../../../../src/engine/evaluators/replay/sseParser';

/** Feeds `chunks` one by one, then ends the stream; returns every event's data. */
function parse(chunks: readonly string[]): string[] {
  const parser = new SseParser();
  return [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()];
}

test('SseParser yields the data of each event, whatever the line endings', () => {
  assert.deepEqual(parse(['data: {"a":1}\n\ndata: [DONE]\n\n']), ['{"a":1}', '[DONE]']);
  assert.deepEqual(parse(['data: {"a":1}\r\n\r\ndata: [DONE]\r\n\r\n']), ['{"a":1}', '[DONE]']);
  assert.deepEqual(parse(['data: {"a":1}\r\rdata: [DONE]\r\r']), ['{"a":1}', '[DONE]']);
});

test('SseParser joins the data lines of one event with a newline and strips one leading space', () => {
  assert.deepEqual(parse(['data: {"a":\ndata:  1}\n\n']), ['{"a":\n 1}']);
  assert.deepEqual(parse(['data:x\ndata\n\n']), ['x\n']);
});

test('SseParser ignores comments, other fields and events without data', () => {
  assert.deepEqual(parse([': ping\n\nevent: message\nid: 3\nretry: 10\ndata: hi\n\n: keep-alive\n\n']), ['hi']);
});

test('SseParser completes events split anywhere across chunks, a CRLF split between chunks included', () => {
  const text = 'data: {"content":"ab"}\r\n\r\ndata: [DONE]\r\n\r\n';
  for (let cut = 1; cut < text.length; cut++) {
    assert.deepEqual(parse([text.slice(0, cut), text.slice(cut)]), ['{"content":"ab"}', '[DONE]'], `cut at ${cut}`);
  }
  assert.deepEqual(
    parse(Array.from({ length: text.length }, (_, i) => text.charAt(i))),
    ['{"content":"ab"}', '[DONE]'],
    'one character at a time',
  );
});

test('SseParser accepts a last event without its blank line at the end of the stream', () => {
  assert.deepEqual(parse(['data: a\n\ndata: [DONE]\n']), ['a', '[DONE]']);
  assert.deepEqual(parse(['data: a\n\ndata: [DONE]']), ['a', '[DONE]']);
  assert.deepEqual(parse(['']), []);
});
