import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CreditJobResult, RunCreditResult } from '../../../../src/engine/credit/creditJob';
import { FailureTally } from '../../../../src/engine/credit/failureTally';
import { formatCreditReport } from '../../../../src/engine/report/formatCredit';

// The report's failure lines (src/engine/report/formatCredit.ts): the five largest reasons with
// their exact counts, then how many reasons and episodes it did not spell out.

function reportOf(tally: FailureTally): string[] {
  const run = {
    run: { runId: 1, name: 'psv', root: '', mechanism: null, evaluatorJson: null },
    params: { method: 'loo', params: {}, hash: 'h' },
    evaluator: undefined,
    computed: 0,
    agents: [],
    advantage: {
      convention: { name: 'verl', summary: '', source: '', options: {} },
      source: 'default',
      description: '',
    },
    ...tally.report(),
  } as unknown as RunCreditResult;
  const result: CreditJobResult = { runs: [run], values: { logged: 0, cached: 0, evaluated: 0 }, elapsedMs: 1 };
  return formatCreditReport('root', 'loo', result);
}

const failure = (i: number, reason: string) => ({
  episodeId: i,
  reason,
  where: `t.jsonl:${i + 1}`,
  episode: `e${i}`,
  step: 0,
});

test('five reasons spelled out with their counts, the rest counted: other reasons, and episodes past the grouped ones', () => {
  const tally = new FailureTally();
  for (let i = 0; i < 260; i++) tally.add(failure(i, `reason ${i}`));
  for (let i = 260; i < 270; i++) tally.add(failure(i, 'reason 0'));
  const lines = reportOf(tally);
  assert.ok(lines.some((l) => l.includes('failed (11 episodes, e.g. t.jsonl:1): reason 0')));
  assert.ok(lines.some((l) => l.includes('270 failed')));
  assert.ok(lines.includes('    … and 195 other reasons, 60 episodes of further reasons (see --json)'));
});

test('no tail line when every reason is spelled out', () => {
  const tally = new FailureTally();
  tally.add(failure(0, 'boom'));
  assert.ok(!reportOf(tally).some((l) => l.includes('… and')));
});
