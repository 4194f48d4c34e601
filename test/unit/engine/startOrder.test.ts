import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StartOrder } from '../../../src/engine/credit/startOrder';

// The credit pass takes its episodes in the order it started them (src/engine/credit/startOrder.ts).

test('episodes that complete out of order are finished in start order, each once', () => {
  const order = new StartOrder();
  const tickets = [0, 1, 2, 3, 4].map(() => order.start());
  const finished: number[] = [];
  const finish = (t: number): void => {
    order.finish(t, () => finished.push(t));
  };
  finish(2);
  finish(1);
  assert.deepEqual(finished, [], 'nothing before the first');
  assert.equal(order.held, 2);
  finish(0);
  assert.deepEqual(finished, [0, 1, 2]);
  finish(4);
  assert.deepEqual(finished, [0, 1, 2]);
  finish(3);
  assert.deepEqual(finished, tickets);
  assert.equal(order.held, 0);
});

test('an episode that completes in order is finished at once, and gives what its finish returns', () => {
  const order = new StartOrder();
  for (let k = 0; k < 3; k++)
    assert.equal(
      order.finish(order.start(), () => k * 10),
      k * 10,
    );
  const held = order.start();
  const last = order.start();
  assert.equal(
    order.finish(last, () => 'late'),
    undefined,
    'held for an earlier one',
  );
  assert.equal(
    order.finish(held, () => 'first'),
    'first',
  );
});
