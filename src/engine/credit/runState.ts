import type { CreditEpisode, CreditParams, CreditRow } from '../../core/creditInput';
import { NotIdentifiableError, type Unidentified } from '../../core/provenance';
import type { ReplayCost } from '../../credit/replay/replayCost';
import type { CreditInputRepository, CreditRun } from '../../store/creditInputRepository';
import type { CreditFailure, CreditRepository } from '../../store/creditRepository';
import type { RunProducerRepository } from '../../store/runProducerRepository';
import { interventionKey, type Evaluator } from '../evaluators/evaluator';
import {
  CoalitionValues,
  type CachedEvaluation,
  type CoalitionValueSources,
  type NewEvaluation,
  type ValueCounters,
} from './coalitionValues';
import type { CreditJobHooks, CreditJobOptions } from './creditJob';
import { FailureTally } from './failureTally';
import { AgentSummaryTally } from './creditSummary';
import { episodeCredit, episodeCreditNow, type EpisodeCreditInput, type EpisodeCreditOutput } from './episodeCredit';
import { GroupAdvantages } from './groupAdvantages';
import type { MessageCreditResult } from './messageCredit';
import type { MonteCarloSettings } from './monteCarloCredit';
import { recordingEvaluator } from './recordingEvaluator';
import type { StreamedSignalTally } from './signalPass';
import type { CreditWrites } from './creditWrites';
import type { AggregateTally } from './aggregateTally';
import { StartOrder } from './startOrder';
import type { StaleMark, TalliedAggregates } from '../../store/viewAggregates';
import type { SignalCell } from '../../store/signalRepository';

/** What every run of a job shares. */
export interface RunContext {
  readonly options: CreditJobOptions;
  readonly hooks: CreditJobHooks;
  readonly input: CreditInputRepository;
  readonly output: CreditRepository;
  readonly counters: ValueCounters;
  readonly producers: RunProducerRepository;
  /** Fires when the job is cancelled; aborts evaluator calls in flight. */
  readonly signal: AbortSignal;
  /** The tolerances the dashboard's aggregates keep idle counts at (a whole pass tallies them, aggregateTally.ts). */
  readonly tolerances: readonly number[];
  /** Where passes of at least `minEpisodes` write (creditWrites.ts): the built `dist/indexWorker.js` and the index file. */
  readonly writeWorker?: { readonly script: string; readonly dbPath: string; readonly minEpisodes: number };
  /** The stale mark of the run's aggregates, which a pass writing in a worker takes (viewAggregates.ts); none in a dry run. */
  readonly staleMark?: StaleMark;
}

/** How one episode's computation ended: its rows, or what it threw. */
type EpisodeOutcome = { readonly result: EpisodeCreditOutput } | { readonly error: unknown };

const writeEvery = 250;
/** Least time between two progress reports while an evaluator that calls a server runs. */
const usageReportMs = 500;

/** Accumulates rows, failures and new evaluations of a run and writes them in batches. */
export class RunState {
  computed = 0;
  readonly failures = new FailureTally();
  readonly methods = new Set<string>();
  /** Running per-agent summary of every agent-level value of the primary method. */
  readonly summary = new AgentSummaryTally();
  private rows = new Map<string, CreditRow[]>();
  private pendingFailures: CreditFailure[] = [];
  private fresh: NewEvaluation[] = [];
  private sinceWrite = 0;
  /** Episodes computing that wait for a value (an evaluator's); see {@link compute}. */
  private waiting = 0;
  private readonly order = new StartOrder();
  private passSources: CoalitionValueSources | undefined;
  private lastUsageReport = 0;
  /** Whether the run's evaluator may be trusted (set by the run, see creditForRun). */
  trust: () => Promise<Unidentified | undefined> = () => Promise.resolve(undefined);
  /**
   * Set ({@link writesWhole}) when the run writes every row of its parameter set: rows then get their
   * group advantages before they are written, and no earlier rows of the parameter set need
   * replacing. Every episode the pass finishes, accepted or failed, goes through it.
   */
  groupAdvantages: GroupAdvantages | undefined;
  /** The sign disagreement tallied as groups close, when the pass tallies it (see {@link writesWhole}). */
  private signal: StreamedSignalTally | undefined;
  /** The dashboard's aggregates tallied as episodes finish (see {@link writesWhole}). */
  private aggregates: AggregateTally | undefined;

