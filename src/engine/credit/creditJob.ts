import type { CreditEpisode, CreditParams, CreditRow } from '../../core/creditInput';
import { advantagesFor } from '../../credit/signals/advantageConventions';
import { CreditInputRepository, type CreditRun } from '../../store/creditInputRepository';
import { CreditRepository, type CreditFailure, type CreditOutputRow } from '../../store/creditRepository';
import { IndexStore } from '../../store/indexStore';
import { findIndexLocation } from '../indexLocation';
import { NoIndexError } from '../indexJob';
import { interventionKey, type Evaluator } from '../evaluators/evaluator';
import { budgetedLoo, type BudgetReport } from './budgetedLoo';
import { CoalitionValues, type CachedEvaluation, type NewEvaluation, type ValueCounters } from './coalitionValues';
import {
  calibrateEvaluator,
  calibrationDistrust,
  type CalibrationOptions,
  type CalibrationResult,
} from './calibration';
import { NotIdentifiableError, type ComputedStatus, type Unidentified } from '../../core/provenance';
import { coalitionMethods, perMessageMethods, type CreditMethodName } from './creditMethod';
import { creditParams } from './creditParams';
import { agentSummaries, type AgentSummary } from './creditSummary';
import { episodeCredit } from './episodeCredit';
import type { MessageCreditResult } from './messageCredit';
import { defaultMonteCarlo, type MonteCarloSettings } from './monteCarloCredit';
import { chooseEvaluator, type EvaluatorChoice } from './chooseEvaluator';
import { chooseAdvantageConvention, type AdvantageChoice } from './advantageConvention';
import { RunProducerRepository } from '../../store/runProducerRepository';
import { defaultSplit, type SplitChoice } from '../../core/split';

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
  /** `loo` only: expected evaluator calls to spend; the rest is estimated (credit-methods.md §3.16). */
  readonly budget?: number;
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
  /** Episodes that failed or are not identifiable (see `status`), with their file and line. */
  readonly failures: readonly RunFailure[];
  /** Episodes the data could not answer (a subset of `failures`). */
  readonly unidentified: number;
  readonly agents: readonly AgentSummary[];
  readonly budget?: BudgetReport;
  /** The evaluator's calibration on this run, when one was needed. */
  readonly calibration?: CalibrationResult;
  /** The convention the group advantages were computed with, and where it came from. */
  readonly advantage: AdvantageChoice;
}

/** A failed or not-identifiable episode of a run, with where it is. */
export type RunFailure = CreditFailure & {
  readonly where: string;
  readonly episode: string;
  readonly step: number | null;
};

export interface CreditJobResult {
  readonly runs: readonly RunCreditResult[];
  readonly values: Readonly<ValueCounters>;
  readonly elapsedMs: number;
}

export interface CreditJobHooks {
  readonly isCancelled?: () => boolean;
  readonly onEpisode?: (report: EpisodeCreditReport) => void;
  /** Episodes done and in total for the run being computed (called every few hundred episodes). */
  readonly onProgress?: (done: number, total: number, run: string) => void;
  /** Called once a run's rows (with their group advantages) are stored, while the index is open. */
  readonly onRunStored?: (result: RunCreditResult, rows: IterableIterator<CreditOutputRow>) => void;
}

const writeEvery = 250;

/**
 * Computes one credit method over every run of an indexed folder: reads episodes from the index,
 * takes logged values first, then cached evaluations, then calls the evaluator, and replaces each
 * episode's credit rows in one transaction (an episode that fails gets an error row, never partial
 * credit). Afterwards, GRPO group-relative advantages are computed on the new values.
 */
