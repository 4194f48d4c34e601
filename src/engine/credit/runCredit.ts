import type { CreditEpisode, CreditParams } from '../../core/creditInput';
import type { AgentDecl } from '../../core/episode';
import type { Unidentified } from '../../core/provenance';
import { totalReplayCost, type ReplayCost } from '../../credit/replay/replayCost';
import { advantagesFor } from '../../credit/signals/advantageConventions';
import type { CreditRun, EpisodeCounts } from '../../store/creditInputRepository';
import type { CreditFreshness } from '../../store/creditFreshness';
import type { EvaluatorUsage } from '../../store/creditRepository';
import type { Evaluator } from '../evaluators/evaluator';
import { chooseAdvantageConvention } from './advantageConvention';
import { budgetedLoo, type BudgetReport } from './budgetedLoo';
import { calibrateEvaluator, calibrationDistrust, type CalibrationResult } from './calibration';
import { chooseEvaluator } from './chooseEvaluator';
import type { RunCreditResult } from './creditJob';
import { coalitionMethods, perMessageMethods } from './creditMethod';
import { creditParams } from './creditParams';
import { defaultMonteCarlo, type MonteCarloSettings } from './monteCarloCredit';
import { forEachConcurrently, RunState, type RunContext } from './runState';
import { StreamedSignalTally } from './signalPass';
import { directCreditWrites, startCreditWrites, type CreditWrites } from './creditWrites';
import type { SignalCell } from '../../store/signalRepository';
import type { TalliedAggregates } from '../../store/viewAggregates';
import { defaultSplit, splitKind } from '../../core/split';
import { AggregateTally } from './aggregateTally';

/**
 * A run's pass: its result, and what it tallied as it wrote when that stands for its stored credit:
 * the sign-disagreement cells and the dashboard's aggregates.
 */
export interface RunPass {
  readonly result: RunCreditResult;
  readonly signalCells?: readonly SignalCell[];
  readonly aggregates?: TalliedAggregates;
}

