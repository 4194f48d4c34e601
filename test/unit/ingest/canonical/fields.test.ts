import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DecodeError,
  describe as describeValue,
  fieldPath,
  oneOf,
  optionalArray,
  optionalBoolean,
  optionalId,
  optionalInteger,
  optionalNumber,
  optionalNumberArray,
  optionalNumberRecord,
  optionalObject,
  optionalString,
  optionalStringArray,
  requireArray,
  requireId,
  requireNumber,
  requireObject,
  requireString,
} from '../../../../src/ingest/canonical/fields';

/** Runs a reader and returns the message of the DecodeError it throws. */
function problem(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    assert.ok(error instanceof DecodeError, 'readers throw DecodeError');
    return error.message;
  }
  assert.fail('expected the reader to throw');
}

describe('paths and messages', () => {
  test('fieldPath(path, key) joins keys with dots and indexes with brackets', () => {
    assert.equal(fieldPath('', 'id'), 'id');
    assert.equal(fieldPath('routing', 'probs'), 'routing.probs');
    assert.equal(fieldPath('messages', 3), 'messages[3]');
    assert.equal(fieldPath(fieldPath('messages', 3), 'agent'), 'messages[3].agent');
  });

  test('DecodeError(path, problem) prefixes the problem with its path, when there is one', () => {
    const nested = new DecodeError('messages[3].agent', 'is required');
    assert.equal(nested.message, 'messages[3].agent: is required');
    assert.equal(nested.path, 'messages[3].agent');
    assert.equal(nested.problem, 'is required');
    assert.equal(new DecodeError('', 'expected an object, got array').message, 'expected an object, got array');
  });

  test('describe(value) names null and arrays, and the typeof of anything else', () => {
    assert.deepEqual([null, [], {}, 'x', 1, true, undefined].map(describeValue), [
      'null',
      'array',
      'object',
      'string',
      'number',
      'boolean',
      'undefined',
    ]);
  });
});

describe('required readers', () => {
  test('requireString(obj, key, path) names a missing field as required and a null one by its type', () => {
    assert.equal(
      problem(() => requireString({}, 'content', 'messages[0]')),
      'messages[0].content: is required',
    );
    assert.equal(
      problem(() => requireString({ content: null }, 'content', 'messages[0]')),
      'messages[0].content: expected a string, got null',
    );
    assert.equal(requireString({ content: '' }, 'content', 'messages[0]'), '');
  });

  test('requireId(obj, key, path) keeps finite numbers as decimal text and rejects empty strings', () => {
    assert.equal(requireId({ id: 42 }, 'id', ''), '42');
    assert.equal(requireId({ id: 1e3 }, 'id', ''), '1000');
    assert.equal(requireId({ id: 'a' }, 'id', ''), 'a');
    assert.equal(
      problem(() => requireId({ id: '' }, 'id', '')),
      'id: expected a non-empty string or number, got string',
    );
    assert.equal(
      problem(() => requireId({ id: Number.NaN }, 'id', '')),
      'id: expected a non-empty string or number, got number',
    );
    assert.equal(
      problem(() => requireId({}, 'id', '')),
      'id: is required',
    );
  });

  test('requireNumber(obj, key, path) and requireArray(obj, key, path) treat null as missing', () => {
    assert.equal(
      problem(() => requireNumber({ reward: null }, 'reward', 'counterfactuals[0]')),
      'counterfactuals[0].reward: is required',
    );
    assert.equal(
      problem(() => requireArray({ messages: null }, 'messages', '')),
      'messages: is required',
    );
  });

  test('requireObject(value, path) rejects arrays and null', () => {
    assert.equal(
      problem(() => requireObject([], 'final')),
      'final: expected an object, got array',
    );
    assert.equal(
      problem(() => requireObject(null, 'final')),
      'final: expected an object, got null',
    );
  });
});

describe('optional readers', () => {
  const readers = [
    optionalString,
    optionalId,
    optionalNumber,
    optionalInteger,
    optionalBoolean,
    optionalArray,
    optionalObject,
    optionalStringArray,
    optionalNumberArray,
    optionalNumberRecord,
  ];

  test('every optional reader returns undefined for a missing or null field', () => {
    for (const read of readers) {
      assert.equal(read({}, 'x', ''), undefined, read.name);
      assert.equal(read({ x: null }, 'x', ''), undefined, read.name);
    }
  });

  test('optionalNumber(obj, key, path) rejects non-finite numbers', () => {
    assert.equal(
      problem(() => optionalNumber({ reward: Number.POSITIVE_INFINITY }, 'reward', '')),
      'reward: expected a finite number, got number',
    );
  });

  test('optionalInteger(obj, key, path) accepts 2.0 and names the fraction it rejects', () => {
    assert.equal(optionalInteger({ step: 2.0 }, 'step', ''), 2);
    assert.equal(
      problem(() => optionalInteger({ step: 2.5 }, 'step', '')),
      'step: expected an integer, got 2.5',
    );
  });

  test('optionalStringArray(obj, key, path) names the index of a bad element', () => {
    assert.equal(
      problem(() => optionalStringArray({ tokens: ['a', 1] }, 'tokens', 'messages[2]')),
      'messages[2].tokens[1]: expected a string, got number',
    );
  });

  test('optionalNumberArray(obj, key, path) names the index of a bad element', () => {
    assert.equal(
      problem(() => optionalNumberArray({ logprobs: [0, null] }, 'logprobs', 'messages[0]')),
      'messages[0].logprobs[1]: expected a finite number, got null',
    );
  });

  test('optionalNumberRecord(obj, key, path) names the key of a bad value', () => {
    assert.deepEqual(optionalNumberRecord({ r: { a: 1, b: -0.5 } }, 'r', ''), { a: 1, b: -0.5 });
    assert.equal(
      problem(() => optionalNumberRecord({ agentRewards: { a: 1, b: '2' } }, 'agentRewards', '')),
      'agentRewards.b: expected a finite number, got string',
    );
  });

  test('optionalObject(obj, key, path) names the path of a non-object', () => {
    assert.equal(
      problem(() => optionalObject({ metadata: 'x' }, 'metadata', '')),
      'metadata: expected an object, got string',
    );
  });
});

describe('oneOf', () => {
  test('oneOf(value, allowed, path) returns an allowed value and lists the allowed ones otherwise', () => {
    assert.equal(oneOf('vote', ['pipeline', 'vote'] as const, 'mechanism'), 'vote');
    assert.equal(
      problem(() => oneOf('auction', ['pipeline', 'vote'] as const, 'mechanism')),
      'mechanism: "auction" is not one of pipeline, vote',
    );
  });
});
