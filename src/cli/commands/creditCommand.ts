import type { SplitChoice } from '../../core/split';
import { totalReplayCost, type ReplayCost } from '../../credit/replay/replayCost';
import {
  runCreditJob,
  type CreditJobResult,
  type EpisodeCreditReport,
  type RunCreditResult,
  type RunFailure,
} from '../../engine/credit/creditJob';
import type { CreditOutputRow } from '../../store/creditRepository';
import {
  isCreditMethod,
  creditMethods,
  perMessageMethods,
  type CreditMethodName,
} from '../../engine/credit/creditMethod';
import type { EvaluatorChoice } from '../../engine/credit/chooseEvaluator';
import { parseStepRange } from '../../core/stepRange';
import { exitCodes, UsageError, type CliIo } from '../cliIo';
import {
  calibrationLine,
  csvHeader,
  csvLine,
  csvProblemLine,
  episodesJson,
  formatCreditReport,
} from '../../engine/report/formatCredit';
import { CreditJsonReport } from '../creditJsonReport';
import { firstErrorReport, formatFirstErrors, type FirstErrorReport } from '../formatFirstErrors';
import { ProgressBar } from '../progressBar';
import { cancelledExitCode, ctrlC, estimateLine, evaluatorSettings, progressHooks, replayChoice } from '../replayCli';

export interface CreditCommandOptions {
  readonly root: string;
  readonly db?: string;
  readonly method: string;
  readonly evaluator?: string;
  readonly evaluatorCmd?: string;
  readonly timeoutMs?: number;
  readonly concurrency?: number;
  readonly steps?: string;
  readonly run?: string;
  readonly budget?: number;
  readonly useLogged: boolean;
  readonly output: 'text' | 'json' | 'csv';
  readonly messages: boolean;
  /** Monte-Carlo seed (shapley-mc). */
  readonly seed?: number;
  /** Required agreement of an evaluator with the logged rewards. */
  readonly calibration?: number;
  /** A GRPO advantage convention name (checked by the caller). */
  readonly advantage?: string;
  /** Training (default), validation or all episodes. */
  readonly split?: SplitChoice;
  /** Print what a replay would spend (calls, tokens) and stop before any call. */
  readonly dryRun?: boolean;
}

/**
 * `credit-lens credit <run-dir> --method <name>`: computes (or recomputes) one credit method over an
 * indexed folder and prints per-agent summaries, or every row as JSON / CSV. Episodes that cannot
 * be computed are reported with their file and line; the exit code is non-zero only when nothing
 * could be computed at all.
 */
export async function creditCommand(options: CreditCommandOptions, io: CliIo): Promise<number> {
  const method = parseMethod(options.method);
  const evaluator = parseEvaluator(options);
  const steps = options.steps === undefined ? undefined : parseSteps(options.steps);
  const report = options.output === 'json' ? new CreditJsonReport(io, { root: options.root, method }) : undefined;
  const firstErrors: FirstErrorReport[] = [];
  if (options.output === 'csv') io.out(csvHeader);
  const onEpisode = (report: EpisodeCreditReport): void => {
    const found = firstErrorReport(report);
    if (found) firstErrors.push(found);
  };
  const bar = options.output === 'text' && io.tty ? new ProgressBar(io.tty) : undefined;
  // The estimate goes where it cannot break machine-readable output.
  const note = options.output === 'text' ? io.out : io.err;
  const onEstimate = (run: string, estimate: ReplayCost): void => {
    bar?.clear();
    note(estimateLine(run, estimate, options.budget));
  };
  const onWarning = (message: string): void => io.err(`credit-lens: warning: ${message}`);
  const onRunStored = (
    run: RunCreditResult,
    rows: IterableIterator<CreditOutputRow>,
    failures: () => IterableIterator<RunFailure>,
  ): void => {
    if (options.output === 'csv') {
      for (const row of rows) if (options.messages || row.message_seq === null) io.out(csvLine(run.run.name, row));
      for (const f of failures()) io.out(csvProblemLine(run.run.name, run.params.method, f));
    } else if (report) {
      const episodes = episodesJson(rows);
      report.run(runJson(run, failures()), options.messages ? episodes : withoutMessages(episodes));
    }
  };
  const cancel = ctrlC(io);
  const result = await runCreditJob(
    {
      root: options.root,
      method,
      ...(options.db ? { dbPath: options.db } : {}),
      ...(evaluator ? { evaluator } : {}),
      ...(steps ? { steps } : {}),
      ...(options.run ? { run: options.run } : {}),
      ...(options.budget !== undefined ? { budget: options.budget } : {}),
      ...(options.useLogged ? {} : { useLogged: false }),
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
      ...(options.seed !== undefined ? { monteCarlo: { seed: options.seed }, budgetSeed: options.seed } : {}),
      ...(options.calibration !== undefined ? { calibration: { threshold: options.calibration } } : {}),
      ...(options.advantage !== undefined ? { advantage: options.advantage } : {}),
      ...(options.split ? { split: options.split } : {}),
      ...(options.dryRun ? { dryRun: true } : {}),
    },
    {
      // Only per-message methods locate first errors; others' episodes need not cross from the job's thread.
      ...(perMessageMethods.has(method) ? { onEpisode } : {}),
      onRunStored,
      onEstimate,
      onWarning,
      signal: cancel.signal,
      ...progressHooks(io, bar, options.output === 'text'),
    },
  ).finally(() => cancel.dispose());
  bar?.clear();
  if (options.dryRun) return dryRunReport(options, method, result, io);
  if (report) {
    const lookups = result.values.cached + result.values.evaluated;
    const values = { ...result.values, hitRate: lookups > 0 ? result.values.cached / lookups : null };
    report.end({ values, elapsedMs: result.elapsedMs, firstErrors });
  } else if (options.output === 'text') {
    for (const line of formatCreditReport(options.root, method, result)) io.out(line);
    if (firstErrors.length > 0) io.out(formatFirstErrors(firstErrors));
  }
  // Not-identifiable episodes are summarised in the report (with the remedy); failures are listed.
  for (const run of result.runs)
    for (const f of run.failures.filter((x) => x.status !== 'not-identifiable').slice(0, 20))
      io.err(`${f.where}: ${run.run.name}: ${f.reason}`);
  if (result.cancelled) {
    io.err('credit-lens: cancelled; the episodes computed so far and every replayed value are stored');
    return cancelledExitCode;
  }
  const computed = result.runs.reduce((sum, r) => sum + r.computed, 0);
  return computed > 0 ? exitCodes.ok : exitCodes.fatal;
}