export async function runCreditJob(options: CreditJobOptions, hooks: CreditJobHooks = {}): Promise<CreditJobResult> {
  const started = Date.now();
  const location = findIndexLocation(options.root, options.dbPath);
  if (!location)
    throw new NoIndexError(`no index for ${options.root}; run \`credit-lens index ${options.root}\` first`);
  const store = IndexStore.open(location.path);
  const counters: ValueCounters = { logged: 0, cached: 0, evaluated: 0 };
  try {
    const input = new CreditInputRepository(store.db);
    const output = new CreditRepository(store.db);
    const runs: RunCreditResult[] = [];
    const selected = input
      .runs()
      .filter((r) => options.run === undefined || r.name === options.run || r.root === options.run);
    if (options.run !== undefined && selected.length === 0)
      throw new Error(`no run named "${options.run}" in ${options.root}`);
    const [from, to] = options.steps ?? [-Infinity, Infinity];
    const split = options.split ?? defaultSplit;
    for (const run of selected) {
      if (hooks.isCancelled?.()) break;
      if (options.episodes && input.countEpisodes(run.runId, from, to, options.episodes, split) === 0) continue;
      const result = await creditForRun(run, {
        options,
        hooks,
        input,
        output,
        counters,
        producers: new RunProducerRepository(store.db),
      });
      if (hooks.onRunStored) {
        const rows = output.outputRows(run.runId, result.params.hash, from, to, split);
        try {
          hooks.onRunStored(result, rows);
        } finally {
          rows.return?.(); // an unfinished iteration would keep the connection busy for the next write
        }
      }
      runs.push(result);
    }
    return { runs, values: counters, elapsedMs: Date.now() - started };
  } finally {
    store.close();
  }
}

interface RunContext {
  readonly options: CreditJobOptions;
  readonly hooks: CreditJobHooks;
  readonly input: CreditInputRepository;
  readonly output: CreditRepository;
  readonly counters: ValueCounters;
  readonly producers: RunProducerRepository;
}

async function creditForRun(run: CreditRun, ctx: RunContext): Promise<RunCreditResult> {
  const { options } = ctx;
  // Chosen first: an unknown convention fails before an evaluator is started.
  const advantage = chooseAdvantageConvention(run.name, ctx.producers.producer(run.runId), options.advantage);
  const needsEvaluator = coalitionMethods.has(options.method) || perMessageMethods.has(options.method);
  const evaluator = needsEvaluator ? chooseEvaluator(run, options.root, options.evaluator) : undefined;
  const monteCarlo = { ...defaultMonteCarlo, ...options.monteCarlo };
  const params = creditParams(options.method, {
    advantage: advantage.convention.name,
    ...(options.budget !== undefined ? { budget: options.budget } : {}),
    evaluator: evaluator?.fingerprint ?? null,
    // The default action d_i defines the game (credit-methods.md §2): logged values carry their own
    // intervention in the index; evaluators are asked for removals (⊥).
    ...(needsEvaluator ? { intervention: evaluator ? 'remove' : 'logged' } : {}),
    ...(options.useLogged === false ? { useLogged: false } : {}),
    ...(options.method === 'shapley-mc' ? { monteCarlo } : {}),
  });
  const [from, to] = options.steps ?? [-Infinity, Infinity];
  const split = options.split ?? defaultSplit;
  const episodes = (): Generator<CreditEpisode> =>
    ctx.input.episodes(run.runId, from, to, undefined, options.episodes, split);
  const total = ctx.input.countEpisodes(run.runId, from, to, options.episodes, split);
  const state = new RunState(run, params, ctx, total);
  // Calibrated once, on first need, over the whole run (not only the episodes being recomputed).
  let calibration: Promise<CalibrationResult> | undefined;
  state.trust = async (): Promise<Unidentified | undefined> => {
    if (!evaluator) return undefined;
    calibration ??= calibrateEvaluator(
      evaluator,
      ctx.input.episodes(run.runId, undefined, undefined, undefined, undefined, split),
      ctx.input.countEpisodes(run.runId, undefined, undefined, undefined, split),
      state.calibrationIo(evaluator),
      options.calibration,
    ).then((result) => {
      ctx.output.storeCalibration(run.runId, result);
      state.storeFresh(); // so episodes find the factual values calibration just scored
      return result;
    });
    return calibrationDistrust(await calibration);
  };
  let budget: BudgetReport | undefined;
  try {
    const compute = (episode: CreditEpisode) => state.compute(episode, evaluator, monteCarlo);
    if (options.budget !== undefined) {
      if (options.method !== 'loo') throw new Error('--budget applies to the loo method');
      budget = await budgetedLoo(
        [...episodes()],
        options.budget,
        (e) => state.missingLooValues(e, evaluator),
        async (chosen) => {
          const values = new Map<number, Float64Array>();
          await forEachConcurrently(chosen[Symbol.iterator](), options.concurrency ?? 4, async (e) => {
            const rows = await compute(e);
            if (rows)
              values.set(
                e.episodeId,
                Float64Array.from(rows, (r) => r.value),
              );
          });
          return values;
        },
      );
    } else {
      await forEachConcurrently(episodes(), options.concurrency ?? 4, async (episode) => {
        if (!ctx.hooks.isCancelled?.()) await compute(episode);
      });
    }
    state.flush();
    for (const method of state.methods)
      ctx.output.updateGroupAdvantages(
        run.runId,
        { ...params, method },
        (v) => advantagesFor(advantage.convention, v),
        options.episodes,
      );
  } finally {
    await evaluator?.close();
  }
  return {
    run,
    params,
    evaluator: evaluator?.fingerprint,
    computed: state.computed,
    failures: state.failures,
    unidentified: state.failures.filter((f) => f.status === 'not-identifiable').length,
    agents: agentSummaries(state.agentValues),
    ...(budget ? { budget } : {}),
    ...(calibration
      ? await calibration.then(
          (c) => ({ calibration: c }),
          () => ({}),
        )
      : {}),
    advantage,
  };
}

