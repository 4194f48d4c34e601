// The machine line every full benchmark starts with.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatMachine, machineReference, referenceLoop } from '../../../bench/machine';

test('the reference loop does its whole work (its sum is checked, so it cannot be optimised away)', () => {
  assert.equal(referenceLoop(), 899_999_997);
});

test('the machine line names the CPU, its cores, the loop time and the load', () => {
  const machine = machineReference();
  assert.ok(machine.referenceLoopMs > 0 && Number.isFinite(machine.referenceLoopMs));
  assert.ok(machine.cores >= 1);
  assert.equal(
    formatMachine({ cpu: 'Test CPU', cores: 2, referenceLoopMs: 413.6, load: 1.234 }),
    'Machine: Test CPU, 2 cores; reference loop (bench/machine.ts) 414 ms on one thread; load 1.23',
  );
});
