import { availableParallelism } from 'node:os';
import type { IndexProgress, IndexTally } from '../../core/indexProgress';
import type { TraceIssue } from '../../core/indexing';
import type { ValueCounters } from '../credit/coalitionValues';
import type { AgentSummary, StepCell } from '../credit/creditSummary';
import { indexRunFolder } from '../../ingest/indexRunFolder';
import { traceCreditTableInWorker } from './traceCreditInWorker';
import { choosesRun, type TraceCreditChoice } from './traceCreditChoice';
import { TraceCreditSink, type TraceCreditProblem } from './traceCreditSink';

export interface TraceCreditOptions extends TraceCreditChoice {
  readonly root: string;
  /**
   * Parse in workers running this script (`dist/traceCreditWorker.js`, which sends each episode's
   * credit in its place; `dist/parseWorker.js` works too, the credit then computed in this thread);
   * default: in this thread.
   */
  readonly parseWorkerScript?: string;
  /** How many (default: one per core, at most {@link maxParseWorkers}). */
  readonly parseWorkers?: number;
  readonly isCancelled?: () => boolean;
  readonly onProgress?: (progress: IndexProgress) => void;
  /**
   * Run the pass in a worker running this script (`dist/indexWorker.js`; traceCreditInWorker.ts),
   * whose heap is bounded; default: in this thread.
   */
  readonly jobWorkerScript?: string;
}

/** One run's table: per agent (mean, interval, early → late, status) and per (step, agent) mean. */
export interface TraceCreditRun {
  readonly name: string;
  readonly root: string;
  readonly mechanism: string | null;
  readonly episodes: number;
  readonly computed: number;
  /** Episodes of other splits or steps than the ones asked for. */
  readonly outside: number;
  readonly notIdentifiable: number;
  readonly failed: number;
  readonly agents: readonly AgentSummary[];
  readonly steps: readonly StepCell[];
  /** Agent values by their sources (`logged`, …). */
  readonly sources: Readonly<Record<string, number>>;
  /** The first problems with their file and line; `reasons` counts every one. */
  readonly problems: readonly TraceCreditProblem[];
  readonly reasons: readonly { readonly reason: string; readonly count: number; readonly remedy?: string }[];
}

export interface TraceCreditResult {
  readonly runs: readonly TraceCreditRun[];
  readonly values: Readonly<ValueCounters>;
  /** The read: bytes, lines, files, issues (bad lines, duplicates), fatal problems, time. */
  readonly pass: IndexTally;
  /** The first trace issues with their file and line (`pass.issues` counts them all). */
  readonly issues: readonly TraceIssue[];
}

/** Parse workers at most: the parse is the pass's work, and this thread's share is light. */
export const maxParseWorkers = 4;

function defaultParseWorkers(): number {
  return Math.max(1, Math.min(maxParseWorkers, availableParallelism()));
}

/**
 * One method's credit table straight from a run folder's trace files, without an index
 * (docs/credit-methods.md §6.1: credit from logged values): the folder is read by the indexer's own
 * reader (every format, layout, bad-line and duplicate rule of `index`), each episode's credit is
 * computed by the engine from its logged values, and only the per-run, per-agent and per-step sums
 * are kept. Nothing is stored, so nothing is read back: what the table cannot answer needs the
 * index and an evaluator (`credit-lens credit --evaluator …`).
 */
export async function traceCreditTable(options: TraceCreditOptions): Promise<TraceCreditResult> {
  if (options.jobWorkerScript !== undefined) return traceCreditTableInWorker(options, options.jobWorkerScript);
  const { root, parseWorkerScript, parseWorkers, isCancelled, onProgress, ...choice } = options;
  const sink = new TraceCreditSink(choice);
  const pass = await indexRunFolder(root, sink, {
    search: false,
    runs: (run) => choosesRun(choice, run), // the one place runs are chosen: others are not read
    ...(parseWorkerScript
      ? { parseWorkerScript, parseWorkers: parseWorkers ?? defaultParseWorkers(), parseWorkerJob: choice }
      : {}),
    ...(isCancelled ? { isCancelled } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
  await sink.settled();
  const runs = [...sink.runs.values()]
    .filter((run) => run.read > 0)
    .map((run): TraceCreditRun => ({
      name: run.record.name,
      root: run.record.root,
      mechanism: run.record.manifest?.mechanism ?? null,
      episodes: run.read,
      computed: run.computed,
      outside: run.outside,
      notIdentifiable: run.notIdentifiable,
      failed: run.failed,
      agents: run.agents.summaries(),
      steps: run.agents.stepCells(),
      sources: Object.fromEntries(run.sources),
      problems: run.problems,
      reasons: [...run.reasons].map(([reason, r]) => ({ reason, ...r })).sort((a, b) => b.count - a.count),
    }));
  return { runs, values: { ...sink.counters }, pass, issues: sink.issueExamples };
}
