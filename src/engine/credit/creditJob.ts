import type { ChatClientStats } from '../../core/chat';
import type { CreditEpisode, CreditParams, CreditRow } from '../../core/creditInput';
import { totalReplayCost, type ReplayCost } from '../../credit/replay/replayCost';
import { CreditInputRepository, type CreditRun } from '../../store/creditInputRepository';
import { CreditFreshness } from '../../store/creditFreshness';
import {
  CreditRepository,
  type CreditOutputRow,
  type LocatedFailure,
  type EvaluatorUsage,
} from '../../store/creditRepository';
import { IndexStore } from '../../store/indexStore';
import { CreditAggregates, type StaleMark } from '../../store/viewAggregates';
import { findIndexLocation } from '../indexLocation';
import { NoIndexError } from '../indexJob';
import type { ReplayDeps } from '../evaluators/replay/replayEvaluator';
import type { BudgetReport } from './budgetedLoo';
import type { ValueCounters } from './coalitionValues';
import type { CalibrationOptions, CalibrationResult } from './calibration';
import type { CreditMethodName } from './creditMethod';
import type { AgentSummary } from './creditSummary';
import type { MessageCreditResult } from './messageCredit';
import type { MonteCarloSettings } from './monteCarloCredit';
import type { EvaluatorChoice } from './chooseEvaluator';
import type { AdvantageChoice } from './advantageConvention';
import { RunProducerRepository } from '../../store/runProducerRepository';
import { defaultSplit, type SplitChoice } from '../../core/split';
import { jobSignal } from './jobSignal';
import { creditForRun, type RunPass } from './runCredit';
import type { RunContext } from './runState';
import { recordSignalDisagreement } from './signalPass';
import { bundledIndexWorkerScript, writeWorkerMinEpisodes } from './creditWrites';
import { creditJobWorkerScript, runCreditJobInWorker } from './creditJobInWorker';
import { reportStoredRun } from './storedRunReport';
import type { FailureGroup } from './failureTally';

export interface CreditJobOptions {
  readonly root: string;
  readonly dbPath?: string;
  readonly method: CreditMethodName;
  readonly evaluator?: EvaluatorChoice;
  /** Inclusive training-step range. */
  readonly steps?: readonly [number, number];
  readonly monteCarlo?: Partial<MonteCarloSettings>;
  /** Episodes computed at once (matters for command evaluators). */
  readonly concurrency?: number;
  /** Only the run with this name or folder (default: every run of the folder). */
  readonly run?: string;
  /** False to ignore logged counterfactual values and evaluate every coalition. */
  readonly useLogged?: boolean;
  /**
   * `loo` only: evaluator calls to spend (a replay's calls to the model server, at most this many);
   * the rest is estimated (credit-methods.md §3.16).
   */
  readonly budget?: number;
  /** Seed of the budget's random draws (default 1). */
  readonly budgetSeed?: number;
  /**
   * Only these episodes (index row ids), e.g. to recompute the one a panel shows: other episodes'
   * credit rows are left as they are, and runs holding none of them are skipped.
   */
  readonly episodes?: readonly number[];
  /** How an evaluator is calibrated against the logged rewards before its values are used. */
  readonly calibration?: CalibrationOptions;
  /** The GRPO advantage convention (a name from advantageConventions.ts) instead of the run's own. */
  readonly advantage?: string;
  /** Training episodes (the default), validation episodes or all (core/split.ts): validation dumps never pool with training. */
  readonly split?: SplitChoice;
  /** Only estimate what an evaluator that calls a model server would spend (`estimate` of each run); compute and store nothing. */
  readonly dryRun?: boolean;
  /** Host services of the replay evaluator (tests: client settings); the job adds its signal and the run's roster. */
  readonly replayDeps?: Omit<ReplayDeps, 'signal' | 'roster'>;
  /**
   * Compute only the episodes whose stored credit of these parameters is missing (store/creditFreshness.ts);
   * the others keep their rows and are counted in `reused`. The audit uses this; the credit command recomputes.
   */
  readonly onlyMissing?: boolean;
  /**
   * The built `dist/indexWorker.js`, in which a pass of many episodes stores its rows while it
   * computes the next ones (creditWrites.ts); by default the one beside the running bundle (the
   * extension's, the CLI's, the benchmark's); `false`, or none found (tests run from source): the
   * pass writes on its own connection.
   */
  readonly writeWorkerScript?: string | false;
  /** Least episodes a pass needs to write in the worker (default {@link writeWorkerMinEpisodes}; tests set 1). */
  readonly writeWorkerMinEpisodes?: number;
  /**
   * The built `dist/indexWorker.js`, in which the whole job runs (creditJobInWorker.ts); by default
   * the one beside the running bundle; `false`, or none found: the job runs on the caller's thread.
   * Jobs of single episodes, dry runs and jobs with `replayDeps` always do.
   */
  readonly jobWorkerScript?: string | false;
}