  constructor(
    private readonly run: CreditRun,
    private readonly params: CreditParams,
    private readonly ctx: RunContext,
    private readonly total: number,
    private readonly evaluator: Evaluator | undefined,
    private readonly monteCarlo: MonteCarloSettings,
    /** Where the pass's rows, failures and evaluations go; the pass's thread writes nothing else while it runs. */
    readonly writes: CreditWrites,
  ) {}

  /**
   * The pass writes every row of its parameter set: rows get their group advantages (`advantages`)
   * before they are written, `signal`, when given, tallies each group as it closes, and `aggregates`
   * each episode as it finishes.
   */
  writesWhole(
    advantages: (values: Float64Array) => Float64Array,
    signal?: StreamedSignalTally,
    aggregates?: AggregateTally,
  ): void {
    this.signal = signal;
    this.aggregates = aggregates;
    this.groupAdvantages = new GroupAdvantages(advantages, signal && ((group) => signal.addGroup(group)));
  }

  /**
   * The tallied sign-disagreement cells, when they are those the stored credit gives: every episode
   * read was accepted or failed, once (none cut short by cancellation), and the advantages the tally
   * saw are those written (groups stayed contiguous: no stored-rows update overwrote them).
   */
  signalCells(): SignalCell[] | undefined {
    const whole = this.groupAdvantages?.contiguous === true && this.computed + this.failures.total === this.total;
    return whole ? this.signal?.cells() : undefined;
  }

  /** The dashboard's aggregates of the rows written, when the pass tallied them (every episode it finished is written). */
  aggregateCells(): TalliedAggregates | undefined {
    return this.aggregates?.cells();
  }

  /**
   * Computes one episode; returns its agent-level rows of the primary method, or undefined when it
   * failed. An episode cut short by cancellation is neither stored nor counted as failed (a rerun
   * computes it, from the evaluations cached so far). A promise only when the episode waits for an
   * evaluator or the pass for its write worker: an episode from logged values is computed at once
   * (episodeCreditNow), without a promise per episode.
   */
  compute(episode: CreditEpisode): CreditRow[] | undefined | Promise<CreditRow[] | undefined> {
    // The pass's value sources are the same for every episode: made once.
    const sources = (this.passSources ??= this.sources(this.evaluator));
    const ticket = this.order.start();
    // While an episode waits, the next ones wait too (at most the pass's concurrency in flight), so
    // that the start order's buffer holds a few episodes, not a page.
    if (this.waiting > 0) return this.computeLater(episode, sources, ticket);
    let outcome: EpisodeOutcome;
    try {
      const now = episodeCreditNow(this.creditInput(episode, sources));
      if (now === undefined) return this.computeLater(episode, sources, ticket);
      outcome = { result: now };
    } catch (error) {
      outcome = { error };
    }
    return this.finished(episode, ticket, outcome);
  }

  private async computeLater(
    episode: CreditEpisode,
    sources: CoalitionValueSources,
    ticket: number,
  ): Promise<CreditRow[] | undefined> {
    let outcome: EpisodeOutcome;
    this.waiting++;
    try {
      outcome = { result: await this.credit(episode, sources) };
    } catch (error) {
      outcome = { error };
    } finally {
      this.waiting--;
    }
    return this.finished(episode, ticket, outcome);
  }

  /**
   * Takes a computed or failed episode, in start order ({@link StartOrder}); every
   * {@link writeEvery} episodes, writes and waits while the write worker is behind. Returns the
   * episode's agent-level rows of the primary method (undefined when it failed).
   */
  private finished(
    episode: CreditEpisode,
    ticket: number,
    outcome: EpisodeOutcome,
  ): CreditRow[] | undefined | Promise<CreditRow[] | undefined> {
    // Held for an earlier episode, it is taken later (as accepted, unless taking it throws then).
    const taken = this.order.finish(ticket, () => this.take(episode, outcome)) ?? true;
    const primary =
      taken && 'result' in outcome
        ? outcome.result.rows.get(this.params.method)?.filter((r) => r.messageSeq === null)
        : undefined;
    if (++this.sinceWrite >= writeEvery) {
      this.flush();
      // A write worker that falls behind holds the pass, not the memory.
      return this.writes.ready().then(() => primary);
    }
    this.reportUsage();
    return primary;
  }

