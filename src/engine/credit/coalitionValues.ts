import type { CreditEpisode } from '../../core/creditInput';
import { NotIdentifiableError, remedies, type Unidentified, type ValueSource } from '../../core/provenance';
import { EvaluationError, interventionKey, maskMembers, type Evaluator } from '../evaluators/evaluator';

/** How one pass obtained its coalition values; the hit rate is `cached / (cached + evaluated)`. */
export interface ValueCounters {
  logged: number;
  cached: number;
  evaluated: number;
}

/** A new evaluator result, to be written to the persistent cache. */
export interface NewEvaluation {
  readonly episodeId: number;
  readonly intervention: string;
  readonly value: number;
  readonly replayed: boolean;
}

/** A cached evaluator result. */
export interface CachedEvaluation {
  readonly value: number;
  readonly replayed: boolean;
}

/** One resolved value with its provenance. */
export interface ValueInfo {
  readonly value: number;
  readonly source: ValueSource;
  /**
   * False when the value removed an agent (or message) whose output later agents read and nothing
   * was re-generated: it only approximates the counterfactual (credit-methods.md §3.1).
   */
  readonly exact: boolean;
  /** True when an evaluator re-generated what follows the intervention (now or in the cached run). */
  readonly replayed?: boolean;
}

/** What a {@link CoalitionValues} needs besides the episode. */
export interface CoalitionValueSources {
  /** An episode's cached evaluations, read on first need (a fully logged episode costs no query). */
  readonly loadCache: (episodeId: number) => ReadonlyMap<string, CachedEvaluation>;
  readonly evaluator: Evaluator | undefined;
  readonly counters: ValueCounters;
  readonly fresh: NewEvaluation[];
  /** False to ignore logged values and evaluate everything (validating an evaluator, benchmarks). */
  readonly useLogged: boolean;
  /** True when agents read earlier agents' messages (pipeline, debate, unknown mechanism). */
  readonly sequential: boolean;
  /**
   * Resolved before the evaluator is first used for this episode: why its values cannot be trusted
   * for the run (a checker that does not reproduce the logged rewards), or undefined when they can.
   */
  readonly trust: () => Promise<Unidentified | undefined>;
}

/** Agreement between a checker's v(N) and the logged reward of the same episode. */
const agreementTolerance = 1e-6;

/**
 * The values v(S) of one episode's coalitions (or message subsets), taken in this order: logged in
 * the trace, cached in the index, evaluated. "Logged values first": an evaluator is never called
 * for a value the trace already carries. Every value keeps its source and whether it is exact
 * (docs/credit-provenance.md). Masks are bigints (bit i = agent or message i), so any size works.
 *
 * Evaluator values are used only when they can be trusted: the evaluator must be able to score the
 * episode, pass the run's calibration, and — for a checker, which is deterministic — reproduce the
 * episode's logged reward, since a logged v(N) is never combined with checked v(S) from a checker
 * that scores the factual episode differently. Otherwise {@link require} throws a
 * {@link NotIdentifiableError} naming the reason and the remedy.
 */
export class CoalitionValues {
  private readonly known = new Map<bigint, ValueInfo>();
  private cached: ReadonlyMap<string, CachedEvaluation> | undefined;
  private trusted = false;
  /** The masks whose logged value kept the downstream text, found on first need. */
  private withoutReplay: Set<bigint> | undefined;
  readonly full: bigint;

  constructor(
    readonly episode: CreditEpisode,
    readonly kind: 'agents' | 'messages',
    private readonly sources: CoalitionValueSources,
  ) {
    const size = kind === 'agents' ? episode.agents.length : episode.messageAuthors.length;
    this.full = (1n << BigInt(size)) - 1n;
  }

  /** Resolves every mask in `masks` (logged, cached or evaluated in one evaluator request). */
  async require(masks: Iterable<bigint>): Promise<void> {
    const missing = new Set<bigint>();
    for (const mask of masks) {
      if (this.known.has(mask) || missing.has(mask)) continue;
      const logged = this.sources.useLogged ? this.loggedValue(mask) : undefined;
      if (logged !== undefined) this.resolveAsLogged(mask, logged);
      else missing.add(mask);
    }
    if (missing.size === 0) return;
    await this.ensureTrusted();
    const toEvaluate: bigint[] = [];
    for (const mask of missing) {
      const cached = this.cache().get(interventionKey(this.episode, this.kind, mask));
      if (cached === undefined) toEvaluate.push(mask);
      else {
        this.known.set(mask, {
          value: cached.value,
          source: 'cached',
          exact: cached.replayed || this.checkedExactly(mask),
          ...(cached.replayed ? { replayed: true } : {}),
        });
        this.sources.counters.cached++;
      }
    }
    if (toEvaluate.length > 0) await this.evaluate(toEvaluate);
  }