/** One episode's credit as reported to the caller. */
export interface EpisodeCreditReport {
  readonly episode: CreditEpisode;
  readonly rows: ReadonlyMap<string, readonly CreditRow[]>;
  readonly messages?: MessageCreditResult;
}

export interface RunCreditResult {
  readonly run: CreditRun;
  readonly params: CreditParams;
  readonly evaluator: string | undefined;
  readonly computed: number;
  /** With `onlyMissing`: episodes whose stored credit (or failure) was current and was not recomputed. */
  readonly reused?: number;
  /**
   * The first 1,000 episodes (failureTally.ts) that failed or are not identifiable (see `status`),
   * with their file and line; all of them are in the index (`onRunStored`'s `failures`).
   */
  readonly failures: readonly RunFailure[];
  /** Episodes that failed. */
  readonly failed: number;
  /** Episodes the data could not answer. */
  readonly unidentified: number;
  /** The failures grouped by status and reason, most first; `ungrouped` counts those of reasons past the first 200. */
  readonly problems: readonly FailureGroup[];
  readonly ungrouped: number;
  readonly agents: readonly AgentSummary[];
  readonly budget?: BudgetReport;
  /** The evaluator's calibration on this run, when one was needed. */
  readonly calibration?: CalibrationResult;
  /** The convention the group advantages were computed with, and where it came from. */
  readonly advantage: AdvantageChoice;
  /** What an evaluator that calls a model server (a replay) was expected to spend, before the run. */
  readonly estimate?: ReplayCost;
  /** What it spent (stored with the credit parameters). */
  readonly usage?: EvaluatorUsage;
}

/** A failed or not-identifiable episode of a run, with where it is. */
export type RunFailure = LocatedFailure;

export interface CreditJobResult {
  readonly runs: readonly RunCreditResult[];
  readonly values: Readonly<ValueCounters>;
  readonly elapsedMs: number;
  /** True when the job was cancelled: finished episodes and the evaluations made so far are stored. */
  readonly cancelled?: boolean;
}

export interface CreditJobHooks {
  /** Polled between episodes and while evaluator calls are in flight (which it aborts). */
  readonly isCancelled?: () => boolean;
  /** Cancels the job: evaluator calls in flight (a replay's requests) are aborted at once. */
  readonly signal?: AbortSignal;
  readonly onEpisode?: (report: EpisodeCreditReport) => void;
  /** Episodes done and in total for the run being computed (every few hundred episodes, and twice a second while replaying). */
  readonly onProgress?: (done: number, total: number, run: string) => void;
  /** The totals of a replay's client so far (calls, tokens, retries, busy time), twice a second while it runs. */
  readonly onReplayStats?: (stats: ChatClientStats) => void;
  /** A run's estimated cost, before any call is made (evaluators that call a model server). */
  readonly onEstimate?: (run: string, estimate: ReplayCost) => void;
  /** Something the user should know that does not stop the job (run.json settings that were ignored). */
  readonly onWarning?: (message: string) => void;
  /**
   * Called once a run's rows (with their group advantages) are stored, while the index is open; with
   * its failed and not-identifiable episodes, read back from the index on call (all of them).
   */
  readonly onRunStored?: (
    result: RunCreditResult,
    rows: IterableIterator<CreditOutputRow>,
    failures: () => IterableIterator<RunFailure>,
  ) => void;
}

/**
 * Computes one credit method over every run of an indexed folder: reads episodes from the index,
 * takes logged values first, then cached evaluations, then calls the evaluator, and replaces each
 * episode's credit rows in one transaction (an episode that fails gets an error row, never partial
 * credit). Afterwards, GRPO group-relative advantages are computed on the new values. A cancelled
 * job stops between episodes and aborts evaluator calls in flight; what finished is stored.
 */