/** Computes (or, in a dry run, only estimates) one run's credit; see runCreditJob. */
export async function creditForRun(run: CreditRun, ctx: RunContext, freshness?: CreditFreshness): Promise<RunPass> {
  const { options } = ctx;
  const producer = ctx.producers.producer(run.runId);
  // Chosen first: an unknown convention fails before an evaluator is started.
  const advantage = chooseAdvantageConvention(run.name, producer, options.advantage);
  const needsEvaluator = coalitionMethods.has(options.method) || perMessageMethods.has(options.method);
  const evaluator = needsEvaluator ? passEvaluator(run, ctx, producer.configJson) : undefined;
  // Only a pass that is refused waits here: the others reach openWrites without waiting, so that a
  // pass writing in a worker takes the aggregates' stale mark before aggregates.around writes it.
  if (evaluator?.replays && options.method === 'owen') await refuseOwenOnReplay(evaluator);
  const monteCarlo = { ...defaultMonteCarlo, ...options.monteCarlo };
  const params = passParams(options, advantage.convention.name, evaluator, needsEvaluator, monteCarlo);
  const [from, to] = options.steps ?? [-Infinity, Infinity];
  const split = options.split ?? defaultSplit;
  const chosen = episodesToCompute(run, ctx, params, freshness);
  const episodes = (): Generator<CreditEpisode> =>
    ctx.input.episodes(run.runId, from, to, undefined, chosen.ids, split);
  // A pass over the whole run counts its split and every split kind at once (streamedSignal needs
  // both), unless choosing its episodes already did.
  const counts =
    chosen.ids === undefined ? (chosen.counts ?? ctx.input.episodeCounts(run.runId, from, to, split)) : undefined;
  const total =
    chosen.ids?.length === 0 ? 0 : (counts?.inSplit ?? ctx.input.countEpisodes(run.runId, from, to, chosen.ids, split));
  let writes: CreditWrites;
  try {
    writes = openWrites(ctx, total);
  } catch (error) {
    await evaluator?.close();
    throw error;
  }
  const state = new RunState(run, params, ctx, total, evaluator, monteCarlo, writes);
  const calibrated = calibrateOnNeed(run, ctx, state, evaluator);
  state.trust = calibrated.trust;
  let budget: BudgetReport | undefined;
  let estimate: ReplayCost | undefined;
  let usage: EvaluatorUsage | undefined;
  let finished = false;
  try {
    const costs = evaluator?.estimate ? await episodeCosts(episodes(), state, options.concurrency) : undefined;
    if (costs) {
      estimate = totalReplayCost(costs.values());
      ctx.hooks.onEstimate?.(run.name, estimate);
    }
    if (!options.dryRun && total > 0) {
      const advantages = (v: Float64Array): Float64Array => advantagesFor(advantage.convention, v);
      if (isFirstWholePass(run, ctx, params, chosen))
        state.writesWhole(advantages, streamedSignal(ctx, params, total, counts), aggregateTally(ctx, params));
      budget = await computeEpisodes(ctx, state, episodes, costs);
      state.flush(true);
      if (!state.groupAdvantages?.contiguous) {
        await writes.settle(); // the update reads the rows back, on this thread's connection
        for (const method of state.methods)
          ctx.output.updateGroupAdvantages(run.runId, { ...params, method }, advantages, chosen.ids);
      }
    }
    finished = true;
  } finally {
    // The one place a pass's writes end: after its last write, thrown or not (a pass that threw
    // keeps what it wrote, as each batch did before the span). A failed write of the worker is the
    // pass's error unless the pass failed first.
    await writes.close().catch((error: unknown) => {
      if (finished) throw error;
    });
    usage = usageOf(evaluator, state, estimate);
    await evaluator?.close();
  }
  if (usage && !options.dryRun) ctx.output.storeUsage(run.runId, params, usage);
  const signalCells = state.signalCells();
  const aggregates = state.aggregateCells();
  const result: RunCreditResult = {
    run,
    params,
    evaluator: evaluator?.fingerprint,
    computed: state.computed,
    ...(chosen.reused !== undefined ? { reused: chosen.reused } : {}),
    ...state.failures.report(),
    agents: state.summary.summaries(),
    ...(budget ? { budget } : {}),
    ...(await calibrated.result()),
    advantage,
    ...(estimate ? { estimate } : {}),
    ...(usage && !options.dryRun ? { usage } : {}),
  };
  return { result, ...(signalCells ? { signalCells } : {}), ...(aggregates ? { aggregates } : {}) };
}

/** The evaluator of a pass whose method needs one (chooseEvaluator.ts). */
function passEvaluator(run: CreditRun, ctx: RunContext, configJson: string | null): Evaluator | undefined {
  const { options } = ctx;
  return chooseEvaluator(run, options.root, options.evaluator, {
    replay: { ...options.replayDeps, signal: ctx.signal, roster: manifestRoster(configJson) },
    ...(ctx.hooks.onWarning ? { onWarning: ctx.hooks.onWarning } : {}),
  });
}

/** owen needs values a replay cannot give: refused before anything runs (the evaluator closed). */
async function refuseOwenOnReplay(evaluator: Evaluator): Promise<never> {
  await evaluator.close();
  throw new Error(
    'owen needs the values of message subsets that are not prefixes, and a replay answers prefixes only (the agents continue after the kept messages): use --method prefix with a replay',
  );
}

/** The parameter set a pass computes (its hash names the stored rows). */
function passParams(
  options: RunContext['options'],
  advantage: string,
  evaluator: Evaluator | undefined,
  needsEvaluator: boolean,
  monteCarlo: MonteCarloSettings,
): CreditParams {
  return creditParams(options.method, {
    advantage,
    ...(options.budget !== undefined ? { budget: options.budget } : {}),
    evaluator: evaluator?.fingerprint ?? null,
    // The default action d_i defines the game (credit-methods.md §2): logged values carry their own
    // intervention in the index; evaluators are asked for removals (⊥), or a replay for default actions.
    ...(needsEvaluator ? { intervention: evaluator ? (evaluator.intervention ?? 'remove') : 'logged' } : {}),
    ...(options.useLogged === false ? { useLogged: false } : {}),
    // owen samples its long episodes (credit-methods.md §3.12), so its results depend on the settings too.
    ...(options.method === 'shapley-mc' || options.method === 'owen' ? { monteCarlo } : {}),
  });
}

