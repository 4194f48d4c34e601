import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readJsonlLines, type JsonlLine } from '../../../src/ingest/jsonlReader';
import { tempFolder } from '../../builders/episodeBuilder';

function readAll(
  content: string | Buffer,
  from = { offset: 0, line: 0 },
): { lines: JsonlLine[]; end: { offset: number; line: number } } {
  const path = join(tempFolder(), 'f.jsonl');
  writeFileSync(path, content);
  const lines: JsonlLine[] = [];
  const end = readJsonlLines(path, from, (line) => {
    lines.push(line);
  });
  return { lines, end };
}

test('readJsonlLines(path) yields complete lines with 1-based numbers and byte offsets', () => {
  const { lines, end } = readAll('{"a":1}\n{"b":22}\n');
  assert.deepEqual(
    lines.map((l) => [l.line, l.offset, l.length, l.text]),
    [
      [1, 0, 7, '{"a":1}'],
      [2, 8, 8, '{"b":22}'],
    ],
  );
  assert.deepEqual(end, { offset: 17, line: 2 });
});

test('readJsonlLines(path) leaves a partial last line for the next read', () => {
  const { lines, end } = readAll('{"a":1}\n{"b":');
  assert.equal(lines.length, 1);
  assert.deepEqual(end, { offset: 8, line: 1 });
});

test('readJsonlLines(path, from) resumes at a stored offset and line number', () => {
  const { lines } = readAll('{"a":1}\n{"b":2}\n{"c":3}\n', { offset: 8, line: 1 });
  assert.deepEqual(
    lines.map((l) => [l.line, l.text]),
    [
      [2, '{"b":2}'],
      [3, '{"c":3}'],
    ],
  );
});

test('readJsonlLines(path) strips CR from CRLF lines but counts its byte', () => {
  const { lines, end } = readAll('{"a":1}\r\n{"b":2}\r\n');
  assert.deepEqual(
    lines.map((l) => l.text),
    ['{"a":1}', '{"b":2}'],
  );
  assert.equal(lines[1]?.offset, 9);
  assert.equal(end.offset, 18);
});

test('readJsonlLines(path) decodes multi-byte UTF-8 split across the 1 MiB chunk boundary', () => {
  const filler = 'x'.repeat((1 << 20) - 3);
  const content = `${filler}é漢字😀\n{"after":true}\n`;
  const { lines } = readAll(content);
  assert.equal(lines.length, 2);
  assert.ok(lines[0]?.text.endsWith('é漢字😀'));
  assert.equal(lines[0]?.length, Buffer.byteLength(`${filler}é漢字😀`));
  assert.equal(lines[1]?.offset, Buffer.byteLength(`${filler}é漢字😀\n`));
});

test('readJsonlLines(path) reads a 3 MB line whole', () => {
  const big = JSON.stringify({ content: 'y'.repeat(3_000_000) });
  const { lines } = readAll(`{"small":1}\n${big}\n{"small":2}\n`);
  assert.deepEqual(
    lines.map((l) => l.length),
    [11, big.length, 11],
  );
  assert.equal(lines[1]?.text, big);
});

test('readJsonlLines(path) yields nothing for an empty file', () => {
  const { lines, end } = readAll('');
  assert.equal(lines.length, 0);
  assert.deepEqual(end, { offset: 0, line: 0 });
});

test('readJsonlLines(path) stops before the line whose callback returns false', () => {
  const path = join(tempFolder(), 'f.jsonl');
  writeFileSync(path, '1\n2\n3\n');
  const seen: string[] = [];
  const end = readJsonlLines(path, { offset: 0, line: 0 }, (line) => {
    if (line.line === 2) return false;
    seen.push(line.text);
    return true;
  });
  assert.deepEqual(seen, ['1']);
  assert.deepEqual(end, { offset: 2, line: 1 });
});

test('readJsonlLines(path) drops a UTF-8 byte-order mark at the start of the file', () => {
  const { lines } = readAll(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\n{"b":2}\n')]));
  assert.deepEqual(
    lines.map((l) => [l.offset, l.text]),
    [
      [0, '{"a":1}'],
      [11, '{"b":2}'],
    ],
  );
});

test('readJsonlLines(path) reuses its read buffer from file to file, and a read started inside a read gets its own', () => {
  const folder = tempFolder();
  const long = 'x'.repeat((1 << 20) + 10); // spans a chunk: the second file's bytes overwrite a reused buffer
  writeFileSync(join(folder, 'a.jsonl'), `a1\n${long}\na3\n`);
  writeFileSync(join(folder, 'b.jsonl'), 'b1\nb2\n');
  const start = { offset: 0, line: 0 };
  const outer: string[] = [];
  const inner: string[] = [];
  readJsonlLines(join(folder, 'a.jsonl'), start, (line) => {
    outer.push(line.text.length > 10 ? `long ${line.text.length}` : line.text);
    if (line.line === 1) readJsonlLines(join(folder, 'b.jsonl'), start, (l) => void inner.push(l.text));
  });
  assert.deepEqual(outer, ['a1', `long ${long.length}`, 'a3'], 'the outer read is untouched by the inner one');
  assert.deepEqual(inner, ['b1', 'b2']);
  const again: string[] = [];
  for (const name of ['b.jsonl', 'a.jsonl', 'b.jsonl']) {
    readJsonlLines(join(folder, name), start, (line) => void again.push(line.text.slice(0, 2)));
  }
  assert.deepEqual(again, ['b1', 'b2', 'a1', 'xx', 'a3', 'b1', 'b2']);
});