export async function runCreditJob(options: CreditJobOptions, hooks: CreditJobHooks = {}): Promise<CreditJobResult> {
  const worker = creditJobWorkerScript(options);
  if (worker !== undefined) return runCreditJobInWorker(options, hooks, worker);
  const started = Date.now();
  const location = findIndexLocation(options.root, options.dbPath);
  if (!location)
    throw new NoIndexError(`no index for ${options.root}; run \`credit-lens index ${options.root}\` first`);
  // The pass reads its episodes once, in id order: 8 MiB of cache instead of 32 cost it no time and
  // took 24 MB off the peak of a pass over the 10 GB run (BENCHMARKS.md, issue 15 seventeenth part).
  const store = IndexStore.open(location.path, { cacheMiB: 8 });
  const counters: ValueCounters = { logged: 0, cached: 0, evaluated: 0 };
  const cancel = jobSignal(hooks);
  try {
    const input = new CreditInputRepository(store.db);
    const output = new CreditRepository(store.db);
    const aggregates = new CreditAggregates(store.db);
    const tolerances = aggregates.tolerances();
    const freshness = options.onlyMissing ? new CreditFreshness(store.db) : undefined;
    const runs: RunCreditResult[] = [];
    const selected = input
      .runs()
      .filter((r) => options.run === undefined || r.name === options.run || r.root === options.run);
    if (options.run !== undefined && selected.length === 0)
      throw new Error(`no run named "${options.run}" in ${options.root}`);
    const [from, to] = options.steps ?? [-Infinity, Infinity];
    const split = options.split ?? defaultSplit;
    for (const run of selected) {
      if (cancel.cancelled()) break;
      if (options.episodes && input.countEpisodes(run.runId, from, to, options.episodes, split) === 0) continue;
      const pass = (staleMark?: StaleMark): Promise<RunPass> =>
        creditForRun(
          run,
          {
            ...(staleMark ? { staleMark } : {}),
            options,
            hooks,
            input,
            output,
            counters,
            producers: new RunProducerRepository(store.db),
            signal: cancel.signal,
            tolerances,
            ...writeWorkerOf(options, location.path),
          },
          freshness,
        );
      // The Run Dashboard's aggregates of the run are stale while the pass writes, rebuilt after it.
      const scope = aggregates.scopeOf(run.runId, options);
      const wrote = (r: RunCreditResult): boolean => r.computed > 0 || r.failed + r.unidentified > 0;
      const done = options.dryRun
        ? await pass()
        : await aggregates.around(
            run.runId,
            scope,
            pass,
            (p) => p.result.params.hash,
            (p) => wrote(p.result),
            (p) => p.aggregates,
          );
      const result = done.result;
      // The sign disagreement of the steps it wrote (credit-methods.md §3.18), replaced as they are:
      // the cells the pass tallied as it wrote, else read back from the stored credit.
      // An index credited before migration 0020 gets them whole at its next pass, even one that reused every row.
      if (!options.dryRun)
        recordSignalDisagreement(
          store.db,
          run.runId,
          result.params,
          wrote(result) ? scope : undefined,
          done.signalCells,
        );
      reportStoredRun(output, hooks, options, result);
      runs.push(result);
    }
    const cancelled = cancel.cancelled();
    return { runs, values: counters, elapsedMs: Date.now() - started, ...(cancelled ? { cancelled } : {}) };
  } finally {
    cancel.dispose();
    store.close();
  }
}

/** Where the job's large passes write: its write worker's script (the bundled one by default) and the index. */
function writeWorkerOf(options: CreditJobOptions, dbPath: string): Pick<RunContext, 'writeWorker'> {
  const script =
    options.writeWorkerScript === false ? undefined : (options.writeWorkerScript ?? bundledIndexWorkerScript());
  if (!script) return {};
  return { writeWorker: { script, dbPath, minEpisodes: options.writeWorkerMinEpisodes ?? writeWorkerMinEpisodes } };
}

/**
 * What a credit pass with `options` would cost its evaluator, summed over the runs, without
 * calling it: for a replay, the calls to the model server and their prompt and completion tokens
 * (logged and cached values cost nothing). Zero for an evaluator that calls no server.
 */
export async function estimateReplay(options: CreditJobOptions): Promise<ReplayCost> {
  const result = await runCreditJob({ ...options, dryRun: true });
  return totalReplayCost(result.runs.flatMap((r) => (r.estimate ? [r.estimate] : [])));
}