/** Accumulates rows, failures and new evaluations of a run and writes them in batches. */
class RunState {
  computed = 0;
  readonly failures: RunFailure[] = [];
  readonly methods = new Set<string>();
  /** Agent name → [step, value, status] of every agent-level value of the primary method. */
  readonly agentValues = new Map<string, [number, number, ComputedStatus][]>();
  private rows = new Map<string, CreditRow[]>();
  private pendingFailures: CreditFailure[] = [];
  private fresh: NewEvaluation[] = [];
  private sinceWrite = 0;
  /** Whether the run's evaluator may be trusted (set by the run, see creditForRun). */
  trust: () => Promise<Unidentified | undefined> = () => Promise.resolve(undefined);

  constructor(
    private readonly run: CreditRun,
    private readonly params: CreditParams,
    private readonly ctx: RunContext,
    private readonly total: number,
  ) {}

  /** Computes one episode; returns its agent-level rows of the primary method, or undefined when it failed. */
  async compute(
    episode: CreditEpisode,
    evaluator: Evaluator | undefined,
    monteCarlo: MonteCarloSettings,
  ): Promise<CreditRow[] | undefined> {
    const loadCache = (): ReadonlyMap<string, CachedEvaluation> =>
      evaluator ? this.ctx.output.cachedEvaluations(episode.episodeId, evaluator.fingerprint) : new Map();
    const sources = {
      loadCache,
      evaluator,
      counters: this.ctx.counters,
      fresh: this.fresh,
      useLogged: this.ctx.options.useLogged ?? true,
      // Agents of a pipeline or a debate read earlier messages; an unknown mechanism is assumed to.
      sequential: this.run.mechanism !== 'vote' && this.run.mechanism !== 'routed',
      trust: () => this.trust(),
    };
    const make = (kind: 'agents' | 'messages') => () => new CoalitionValues(episode, kind, sources);
    let primary: CreditRow[] | undefined;
    try {
      const result = await episodeCredit({
        episode,
        method: this.ctx.options.method,
        values: make('agents'),
        messageValues: make('messages'),
        monteCarlo,
      });
      this.accept(episode, result.rows, result.messages);
      primary = result.rows.get(this.params.method)?.filter((r) => r.messageSeq === null);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const failure: CreditFailure =
        error instanceof NotIdentifiableError
          ? { episodeId: episode.episodeId, reason, status: 'not-identifiable', remedy: error.remedy }
          : { episodeId: episode.episodeId, reason };
      this.failures.push({
        ...failure,
        where: `${episode.uri}:${episode.line}`,
        episode: episode.externalId,
        step: episode.step,
      });
      this.pendingFailures.push(failure);
    }
    if (++this.sinceWrite >= writeEvery) this.flush();
    return primary;
  }