  /**
   * Resolves every mask in `masks` now when each is logged (or resolved already), as {@link require}
   * would; false, with nothing resolved or counted, when one needs the evaluator (then
   * {@link require} it). Without an evaluator it throws as {@link require} would, after recording
   * the logged values: a pass from logged values computes (or fails) each episode at once, in
   * order, without a promise per episode.
   */
  resolveLogged(masks: readonly bigint[]): boolean {
    const useLogged = this.sources.useLogged;
    const resolvable = masks.every(
      (mask) => this.known.has(mask) || (useLogged && this.loggedValue(mask) !== undefined),
    );
    if (!resolvable && this.sources.evaluator) return false;
    for (const mask of masks) {
      const logged = useLogged && !this.known.has(mask) ? this.loggedValue(mask) : undefined;
      if (logged !== undefined) this.resolveAsLogged(mask, logged);
    }
    if (!resolvable) throw noEvaluatorError();
    return true;
  }

  /** v(S) of a mask resolved by {@link require}. */
  value(mask: bigint): number {
    return this.info(mask).value;
  }

  /** The value of a resolved mask with its source and exactness. */
  info(mask: bigint): ValueInfo {
    const info = this.known.get(mask);
    if (info === undefined) throw new Error(`${this.describe(mask)} was not resolved before use`);
    return info;
  }

  /** The sources of the values resolved so far. */
  sourcesUsed(): Set<ValueSource> {
    return new Set([...this.known.values()].map((v) => v.source));
  }

  /** True when every value resolved so far is exact. */
  allExact(): boolean {
    return [...this.known.values()].every((v) => v.exact);
  }

  /**
   * True when removing the absent members of `mask` without re-generating anything leaves the same
   * episode a replay would: no absent agent (or message) comes before the last present one, or the
   * agents do not read each other (vote, routing). Message subsets other than all or none are
   * never exact: a prefix's value is the expected reward of *continuing* from it.
   */
  checkedExactly(mask: bigint): boolean {
    if (mask === this.full || mask === 0n) return true;
    if (this.kind === 'messages') return false;
    if (!this.sources.sequential) return true;
    const authors = this.episode.messageAuthors;
    const present = memberTest(mask);
    let lastPresent = -1;
    authors.forEach((author, seq) => {
      if (present(author)) lastPresent = seq;
    });
    return authors.every((author, seq) => seq > lastPresent || present(author));
  }

  /** A mask in words: the agents present by name, or the message positions kept. */
  describe(mask: bigint): string {
    const members = maskMembers(mask);
    if (this.kind === 'messages') return `the messages ${members.map((i) => `#${i}`).join(', ') || '(none)'}`;
    return `the coalition {${members.map((i) => this.episode.agents[i]?.name ?? `#${i}`).join(', ')}}`;
  }

  /** Records the logged value of `mask`, approximate when it kept text that later agents read. */
  private resolveAsLogged(mask: bigint, logged: number): void {
    this.known.set(mask, {
      value: logged,
      source: 'logged',
      exact: !this.loggedWithoutReplay(mask) || this.checkedExactly(mask),
    });
    this.sources.counters.logged++;
  }

  /** True when the trace says its value of `mask` kept the downstream text (a `remove` counterfactual with `replayed: false`). */
  private loggedWithoutReplay(mask: bigint): boolean {
    if (this.kind !== 'agents') return false;
    this.withoutReplay ??= new Set(
      this.episode.loggedCounterfactuals
        .filter((cf) => cf.intervention === 'remove' && cf.replayed === false)
        .map((cf) => this.full & ~cf.removed),
    );
    return this.withoutReplay.has(mask);
  }

  private loggedValue(mask: bigint): number | undefined {
    if (this.kind === 'agents') return this.episode.loggedCoalitions.get(mask);
    // A replayed prefix value continues the episode; a logged coalition removes the rest: not the same game.
    if (this.sources.evaluator?.replays && mask !== this.full) return undefined;
    const agents = agentMaskOfMessages(this.episode, mask);
    return agents === undefined ? undefined : this.episode.loggedCoalitions.get(agents);
  }

  private cache(): ReadonlyMap<string, CachedEvaluation> {
    this.cached ??= this.sources.loadCache(this.episode.episodeId);
    return this.cached;
  }

  private async ensureTrusted(): Promise<void> {
    if (this.trusted) return;
    const evaluator = this.sources.evaluator;
    if (!evaluator) throw noEvaluatorError();
    const refusal = evaluator.cannotScore?.(this.episode);
    if (refusal !== undefined)
      throw new NotIdentifiableError(
        `${evaluator.label} cannot score this episode: ${refusal}`,
        remedies.counterfactuals,
      );
    const distrust = await this.sources.trust();
    if (distrust) throw new NotIdentifiableError(distrust.reason, distrust.remedy);
    this.trusted = true;
    await this.checkFactual(evaluator);
  }