/**
 * The in-stream sign-disagreement tally of a first whole pass (signalPass.ts), when the episodes it
 * reads are those the stored-credit read would: that read takes every split kind of the pass's
 * steps, so a pass over one kind stands for it only when its steps hold no episode of the other
 * (each episode is tallied under its own kind, so a pass over both always does).
 */
function streamedSignal(
  ctx: RunContext,
  params: CreditParams,
  total: number,
  counts: EpisodeCounts | undefined,
): StreamedSignalTally | undefined {
  const split = ctx.options.split ?? defaultSplit;
  if (split !== 'all' && counts?.everyKind !== total) return undefined;
  return StreamedSignalTally.of(params, split);
}

/** The dashboard's aggregates of a first whole pass, tallied as it goes (aggregateTally.ts). */
function aggregateTally(ctx: RunContext, params: CreditParams): AggregateTally {
  const split = ctx.options.split ?? defaultSplit;
  return new AggregateTally(params.hash, params.method, ctx.tolerances, split === 'all' ? splitKind(null) : split);
}

/**
 * The episodes to compute: those chosen by the caller (undefined: all), and with `onlyMissing` only
 * those without current stored credit of `params` (all of them, when none is stored: undefined).
 * `counts`: the run's counts, when it counted them for a pass over the whole run; `stored`: whether
 * any row of the set was stored, when it asked.
 */
function episodesToCompute(
  run: CreditRun,
  ctx: RunContext,
  params: CreditParams,
  freshness: CreditFreshness | undefined,
): { ids: readonly number[] | undefined; reused?: number; counts?: EpisodeCounts; stored?: boolean } {
  const { options } = ctx;
  if (!options.onlyMissing || !freshness) return { ids: options.episodes };
  const split = options.split ?? defaultSplit;
  const steps = options.steps ?? [-Infinity, Infinity];
  // Nothing of the set stored (a first pass): every episode is missing, and the run's ids are not read.
  const stored = ctx.output.hasParams(run.runId, params);
  const missing = stored
    ? missingOfChosen(freshness.missingEpisodes(run.runId, params.method, params.hash, steps, split), options.episodes)
    : undefined;
  const counts = options.episodes ? undefined : ctx.input.episodeCounts(run.runId, steps[0], steps[1], split);
  const total = counts?.inSplit ?? ctx.input.countEpisodes(run.runId, steps[0], steps[1], options.episodes, split);
  // Every episode missing: the plain pass (a page at a time) instead of one read per chosen id.
  const ids = missing === undefined || missing.length === total ? options.episodes : missing;
  const reused = missing === undefined ? 0 : total - missing.length;
  return { ids, reused, stored, ...(ids === undefined && counts ? { counts } : {}) };
}

/**
 * A first pass of the parameter set over the whole run (it sets advantages before it writes). It
 * takes `chosen.stored` when choosing asked: nothing since then writes a row of the set (openWrites
 * only starts the writer; the estimate and the calibration write none).
 */
function isFirstWholePass(
  run: CreditRun,
  ctx: RunContext,
  params: CreditParams,
  chosen: { ids: readonly number[] | undefined; stored?: boolean },
): boolean {
  if (chosen.ids !== undefined || ctx.options.budget !== undefined) return false;
  return !(chosen.stored ?? ctx.output.hasParams(run.runId, params));
}

function missingOfChosen(missing: number[], chosen: readonly number[] | undefined): number[] {
  if (chosen === undefined) return missing;
  const wanted = new Set(chosen);
  return missing.filter((id) => wanted.has(id));
}

/**
 * The run's trust in its evaluator: calibrated once, on first need, over the whole run (not only
 * the episodes being recomputed); `result` is the calibration when one was made.
 */
