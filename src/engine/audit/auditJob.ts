import type { RunAudit } from '../../core/auditReport';
import { defaultSplit, type SplitChoice } from '../../core/split';
import type { AuditThresholds } from '../../credit/audit/auditThresholds';
import { defaultAuditThresholds } from '../../credit/audit/auditThresholds';
import type { CalibrationOptions } from '../credit/calibration';
import type { EvaluatorChoice } from '../credit/chooseEvaluator';
import { runCreditJob, type CreditJobOptions } from '../credit/creditJob';
import { bundledIndexWorkerScript } from '../credit/creditWrites';
import { NoIndexError } from '../indexJob';
import { findIndexLocation } from '../indexLocation';
import { auditRuns, type AuditRunsRequest } from './auditRuns';
import { auditRunsInWorker } from './auditRunsInWorker';

export interface AuditOptions {
  readonly root: string;
  readonly dbPath?: string;
  /** The marginal-contribution signal the verdicts use. */
  readonly method?: 'loo' | 'shapley';
  readonly run?: string;
  readonly thresholds?: AuditThresholds;
  readonly evaluator?: EvaluatorChoice;
  /** Read message text for emptiness, copying and output-share evidence (default true). */
  readonly readText?: boolean;
  /** Checked while credit is computed; a cancelled audit stores no flags (the previous ones stay). */
  readonly isCancelled?: () => boolean;
  /** Calibration of the evaluator against the logged rewards (see the credit job). */
  readonly calibration?: CalibrationOptions;
  /** Training episodes (the default), validation episodes or all (core/split.ts). */
  readonly split?: SplitChoice;
  /** Cancels the audit: a replay's calls in flight are aborted at once (see `isCancelled`). */
  readonly signal?: AbortSignal;
  /** Host services of the replay evaluator (see the credit job). */
  readonly replayDeps?: CreditJobOptions['replayDeps'];
  /** Warnings of the credit pass (run.json settings that were ignored). */
  readonly onWarning?: (message: string) => void;
  /**
   * Read in a worker running this script (`dist/indexWorker.js`; auditRunsInWorker.ts); false: on
   * the caller's thread; default: the built script beside this bundle, when there is one.
   */
  readonly workerScript?: string | false;
}

export interface AuditResult {
  readonly runs: readonly RunAudit[];
  readonly elapsedMs: number;
  /** True when the audit was cancelled before any flag was stored. */
  readonly cancelled?: boolean;
}

/**
 * Audits every run of an indexed folder (credit-methods.md §5): computes the marginal contributions
 * that are not stored yet for the method's parameters (stored credit that is current is read, not
 * recomputed; see store/creditFreshness.ts), then reads each run's episodes with their credit and
 * activity, raises the flags with their evidence, stores them in the index (replacing the previous
 * audit) and returns the per-run reports ({@link auditRuns}; in a worker when the bundle is built).
 */
export async function runAudit(options: AuditOptions): Promise<AuditResult> {
  const started = Date.now();
  const location = findIndexLocation(options.root, options.dbPath);
  if (!location)
    throw new NoIndexError(`no index for ${options.root}; run \`credit-lens index ${options.root}\` first`);
  const method = options.method ?? 'loo';
  const split = options.split ?? defaultSplit;
  const creditRun = await runCreditJob(
    {
      root: options.root,
      method,
      split,
      onlyMissing: true,
      ...(options.dbPath ? { dbPath: options.dbPath } : {}),
      ...(options.run ? { run: options.run } : {}),
      ...(options.evaluator ? { evaluator: options.evaluator } : {}),
      ...(options.calibration ? { calibration: options.calibration } : {}),
      ...(options.replayDeps ? { replayDeps: options.replayDeps } : {}),
    },
    {
      ...(options.isCancelled ? { isCancelled: options.isCancelled } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onWarning ? { onWarning: options.onWarning } : {}),
    },
  ).catch((error: unknown) => ({ runs: [], error: error instanceof Error ? error.message : String(error) }));
  const generalProblem = 'error' in creditRun ? creditRun.error : undefined;
  // Verdicts on a partly computed run would be wrong: a cancelled audit changes nothing.
  if (options.isCancelled?.() || options.signal?.aborted)
    return { runs: [], elapsedMs: Date.now() - started, cancelled: true };
  const request: AuditRunsRequest = {
    root: options.root,
    dbPath: location.path,
    method,
    split,
    ...(options.run !== undefined ? { run: options.run } : {}),
    thresholds: options.thresholds ?? defaultAuditThresholds,
    readText: options.readText !== false,
    credit: creditRun.runs.map((r) => ({
      runId: r.run.runId,
      method: r.params.method,
      paramsHash: r.params.hash,
      stored: r.computed + (r.reused ?? 0),
    })),
    ...(generalProblem !== undefined ? { generalProblem } : {}),
  };
  const script = auditWorkerScript(options);
  const runs = script ? await auditRunsInWorker(request, script) : await auditRuns(request);
  return { runs, elapsedMs: Date.now() - started };
}

/** The worker the audit reads in (auditRunsInWorker.ts), or undefined to read on the caller's thread. */
export function auditWorkerScript(options: AuditOptions): string | undefined {
  if (options.workerScript === false) return undefined;
  return options.workerScript ?? bundledIndexWorkerScript();
}
