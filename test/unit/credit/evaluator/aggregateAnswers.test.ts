import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  aggregateAnswers,
  type AgentAnswer,
  type AggregationRule,
} from '../../../../src/credit/evaluator/aggregateAnswers';

const a = (agent: number, answer?: string): AgentAnswer => ({ agent, answer });

describe('aggregateAnswers', () => {
  const table: { name: string; answers: AgentAnswer[]; rule: AggregationRule; result: string | undefined }[] = [
    {
      name: 'last: the last message that states an answer',
      answers: [a(0, '1'), a(1, '2'), a(2)],
      rule: { kind: 'last' },
      result: '2',
    },
    { name: 'last: nothing stated', answers: [a(0), a(1)], rule: { kind: 'last' }, result: undefined },
    {
      name: 'vote: a clear majority',
      answers: [a(0, '42'), a(1, '17'), a(2, '42')],
      rule: { kind: 'vote', ties: 'none' },
      result: '42',
    },
    {
      name: 'vote: a tie broken toward the earliest agent',
      answers: [a(2, '17'), a(0, '42')],
      rule: { kind: 'vote', ties: 'earliest' },
      result: '17',
    },
    {
      name: 'vote: a tie resolved to no answer',
      answers: [a(0, '42'), a(2, '17')],
      rule: { kind: 'vote', ties: 'none' },
      result: undefined,
    },
    {
      name: "vote: an agent's final answer is its last stated one",
      answers: [a(0, '17'), a(1, '42'), a(0, '42'), a(2, '17')],
      rule: { kind: 'vote', ties: 'none' },
      result: '42',
    },
    {
      name: 'vote: silent agents do not vote',
      answers: [a(0), a(1, '5')],
      rule: { kind: 'vote', ties: 'none' },
      result: '5',
    },
    {
      name: "vote: 'earliest' follows the agents' first messages",
      answers: [a(1), a(0, '8'), a(1, '9')],
      rule: { kind: 'vote', ties: 'earliest' },
      result: '9',
    },
    {
      name: 'selected: the routed expert',
      answers: [a(0, '70'), a(1, '72')],
      rule: { kind: 'selected', agent: 1 },
      result: '72',
    },
    {
      name: 'selected: an absent expert',
      answers: [a(0, '70')],
      rule: { kind: 'selected', agent: 1 },
      result: undefined,
    },
    { name: 'no answers at all', answers: [], rule: { kind: 'vote', ties: 'earliest' }, result: undefined },
  ];
  for (const row of table) {
    it(`aggregateAnswers(answers, rule) handles ${row.name}`, () =>
      assert.equal(aggregateAnswers(row.answers, row.rule), row.result));
  }
});