function calibrateOnNeed(
  run: CreditRun,
  ctx: RunContext,
  state: RunState,
  evaluator: Evaluator | undefined,
): { trust: () => Promise<Unidentified | undefined>; result: () => Promise<{ calibration?: CalibrationResult }> } {
  const split = ctx.options.split ?? defaultSplit;
  let calibration: Promise<CalibrationResult> | undefined;
  const trust = async (): Promise<Unidentified | undefined> => {
    if (!evaluator) return undefined;
    calibration ??= calibrateEvaluator(
      evaluator,
      ctx.input.episodes(run.runId, undefined, undefined, undefined, undefined, split),
      ctx.input.countEpisodes(run.runId, undefined, undefined, undefined, split),
      state.calibrationIo(evaluator),
      ctx.options.calibration,
    ).then(async (result) => {
      state.writes.storeCalibration(run.runId, result);
      state.storeFresh();
      await state.writes.settle(); // so episodes find the factual values calibration just scored
      return result;
    });
    return calibrationDistrust(await calibration);
  };
  const result = async (): Promise<{ calibration?: CalibrationResult }> =>
    calibration
      ? calibration.then(
          (c) => ({ calibration: c }),
          () => ({}),
        )
      : {};
  return { trust, result };
}

/** Every episode, or (with a budget) the budgeted leave-one-out; returns the budget's report. */
async function computeEpisodes(
  ctx: RunContext,
  state: RunState,
  episodes: () => Generator<CreditEpisode>,
  costs: ReadonlyMap<number, ReplayCost> | undefined,
): Promise<BudgetReport | undefined> {
  const { options } = ctx;
  const concurrency = options.concurrency ?? 4;
  if (options.budget === undefined) {
    await forEachConcurrently(episodes(), concurrency, (episode) => {
      if (ctx.signal.aborted) return undefined;
      const computed = state.compute(episode);
      return computed instanceof Promise ? computed.then(() => undefined) : undefined;
    });
    return undefined;
  }
  if (options.method !== 'loo') throw new Error('--budget applies to the loo method');
  // A replay's cost is its calls to the model server; another evaluator's, the values it scores.
  const costOf = (e: CreditEpisode): number =>
    costs ? (costs.get(e.episodeId)?.calls ?? 0) : state.missingLooValues(e);
  return budgetedLoo(
    [...episodes()],
    options.budget,
    costOf,
    async (chosen) => {
      const values = new Map<number, Float64Array>();
      await forEachConcurrently(chosen[Symbol.iterator](), concurrency, async (e) => {
        const rows = ctx.signal.aborted ? undefined : await state.compute(e);
        if (rows)
          values.set(
            e.episodeId,
            Float64Array.from(rows, (r) => r.value),
          );
      });
      return values;
    },
    options.budgetSeed,
  );
}

/**
 * Where the pass writes: a write worker for a pass of at least its `minEpisodes` episodes when the
 * job has one, else the pass's own connection (a dry run writes nothing).
 */
function openWrites(ctx: RunContext, total: number): CreditWrites {
  const worker = ctx.writeWorker;
  if (!worker || ctx.options.dryRun || total < worker.minEpisodes) return directCreditWrites(ctx.output);
  // The worker writes the stale mark, so that its sync (a new WAL file's) is not this thread's.
  return startCreditWrites(worker.script, worker.dbPath, ctx.staleMark?.take());
}

/** Each episode's estimated cost, by episode id. */
async function episodeCosts(
  episodes: Iterator<CreditEpisode>,
  state: RunState,
  concurrency = 4,
): Promise<Map<number, ReplayCost>> {
  const costs = new Map<number, ReplayCost>();
  await forEachConcurrently(episodes, concurrency, async (episode) => {
    costs.set(episode.episodeId, await state.cost(episode));
  });
  return costs;
}

/** What the evaluator spent in this run, for evaluators that report it. */
function usageOf(
  evaluator: Evaluator | undefined,
  state: RunState,
  estimate: ReplayCost | undefined,
): EvaluatorUsage | undefined {
  const stats = evaluator?.usage?.();
  if (!stats) return undefined;
  return { ...stats, failedEpisodes: state.failures.failed, ...(estimate ? { estimate } : {}) };
}

/** The run's roster from its manifest (`run.config_json`), for trace lines that declare none. */
export function manifestRoster(configJson: string | null): readonly AgentDecl[] | undefined {
  if (!configJson) return undefined;
  const agents = (JSON.parse(configJson) as { agents?: unknown }).agents;
  return Array.isArray(agents) ? (agents as AgentDecl[]) : undefined;
}