  /** A checker must score the factual episode as logged, or its other values cannot be mixed with the log. */
  private async checkFactual(evaluator: Evaluator): Promise<void> {
    const fullAgents = (1n << BigInt(this.episode.agents.length)) - 1n;
    const logged = this.episode.reward;
    if (logged === null || !this.sources.useLogged) return;
    const key = interventionKey(this.episode, 'agents', fullAgents);
    let checked = this.cache().get(key);
    if (checked === undefined) {
      const result = await evaluator.evaluate({ episode: this.episode, kind: 'agents', masks: [fullAgents] });
      const value = result.rewards.get(fullAgents);
      if (value === undefined || !Number.isFinite(value)) return;
      checked = { value, replayed: result.replayed };
      this.sources.fresh.push({
        episodeId: this.episode.episodeId,
        intervention: key,
        value,
        replayed: result.replayed,
      });
      this.sources.counters.evaluated++;
    }
    if (!checked.replayed && Math.abs(checked.value - logged) > agreementTolerance) {
      throw new NotIdentifiableError(
        `${evaluator.label} scores this episode ${round(checked.value)} where the trace logs ${round(logged)}; its counterfactual values cannot be combined with the logged reward`,
        remedies.checker,
      );
    }
  }

  private async evaluate(masks: bigint[]): Promise<void> {
    const evaluator = this.sources.evaluator;
    if (!evaluator) throw new NotIdentifiableError('no evaluator is configured', remedies.counterfactuals);
    let result;
    try {
      result = await evaluator.evaluate({ episode: this.episode, kind: this.kind, masks });
    } catch (error) {
      // What was scored before the failure is cached (never stored as credit): a rerun resumes from it.
      if (error instanceof EvaluationError)
        for (const [mask, value] of error.partial)
          if (Number.isFinite(value)) this.remember(mask, value, error.replayed);
      throw error;
    }
    for (const mask of masks) {
      const value = result.rewards.get(mask);
      if (value === undefined || !Number.isFinite(value))
        throw new Error(`${evaluator.label} returned no valid reward for ${this.describe(mask)}`);
      this.remember(mask, value, result.replayed);
    }
  }

  /** Keeps an evaluated value and queues it for the persistent cache. */
  private remember(mask: bigint, value: number, replayed: boolean): void {
    this.known.set(mask, {
      value,
      source: replayed ? 'replayed' : 'checked',
      exact: replayed || this.checkedExactly(mask),
      ...(replayed ? { replayed: true } : {}),
    });
    this.sources.counters.evaluated++;
    this.sources.fresh.push({
      episodeId: this.episode.episodeId,
      intervention: interventionKey(this.episode, this.kind, mask),
      value,
      replayed,
    });
  }
}

/**
 * Whether member `index` is in `mask`: plain number bit tests when the mask fits in 30 bits, else
 * reads of its binary digits (written once), so a test costs O(1) rather than a shift of a long
 * bigint (a prefix of a 10,000-message episode is a 10,000-bit mask).
 */
function memberTest(mask: bigint): (index: number) => boolean {
  if (mask >= 1n << 30n) {
    const digits = mask.toString(2);
    const top = digits.length - 1;
    return (index) => index >= 0 && index <= top && digits.charCodeAt(top - index) === 49; // '1'
  }
  const bits = Number(mask);
  return (index) => index >= 0 && index < 30 && ((bits >> index) & 1) === 1;
}

/**
 * The agent coalition a message subset amounts to, when it keeps every message of some agents and
 * none of the others (agents without messages count as present, as in the factual episode); else
 * undefined. Lets per-message methods use the logged agent coalitions, so they agree with Shapley.
 */
function agentMaskOfMessages(episode: CreditEpisode, messages: bigint): bigint | undefined {
  const kept = new Map<number, boolean>();
  const isSet = memberTest(messages);
  for (const [seq, author] of episode.messageAuthors.entries()) {
    const present = isSet(seq);
    const seen = kept.get(author);
    if (seen !== undefined && seen !== present) return undefined;
    kept.set(author, present);
  }
  let mask = 0n;
  episode.agents.forEach((_, i) => {
    if (kept.get(i) ?? true) mask |= 1n << BigInt(i);
  });
  return mask;
}

/** Why values that are not logged cannot be had: no evaluator is configured. */
function noEvaluatorError(): NotIdentifiableError {
  return new NotIdentifiableError(
    'the trace logs none of the counterfactual values this method needs, and no evaluator is configured',
    remedies.counterfactuals,
  );
}

function round(value: number): string {
  return String(Math.round(value * 1e4) / 1e4);
}
