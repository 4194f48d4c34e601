import assert from 'node:assert/strict';
import { test } from 'node:test';
import { messageCredit } from '../../../../src/engine/credit/messageCredit';
import { prefixEvaluator, prefixStubValues as values } from './prefixStub';

test('replayed prefix values locate the point of no return; checked ones keep the first drop of δ', async () => {
  // Message 0 drops the value to 0, message 1 repairs it, message 2 loses the episode for good.
  const replayed = await messageCredit(values(prefixEvaluator(true)), 'prefix');
  assert.deepEqual(replayed.firstError, { index: 2, harmful: [0, 2], repairs: [1] });
  assert.ok(replayed.rows.every((r) => r.status === 'exact'));
  const checked = await messageCredit(values(prefixEvaluator(false)), 'prefix');
  assert.equal(checked.firstError?.index, 0);
  assert.ok(checked.rows.some((r) => r.status === 'approximate'));
});
