import { runCreditJob } from '../src/engine/credit/creditJob';
import type { CreditMethodName } from '../src/engine/credit/creditMethod';

/** One timed credit pass, as the child process reports it. */
export interface CreditPass {
  readonly method: string;
  readonly useLogged: boolean;
  /** Run on the graded copy of the index (gradedValues.ts): distinct values instead of 0/1 rewards. */
  readonly graded?: boolean;
  readonly episodes: number;
  readonly failed: number;
  readonly ms: number;
  readonly logged: number;
  readonly cached: number;
  readonly evaluated: number;
  readonly maxRssBytes: number;
}

/** Runs one credit pass in this process (the benchmark starts it as a child) and returns its figures. */
export async function creditPass(
  root: string,
  db: string,
  method: CreditMethodName,
  useLogged: boolean,
): Promise<CreditPass> {
  const started = process.hrtime.bigint();
  const result = await runCreditJob({
    root,
    dbPath: db,
    method,
    useLogged,
    run: 'planner-solver-verifier',
    evaluator: { kind: 'builtin', name: 'final-answer' },
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const run = result.runs[0];
  return {
    method,
    useLogged,
    episodes: run?.computed ?? 0,
    failed: run?.failures.length ?? 0,
    ms,
    ...result.values,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  };
}
