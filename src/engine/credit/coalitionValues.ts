import type { CreditEpisode } from '../../core/creditInput';
import { interventionKey, type Evaluator } from '../evaluators/evaluator';

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
}

/**
 * The values v(S) of one episode's coalitions (or message subsets), taken in this order: logged in
 * the trace, cached in the index, evaluated. "Logged values first": an evaluator is never called
 * for a value the trace already carries.
 */
export class CoalitionValues {
  private readonly known = new Map<number, number>();
  /** Masks whose value came from an evaluator that does not replay downstream agents. */
  readonly unreplayed = new Set<number>();
  private usedLogged = false;
  private usedEvaluator = false;
  private cached: ReadonlyMap<string, number> | undefined;

  constructor(
    readonly episode: CreditEpisode,
    readonly kind: 'agents' | 'messages',
    /** The episode's cached evaluations, read on first need (a fully logged episode costs no query). */
    private readonly loadCache: () => ReadonlyMap<string, number>,
    private readonly evaluator: Evaluator | undefined,
    private readonly counters: ValueCounters,
    private readonly fresh: NewEvaluation[],
    /** False to ignore logged values and evaluate everything (validating an evaluator, benchmarks). */
    private readonly useLogged = true,
  ) {}

  /** Resolves every mask in `masks` (logged, cached or evaluated in one evaluator request). */
  async require(masks: Iterable<number>): Promise<void> {
    const missing: number[] = [];
    for (const mask of masks) {
      if (this.known.has(mask)) continue;
      const logged = this.kind === 'agents' && this.useLogged ? this.episode.loggedCoalitions.get(mask) : undefined;
      if (logged !== undefined) {
        this.known.set(mask, logged);
        this.usedLogged = true;
        this.counters.logged++;
        continue;
      }
      this.cached ??= this.loadCache();
      const cached = this.cached.get(interventionKey(this.episode, this.kind, mask));
      if (cached !== undefined) {
        this.known.set(mask, cached);
        this.markEvaluated(mask);
        this.counters.cached++;
      } else if (!missing.includes(mask)) missing.push(mask);
    }
    if (missing.length > 0) await this.evaluate(missing);
  }

  /** v(S) of a mask resolved by {@link require}. */
  value(mask: number): number {
    const value = this.known.get(mask);
    if (value === undefined) throw new Error(`coalition ${mask} was not resolved before use`);
    return value;
  }

  private async evaluate(masks: number[]): Promise<void> {
    if (!this.evaluator) {
      throw new Error(`needs ${masks.length} counterfactual value(s) the trace does not log, and no evaluator is configured`);
    }
    const results = await this.evaluator.evaluate({ episode: this.episode, kind: this.kind, masks });
    for (const mask of masks) {
      const value = results.get(mask);
      if (value === undefined || !Number.isFinite(value)) throw new Error(`the evaluator returned no valid reward for ${interventionKey(this.episode, this.kind, mask)}`);
      this.known.set(mask, value);
      this.markEvaluated(mask);
      this.counters.evaluated++;
      this.fresh.push({ episodeId: this.episode.episodeId, intervention: interventionKey(this.episode, this.kind, mask), value });
    }
  }

  /** Where the values used so far came from: the trace, an evaluator (cached or fresh), or both. */
  source(): 'logged' | 'evaluated' | 'mixed' {
    if (!this.usedEvaluator) return 'logged';
    return this.usedLogged ? 'mixed' : 'evaluated';
  }

  private markEvaluated(mask: number): void {
    this.usedEvaluator = true;
    if (!this.evaluator?.replays) this.unreplayed.add(mask);
  }
}
