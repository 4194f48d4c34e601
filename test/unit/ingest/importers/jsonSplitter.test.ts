import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  JsonSplitError,
  JsonSplitter,
  type SplitterOptions,
  type SplitValue,
} from '../../../../src/ingest/importers/containers/jsonSplitter';

/** Feeds `text` in chunks of `chunk` bytes; returns every value and the bytes each locator points at. */
function split(text: string, options: SplitterOptions, chunk = 1 << 20): { values: SplitValue[]; slices: string[] } {
  const bytes = Buffer.from(text, 'utf8');
  const splitter = new JsonSplitter(options);
  const values: SplitValue[] = [];
  for (let at = 0; at < bytes.length; at += chunk) values.push(...splitter.feed(bytes.subarray(at, at + chunk), at));
  splitter.finish(bytes.length);
  return { values, slices: values.map((v) => bytes.toString('utf8', v.offset, v.offset + v.length)) };
}

const tricky = `[
  {"id": "a", "text": "brackets ] } [ { and \\"quotes\\" and a comma, here"},
  {"id": "b", "nested": [[1, 2], {"x": "\\\\"}]},
  "a string element",
  42 ,
  null
]`;

test('JsonSplitter cuts a top-level array into its elements, whatever the strings and escapes hold', () => {
  const { values, slices } = split(tricky, { records: 'array' });
  assert.deepEqual(
    values.map((v) => JSON.parse(v.bytes.toString('utf8')) as unknown),
    JSON.parse(tricky),
  );
  assert.deepEqual(
    slices,
    values.map((v) => v.bytes.toString('utf8')),
    'each locator points exactly at its element',
  );
  assert.deepEqual(
    values.map((v) => v.line),
    [2, 3, 4, 5, 6],
  );
  assert.deepEqual(
    values.map((v) => v.index),
    [0, 1, 2, 3, 4],
  );
});

test('JsonSplitter gives the same records fed one byte at a time (values spanning chunks, escapes at chunk ends)', () => {
  const whole = split(tricky, { records: 'array' });
  for (const size of [1, 2, 3, 7]) {
    const chunked = split(tricky, { records: 'array' }, size);
    assert.deepEqual(chunked.slices, whole.slices, `chunks of ${size}`);
    assert.deepEqual(
      chunked.values.map((v) => [v.offset, v.length, v.line]),
      whole.values.map((v) => [v.offset, v.length, v.line]),
    );
  }
});

test("JsonSplitter with a property yields that array's elements and the root properties before it as header", () => {
  const log = `{"version": 2, "eval": {"task": "t", "note": "has [samples] inside"},
 "samples": [{"id": 1}, {"id": 2}],
 "reductions": [{"r": 1}]}`;
  for (const size of [1, 5, 1 << 20]) {
    const { values } = split(log, { records: { property: 'samples' } }, size);
    const records = values
      .filter((v) => v.role === 'record')
      .map((v) => JSON.parse(v.bytes.toString('utf8')) as unknown);
    const header = values
      .filter((v) => v.role === 'header')
      .map((v) => [v.key, JSON.parse(v.bytes.toString('utf8')) as unknown]);
    assert.deepEqual(records, [{ id: 1 }, { id: 2 }]);
    assert.deepEqual(header, [
      ['version', 2],
      ['eval', { task: 't', note: 'has [samples] inside' }],
      ['reductions', [{ r: 1 }]],
    ]);
    assert.deepEqual(
      values.filter((v) => v.role === 'record').map((v) => v.line),
      [2, 2],
    );
  }
});

test('JsonSplitter keeps header properties only up to its budget', () => {
  const { values } = split('{"big": "xxxxxxxxxxxxxxxxxxxx", "small": 1, "samples": []}', {
    records: { property: 'samples' },
    headerBudget: 10,
  });
  assert.deepEqual(
    values.map((v) => v.key),
    ['small'],
  );
});

test('JsonSplitter skips a UTF-8 byte-order mark and handles empty arrays and a missing property', () => {
  assert.deepEqual(split('\uFEFF[ ]', { records: 'array' }).values, []);
  assert.deepEqual(split('{"other": [1]}', { records: { property: 'samples' }, headerBudget: 0 }).values, []);
});

test('JsonSplitter reports structural errors with their line', () => {
  const fails = (text: string, options: SplitterOptions, message: RegExp, line: number): void => {
    assert.throws(
      () => split(text, options),
      (error: unknown) => error instanceof JsonSplitError && message.test(error.message) && error.line === line,
    );
  };
  fails('{"a": 1}', { records: 'array' }, /expected a JSON array at the top level, found an object/, 1);
  fails('[1, 2]', { records: { property: 'samples' } }, /expected a JSON object/, 1);
  fails(
    '[\n{"a": 1},\n{"b": [2, \n',
    { records: 'array' },
    /incomplete \(the record starting at line 3 is not closed\)/,
    4,
  );
  fails('[1]\n[2]', { records: 'array' }, /unexpected content after the JSON document/, 2);
  fails('[1,,2]', { records: 'array' }, /expected a value before this separator/, 1);
  fails('{"samples": {"a": 1}}', { records: { property: 'samples' } }, /"samples" is not an array/, 1);
  fails('   \n ', { records: 'array' }, /holds no JSON value/, 2);
});

test('JsonSplitter without record bytes still locates every record', () => {
  const { values } = split(tricky, { records: 'array', keepRecords: false });
  assert.deepEqual(
    values.map((v) => v.bytes.length),
    [0, 0, 0, 0, 0],
  );
  assert.deepEqual(
    values.map((v) => v.offset),
    split(tricky, { records: 'array' }).values.map((v) => v.offset),
  );
});
