import { availableParallelism, cpus } from 'node:os';
import { loadAverage } from './processTiming';

// The machine a benchmark ran on, in one line. Neither the absolute figures (episodes/s, MB/s) nor
// the ratios against a peer in another language carry from one machine to the next: the same timed
// code gave the first LOO table 3.54× pandas's speed on one machine and 2.35× on another (BENCHMARKS.md,
// issue 15, twenty-seventh part). A fixed loop, timed, tells which kind of machine a figure came from.

export interface MachineReference {
  readonly cpu: string;
  readonly cores: number;
  /** Milliseconds of one thread for {@link referenceLoop} (best of three). */
  readonly referenceLoopMs: number;
  readonly load: number;
}

/** 300 million additions of i mod 7 on one thread: integer work, no allocation, no memory traffic. */
export function referenceLoop(): number {
  let sum = 0;
  for (let i = 0; i < 300_000_000; i++) sum += i % 7;
  return sum;
}

/** Times {@link referenceLoop} three times (the first also compiles it) and keeps the fastest. */
export function machineReference(): MachineReference {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const started = process.hrtime.bigint();
    if (referenceLoop() !== 899_999_997) throw new Error('the reference loop computed a wrong sum');
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e6);
  }
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
    referenceLoopMs: best,
    load: loadAverage(),
  };
}

export function formatMachine(machine: MachineReference): string {
  return `Machine: ${machine.cpu}, ${String(machine.cores)} cores; reference loop (bench/machine.ts) ${machine.referenceLoopMs.toFixed(0)} ms on one thread; load ${machine.load.toFixed(2)}`;
}