  /** Evaluator calls an exact leave-one-out of `episode` would need (logged and cached values are free). */
  missingLooValues(episode: CreditEpisode, evaluator: Evaluator | undefined): number {
    const n = episode.agents.length;
    const full = (1n << BigInt(n)) - 1n;
    const useLogged = this.ctx.options.useLogged ?? true;
    const masks = [full, ...Array.from({ length: n }, (_, i) => full & ~(1n << BigInt(i)))];
    const unlogged = masks.filter((mask) => !(useLogged && episode.loggedCoalitions.has(mask)));
    if (unlogged.length === 0 || !evaluator) return unlogged.length;
    const cache = this.ctx.output.cachedEvaluations(episode.episodeId, evaluator.fingerprint);
    return unlogged.filter((mask) => !cache.has(interventionKey(episode, 'agents', mask))).length;
  }

  /** Where calibration finds cached values and leaves new ones. */
  calibrationIo(evaluator: Evaluator) {
    return {
      cache: (episodeId: number) => this.ctx.output.cachedEvaluations(episodeId, evaluator.fingerprint),
      fresh: this.fresh,
      counters: this.ctx.counters,
    };
  }

  /** Writes the new evaluations so far to the cache. */
  storeFresh(): void {
    if (this.fresh.length === 0) return;
    this.ctx.output.storeEvaluations(
      this.fresh.map((e) => ({ ...e, evaluator: this.params.params['evaluator'] as string })),
    );
    this.fresh.length = 0;
  }

  flush(): void {
    for (const [method, rows] of this.rows)
      this.ctx.output.writeCredit(
        this.run.runId,
        { ...this.params, method },
        rows,
        method === this.params.method ? this.pendingFailures : [],
      );
    if (!this.rows.has(this.params.method) && this.pendingFailures.length > 0)
      this.ctx.output.writeCredit(this.run.runId, this.params, [], this.pendingFailures);
    this.storeFresh();
    this.rows = new Map();
    this.pendingFailures = [];
    this.sinceWrite = 0;
    this.ctx.hooks.onProgress?.(this.computed + this.failures.length, this.total, this.run.name);
  }

  private accept(
    episode: CreditEpisode,
    rows: ReadonlyMap<string, readonly CreditRow[]>,
    messages: MessageCreditResult | undefined,
  ): void {
    this.computed++;
    for (const [method, list] of rows) {
      this.methods.add(method);
      const target = this.rows.get(method) ?? [];
      target.push(...list);
      this.rows.set(method, target);
    }
    for (const row of rows.get(this.params.method) ?? []) {
      if (row.messageSeq !== null) continue;
      const name = episode.agents.find((a) => a.agentId === row.agentId)?.name ?? String(row.agentId);
      const list = this.agentValues.get(name) ?? [];
      list.push([episode.step ?? 0, row.value, row.status]);
      this.agentValues.set(name, list);
    }
    this.ctx.hooks.onEpisode?.({ episode, rows, ...(messages ? { messages } : {}) });
  }
}

/** Runs `fn` over an iterator with at most `limit` calls in flight. */
async function forEachConcurrently<T>(
  items: Iterator<T>,
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  const worker = async (): Promise<void> => {
    for (let next = items.next(); !next.done; next = items.next()) await fn(next.value);
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
}
