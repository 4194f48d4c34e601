import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { runIndexInWorker } from '../src/engine/runIndexInWorker';

/** Event-loop delay of the thread that starts indexing, as the extension host would see it. */
export interface HostBlocking {
  readonly seconds: number;
  readonly maxMs: number;
  readonly p99Ms: number;
  readonly meanMs: number;
  readonly progressMessages: number;
}

/**
 * Indexes `dir` from scratch through `runIndexInWorker` (exactly as the extension's Index command
 * does) while a 10 ms-resolution histogram records how late this thread's event loop runs. The
 * extension host shares its thread with every extension, so its worst delay is the figure.
 */
export async function hostBlocking(dir: string, db: string): Promise<HostBlocking> {
  for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  let progressMessages = 0;
  const started = process.hrtime.bigint();
  histogram.enable();
  const handle = runIndexInWorker(
    { root: dir, dbPath: db },
    join(__dirname, 'indexWorker.js'),
    () => progressMessages++,
  );
  await handle.result;
  histogram.disable();
  const ns = (v: number): number => v / 1e6;
  return {
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    // The histogram adds its own resolution to every sample; subtract it to report the excess delay.
    maxMs: Math.max(0, ns(histogram.max) - 10),
    p99Ms: Math.max(0, ns(histogram.percentile(99)) - 10),
    meanMs: Math.max(0, ns(histogram.mean) - 10),
    progressMessages,
  };
}