/** `--dry-run`: only the estimates (already printed in text), as JSON with `--json`. */
function dryRunReport(options: CreditCommandOptions, method: string, result: CreditJobResult, io: CliIo): number {
  const runs = result.runs.map((r) => ({
    name: r.run.name,
    evaluator: r.evaluator ?? null,
    estimate: r.estimate ?? null,
  }));
  if (options.output === 'json') {
    const estimate = totalReplayCost(result.runs.flatMap((r) => (r.estimate ? [r.estimate] : [])));
    io.out(JSON.stringify({ root: options.root, method, dryRun: true, estimate, runs }, null, 2));
  } else if (runs.every((r) => r.estimate === null))
    io.out('nothing to estimate: the evaluator calls no model server (a replay evaluator does)');
  return exitCodes.ok;
}

function runJson(run: RunCreditResult, failures: Iterable<RunFailure>) {
  return {
    name: run.run.name,
    root: run.run.root,
    mechanism: run.run.mechanism,
    method: run.params.method,
    params: run.params.params,
    evaluator: run.evaluator ?? null,
    computed: run.computed,
    notIdentifiable: run.unidentified,
    failed: run.failed,
    agents: run.agents.map((a) => ({
      agent: a.agent,
      episodes: a.episodes,
      meanCredit: a.mean,
      ci: a.ci,
      early: a.early,
      late: a.late,
      status: a.status,
    })),
    failures: Array.from(failures, (f) => ({
      episode: f.episode,
      step: f.step,
      where: f.where,
      status: f.status ?? 'failed',
      reason: f.reason,
      ...(f.remedy ? { remedy: f.remedy } : {}),
    })),
    ...(run.calibration ? { calibration: { ...run.calibration, summary: calibrationLine(run.calibration) } } : {}),
    ...(run.budget ? { budget: run.budget } : {}),
    ...(run.estimate ? { estimate: run.estimate } : {}),
    ...(run.usage ? { usage: run.usage } : {}),
    advantage: advantageJson(run),
  };
}

function advantageJson({ advantage: { convention, source, description } }: RunCreditResult) {
  return { name: convention.name, source, summary: convention.summary, description, code: convention.source };
}

function parseMethod(name: string): CreditMethodName {
  if (!isCreditMethod(name))
    throw new UsageError(`unknown method "${name}"; choose one of ${creditMethods.join(', ')}`);
  return name;
}

/**
 * `--evaluator final-answer[:key=value,…]`, `--evaluator replay:url=…[,key=value…]` or
 * `--evaluator-cmd "CMD"` (not both); `none` disables.
 */
export function parseEvaluator(
  options: Pick<CreditCommandOptions, 'evaluator' | 'evaluatorCmd' | 'timeoutMs' | 'concurrency'>,
): EvaluatorChoice | undefined {
  if (options.evaluator && options.evaluatorCmd) throw new UsageError('give --evaluator or --evaluator-cmd, not both');
  if (options.evaluatorCmd) {
    return {
      kind: 'command',
      command: options.evaluatorCmd,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    };
  }
  if (!options.evaluator) return undefined;
  if (options.evaluator === 'none') return { kind: 'none' };
  const { name, settings } = evaluatorSettings(options.evaluator);
  if (name === 'replay') return replayChoice(settings);
  return { kind: 'builtin', name, options: settings };
}

/** `--step A..B` as an inclusive range; a UsageError naming the flag when it is not one. */
export function parseSteps(text: string): readonly [number, number] {
  const range = parseStepRange(text);
  if (!range.ok) throw new UsageError(`--step ${range.error}`);
  return range.value;
}

/** The episodes without their per-message rows (`--messages` keeps them). */
function* withoutMessages<T extends object>(episodes: Iterable<T>): Generator<T> {
  for (const e of episodes) yield { ...e, messages: undefined };
}
