/**
 * Where a credit number comes from and how far it can be trusted (docs/credit-provenance.md).
 * Every coalition value has a {@link ValueSource}; every credit row has a {@link CreditStatus}
 * derived from the sources of the values it was computed from.
 */

/**
 * Where one counterfactual or coalition value came from:
 * - `logged`: the trace carries it (a logged counterfactual, coalition value or the team reward);
 * - `replayed`: an evaluator re-generated the agents downstream of the intervention, then scored it;
 * - `checked`: a checker scored the re-assembled final answer without re-generating anything;
 * - `cached`: read back from the index's evaluation cache (it was replayed or checked before);
 * - `estimated`: a Monte-Carlo or budgeted estimate, with its interval.
 */
export type ValueSource = 'logged' | 'replayed' | 'checked' | 'cached' | 'estimated';

export const valueSources: readonly ValueSource[] = ['logged', 'replayed', 'checked', 'cached', 'estimated'];

/**
 * How a credit value may be read:
 * - `exact`: computed from values that are the counterfactuals they stand for;
 * - `estimated`: a sampled estimate (Monte-Carlo Shapley, budgeted LOO, routing IPW) with its interval;
 * - `approximate`: at least one value removed an agent whose output later agents read, without
 *   re-generating them (the downstream text still carries the removed information);
 * - `not-identifiable`: the data cannot answer; the row says why and what would answer it.
 */
export type CreditStatus = 'exact' | 'estimated' | 'approximate' | 'not-identifiable';

/** The statuses a stored (numeric) credit row can have. */
export type ComputedStatus = Exclude<CreditStatus, 'not-identifiable'>;

const statusRank: Readonly<Record<CreditStatus, number>> = {
  exact: 0,
  estimated: 1,
  approximate: 2,
  'not-identifiable': 3,
};

/** The weaker of two statuses (exact < estimated < approximate < not identifiable). */
export function weakerStatus<S extends CreditStatus>(a: S, b: S): S {
  return statusRank[a] >= statusRank[b] ? a : b;
}

/** A set of sources as stored and printed: in the order of {@link valueSources}, joined by `+`. */
export function joinSources(sources: Iterable<ValueSource>): string {
  const set = new Set(sources);
  return valueSources.filter((s) => set.has(s)).join('+');
}

/** The sources of a stored `source` text (unknown words are dropped; legacy `evaluated` reads as `checked`). */
export function splitSources(text: string | null): ValueSource[] {
  if (text === null || text === '') return [];
  const words = new Set(
    text
      .split('+')
      .map((w) => (w === 'evaluated' ? 'checked' : w === 'mixed' ? 'logged+checked' : w))
      .flatMap((w) => w.split('+')),
  );
  return valueSources.filter((s) => words.has(s));
}

/** Why a value cannot be computed from the data at hand, and what would make it computable. */
export interface Unidentified {
  readonly reason: string;
  readonly remedy: string;
}

/**
 * Thrown by the credit engine when the data cannot answer (as opposed to a failure such as an
 * unreadable line or a crashed evaluator): stored as a `not-identifiable` result with its remedy.
 */
export class NotIdentifiableError extends Error implements Unidentified {
  constructor(
    readonly reason: string,
    readonly remedy: string,
  ) {
    super(reason);
    this.name = 'NotIdentifiableError';
  }
}

/** The remedies the engine names, in one place so the CLI, the views and the docs say the same. */
export const remedies = {
  counterfactuals:
    'log counterfactual rewards or coalition values in the trace, or replay on your model server (--evaluator replay:url=…, or an evaluator command)',
  checker: 'log counterfactuals, configure a replay evaluator, or fix the checker so it reproduces the logged rewards',
  routing: "log the router's probabilities of every expert and the selected one (routing.probs, routing.selected)",
  reward: 'log the team reward of each episode',
} as const;

/**
 * How much of a run a chart is drawn from: only exact or estimated credit is drawn; approximate and
 * not-identifiable episodes are counted and said so (the Run Dashboard's coverage notice).
 */
export interface CreditCoverage {
  /** Episodes of the run (of the split shown). */
  readonly episodes: number;
  /** Episodes with exact or estimated credit (what the charts show). */
  readonly drawn: number;
  /** Episodes with approximate credit (not drawn). */
  readonly approximate: number;
  /** Episodes the data cannot answer (no number). */
  readonly notIdentifiable: number;
  /** Episodes whose computation failed. */
  readonly failed: number;
  /** The most frequent reason an episode is not identifiable, and what would answer it. */
  readonly reason: string | null;
  readonly remedy: string | null;
}
