import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Mechanism } from '../../../../src/core/runManifest';
import type { FinalAnswerOptions } from '../../../../src/credit/evaluator/finalAnswerEvaluator';
import { parseFinalAnswerOptions } from '../../../../src/credit/evaluator/parseFinalAnswerOptions';

function parsed(options: Record<string, unknown> | undefined, mechanism?: Mechanism): FinalAnswerOptions {
  const result = parseFinalAnswerOptions(options, mechanism);
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.value;
}

describe('parseFinalAnswerOptions', () => {
  const table: {
    name: string;
    options: Record<string, unknown> | undefined;
    mechanism?: Mechanism;
    result: FinalAnswerOptions;
  }[] = [
    { name: 'no options: gsm8k + last', options: undefined, result: { extraction: 'gsm8k', aggregation: 'last' } },
    {
      name: 'the demo pipeline run',
      options: { aggregation: 'last' },
      result: { extraction: 'gsm8k', aggregation: 'last' },
    },
    {
      name: 'the demo routed run',
      options: { aggregation: 'selected' },
      result: { extraction: 'gsm8k', aggregation: 'selected' },
    },
    {
      name: 'a strict extractor',
      options: { extraction: 'strict-boxed', aggregation: 'vote' },
      result: { extraction: 'strict-boxed', aggregation: 'vote' },
    },
    {
      name: "the trace-format 'extract: last_number' spelling",
      options: { extract: 'last_number' },
      result: { extraction: 'last-number', aggregation: 'last' },
    },
    {
      name: "ties: 'none' on a vote",
      options: { aggregation: 'vote', ties: 'none' },
      result: { extraction: 'gsm8k', aggregation: 'vote-ties-none' },
    },
    {
      name: "ties: 'earliest' on a vote",
      options: { aggregation: 'vote', ties: 'earliest' },
      result: { extraction: 'gsm8k', aggregation: 'vote' },
    },
    {
      name: 'null as absent',
      options: { aggregation: null, extraction: null },
      result: { extraction: 'gsm8k', aggregation: 'last' },
    },
    {
      name: 'normalisation flags',
      options: { foldCase: true, stripThousands: false },
      result: { extraction: 'gsm8k', aggregation: 'last', foldCase: true, stripThousands: false },
    },
    {
      name: 'a routed mechanism default',
      options: {},
      mechanism: 'routed',
      result: { extraction: 'gsm8k', aggregation: 'selected' },
    },
    {
      name: 'a vote mechanism default',
      options: undefined,
      mechanism: 'vote',
      result: { extraction: 'gsm8k', aggregation: 'vote' },
    },
    {
      name: "a debate's final-round vote",
      options: undefined,
      mechanism: 'debate',
      result: { extraction: 'gsm8k', aggregation: 'vote' },
    },
    {
      name: 'a pipeline mechanism default',
      options: undefined,
      mechanism: 'pipeline',
      result: { extraction: 'gsm8k', aggregation: 'last' },
    },
    {
      name: 'an explicit aggregation over the mechanism',
      options: { aggregation: 'last' },
      mechanism: 'routed',
      result: { extraction: 'gsm8k', aggregation: 'last' },
    },
  ];
  for (const row of table) {
    it(`parseFinalAnswerOptions(options) reads ${row.name}`, () =>
      assert.deepEqual(parsed(row.options, row.mechanism), row.result));
  }

  const failures = [
    { name: 'an unknown option', options: { aggregaton: 'vote' }, message: /unknown option 'aggregaton'/ },
    {
      name: 'an unknown extraction',
      options: { extraction: 'regex' },
      message: /extraction "regex" is not one of strict-boxed, gsm8k, last-number/,
    },
    { name: 'an unknown aggregation', options: { aggregation: 'mean' }, message: /aggregation "mean" is not one of/ },
    { name: 'a non-string aggregation', options: { aggregation: 3 }, message: /aggregation 3 is not one of/ },
    {
      name: 'disagreeing extract and extraction',
      options: { extract: 'gsm8k', extraction: 'strict-boxed' },
      message: /disagree/,
    },
    {
      name: 'ties on a non-vote aggregation',
      options: { aggregation: 'last', ties: 'none' },
      message: /ties applies to aggregation 'vote' only/,
    },
    {
      name: 'an unknown tie rule',
      options: { aggregation: 'vote', ties: 'random' },
      message: /ties "random" must be 'earliest' or 'none'/,
    },
    { name: 'a non-boolean flag', options: { foldCase: 'yes' }, message: /foldCase must be true or false/ },
  ];
  for (const f of failures) {
    it(`parseFinalAnswerOptions(options) rejects ${f.name}`, () => {
      const result = parseFinalAnswerOptions(f.options);
      assert.ok(!result.ok);
      assert.match(result.error, f.message);
    });
  }
});
