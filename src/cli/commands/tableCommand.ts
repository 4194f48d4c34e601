import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SplitChoice } from '../../core/split';
import { formatTraceCredit, traceCreditCsvHeader, traceCreditCsvLines } from '../../engine/report/formatTraceCredit';
import { traceCreditTable, type TraceCreditResult } from '../../engine/traceCredit/traceCreditJob';
import { traceCreditMethods, type TraceCreditMethod } from '../../engine/traceCredit/traceCreditChoice';
import { exitCodes, UsageError, type CliIo } from '../cliIo';
import { ProgressBar } from '../progressBar';

export interface TableCommandOptions {
  readonly root: string;
  readonly method: string;
  readonly steps?: readonly [number, number];
  readonly split: SplitChoice;
  readonly run?: string;
  readonly output: 'text' | 'json' | 'csv';
}

/**
 * `credit-lens table <run-dir> [--method loo]`: the first answer to "who earned the reward over
 * training", read straight from the trace files in one pass (in a parse worker per core) with no
 * index written: per agent and per training step, from the logged values only. Exit 1 when no
 * episode could be computed.
 */
export async function tableCommand(options: TableCommandOptions, io: CliIo): Promise<number> {
  const method = parseTraceMethod(options.method);
  const parseWorker = join(__dirname, 'traceCreditWorker.js');
  const jobWorker = join(__dirname, 'indexWorker.js');
  const bar = options.output === 'text' && io.tty ? new ProgressBar(io.tty) : undefined;
  let cancelled = false;
  const stop = (): void => {
    cancelled = true;
  };
  process.once('SIGINT', stop);
  let result: TraceCreditResult;
  try {
    result = await traceCreditTable({
      root: options.root,
      method,
      split: options.split,
      steps: options.steps ?? [-Infinity, Infinity],
      ...(options.run ? { run: options.run } : {}),
      ...(existsSync(parseWorker) ? { parseWorkerScript: parseWorker } : {}),
      ...(existsSync(jobWorker) ? { jobWorkerScript: jobWorker } : {}),
      isCancelled: () => cancelled,
      onProgress: (progress) => bar?.update(progress),
    });
  } finally {
    bar?.clear();
    process.removeListener('SIGINT', stop);
  }
  if (options.output === 'json') io.out(JSON.stringify({ root: options.root, method, ...result }, null, 2));
  else if (options.output === 'csv') {
    io.out(traceCreditCsvHeader);
    for (const run of result.runs) for (const line of traceCreditCsvLines(run, method)) io.out(line);
  } else for (const line of formatTraceCredit(options.root, method, result)) io.out(line);
  for (const fatal of result.pass.fatal) io.err(`error: ${fatal}`);
  const computed = result.runs.reduce((sum, r) => sum + r.computed, 0);
  return computed > 0 ? exitCodes.ok : exitCodes.fatal;
}

function parseTraceMethod(name: string): TraceCreditMethod {
  const found = traceCreditMethods.find((m) => m === name);
  if (found) return found;
  throw new UsageError(
    `table computes ${traceCreditMethods.join(', ')} from logged values; for "${name}" index the folder and run \`credit-lens credit --method ${name}\``,
  );
}