  /**
   * Accepts a computed episode, or records its failure (none when the pass was cancelled: a rerun
   * computes it); false when it failed.
   */
  private take(episode: CreditEpisode, outcome: EpisodeOutcome): boolean {
    if ('result' in outcome)
      try {
        this.accept(episode, outcome.result.rows, outcome.result.messages);
        return true;
      } catch (error) {
        outcome = { error };
      }
    if (!this.ctx.signal.aborted) this.fail(episode, outcome.error);
    return false;
  }

  /**
   * What computing `episode` would cost the evaluator, without calling it: the method runs against
   * a recording evaluator (logged and cached values are free as in {@link compute}), and the
   * evaluator estimates the requests it recorded.
   */
  async cost(episode: CreditEpisode): Promise<ReplayCost> {
    const recorder = recordingEvaluator(this.evaluator);
    const sources: CoalitionValueSources = {
      ...this.sources(recorder.evaluator),
      counters: { logged: 0, cached: 0, evaluated: 0 },
      fresh: [],
      trust: () => Promise.resolve(undefined),
    };
    await this.credit(episode, sources).catch(() => undefined); // an episode that would fail costs what it asked
    return recorder.cost();
  }

  /** Evaluator calls an exact leave-one-out of `episode` would need (logged and cached values are free). */
  missingLooValues(episode: CreditEpisode): number {
    const n = episode.agents.length;
    const full = (1n << BigInt(n)) - 1n;
    const useLogged = this.ctx.options.useLogged ?? true;
    const masks = [full, ...Array.from({ length: n }, (_, i) => full & ~(1n << BigInt(i)))];
    const unlogged = masks.filter((mask) => !(useLogged && episode.loggedCoalitions.has(mask)));
    if (unlogged.length === 0 || !this.evaluator) return unlogged.length;
    const cache = this.ctx.output.cachedEvaluations(episode.episodeId, this.evaluator.fingerprint);
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
    this.writes.storeEvaluations(
      this.fresh.map((e) => ({ ...e, evaluator: this.params.params['evaluator'] as string })),
    );
    this.fresh.length = 0;
  }

  /** Writes what was computed so far; `final` (the end of the pass) also writes the rows waiting for their group. */
  flush(final = false): void {
    if (final) this.collect(this.groupAdvantages?.close() ?? []);
    const replace = this.groupAdvantages === undefined;
    for (const [method, rows] of this.rows)
      this.writes.writeCredit(
        this.run.runId,
        { ...this.params, method },
        rows,
        method === this.params.method ? this.pendingFailures : [],
        replace,
      );
    if (!this.rows.has(this.params.method) && this.pendingFailures.length > 0)
      this.writes.writeCredit(this.run.runId, this.params, [], this.pendingFailures, replace);
    this.storeFresh();
    this.rows = new Map();
    this.pendingFailures = [];
    this.sinceWrite = 0;
    this.ctx.hooks.onProgress?.(this.computed + this.failures.total, this.total, this.run.name);
    this.reportUsage(true);
  }

  /** Where values come from with `evaluator`, for any episode. */
  private sources(evaluator: Evaluator | undefined): CoalitionValueSources {
    const loadCache = (episodeId: number): ReadonlyMap<string, CachedEvaluation> =>
      evaluator ? this.ctx.output.cachedEvaluations(episodeId, evaluator.fingerprint) : new Map();
    return {
      loadCache,
      evaluator,
      counters: this.ctx.counters,
      fresh: this.fresh,
      useLogged: this.ctx.options.useLogged ?? true,
      sequential: readsEarlierMessages(this.run.mechanism),
      trust: () => this.trust(),
    };
  }

  private credit(episode: CreditEpisode, sources: CoalitionValueSources): Promise<EpisodeCreditOutput> {
    return episodeCredit(this.creditInput(episode, sources));
  }

  private creditInput(episode: CreditEpisode, sources: CoalitionValueSources): EpisodeCreditInput {
    const make = (kind: 'agents' | 'messages') => () => new CoalitionValues(episode, kind, sources);
    return {
      episode,
      method: this.ctx.options.method,
      values: make('agents'),
      messageValues: make('messages'),
      monteCarlo: this.monteCarlo,
      ...(this.evaluator?.intervention ? { intervention: this.evaluator.intervention } : {}),
    };
  }

  /** Queues episodes' rows for the next write. */
  private collect(episodes: readonly ReadonlyMap<string, readonly CreditRow[]>[]): void {
    for (const rows of episodes)
      for (const [method, list] of rows) {
        const target = this.rows.get(method) ?? [];
        target.push(...list);
        this.rows.set(method, target);
      }
  }

  private fail(episode: CreditEpisode, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    const failure: CreditFailure =
      error instanceof NotIdentifiableError
        ? { episodeId: episode.episodeId, reason, status: 'not-identifiable', remedy: error.remedy }
        : { episodeId: episode.episodeId, reason };
    this.failures.add({
      ...failure,
      where: `${episode.uri}:${episode.line}`,
      episode: episode.externalId,
      step: episode.step,
    });
    this.pendingFailures.push(failure);
    this.aggregates?.failed(episode, failure.status === 'not-identifiable');
    // Its group is incomplete without it: the shared reward's advantages are over every episode of a group.
    this.collect(this.groupAdvantages?.add(episode, new Map()) ?? []);
  }

  /** Progress with the evaluator's calls and tokens, at most every {@link usageReportMs} (or now, when `force`). */
  private reportUsage(force = false): void {
    const usage = this.evaluator?.usage?.();
    if (!usage) return;
    const now = Date.now();
    if (!force && now - this.lastUsageReport < usageReportMs) return;
    this.lastUsageReport = now;
    if (!force) this.ctx.hooks.onProgress?.(this.computed + this.failures.total, this.total, this.run.name);
    this.ctx.hooks.onReplayStats?.(usage);
  }

  private accept(
    episode: CreditEpisode,
    rows: ReadonlyMap<string, readonly CreditRow[]>,
    messages: MessageCreditResult | undefined,
  ): void {
    this.computed++;
    for (const method of rows.keys()) this.methods.add(method);
    this.aggregates?.accepted(episode, rows);
    this.collect(this.groupAdvantages ? this.groupAdvantages.add(episode, rows) : [rows]);
    const agents = episode.agents;
    const primary = rows.get(this.params.method) ?? [];
    for (let k = 0; k < primary.length; k++) {
      const row = primary[k] as CreditRow;
      if (row.messageSeq !== null) continue;
      // Agent-level rows come in roster order (agentRows): the agent at the row's own index, else found.
      const at = agents[k]?.agentId === row.agentId ? agents[k] : agents.find((a) => a.agentId === row.agentId);
      this.summary.add(at?.name ?? String(row.agentId), episode.step ?? 0, row.value, row.status);
    }
    this.ctx.hooks.onEpisode?.({ episode, rows, ...(messages ? { messages } : {}) });
  }
}

/** Runs `fn` over an iterator with at most `limit` calls in flight (a call that returns no promise is done). */
export async function forEachConcurrently<T>(
  items: Iterator<T>,
  limit: number,
  fn: (item: T) => Promise<void> | void,
): Promise<void> {
  const worker = async (): Promise<void> => {
    for (let next = items.next(); !next.done; next = items.next()) {
      const pending = fn(next.value);
      if (pending) await pending;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
}

/**
 * Whether a run's agents read earlier agents' messages (which decides when a removal without replay
 * is exact, credit-methods.md §3.1): agents of a pipeline or a debate do, voters and routed experts
 * do not; an unknown mechanism is assumed to.
 */
export function readsEarlierMessages(mechanism: string | null): boolean {
  return mechanism !== 'vote' && mechanism !== 'routed';
}
