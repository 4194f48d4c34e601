/**
 * The result of comparing two runs, or two step ranges of one run (docs/credit-methods.md §5.5):
 * episodes paired by task, else by prompt (and GRPO group where both sides have one), and per agent
 * the paired credit difference with its interval and test. Shared by the engine (which computes it),
 * the CLI (which prints it and gates CI on it) and the Compare view (which draws it).
 */
import type { CreditStatus } from './provenance';

/** One side of a comparison: a run of the index and an optional inclusive step range. */
export interface ComparisonSide {
  readonly run: string;
  /** Inclusive step range; absent = every step. */
  readonly steps?: { readonly from: number; readonly to: number };
  /** The label printed for this side ("A", or the run name with its steps). */
  readonly label: string;
}

/** What the episodes of the two sides were paired on, in the order tried. */
export type PairingKey = 'task' | 'prompt';

/** How many episodes each side had, how many paired, and why the rest did not. */
export interface PairingSummary {
  readonly key: PairingKey | 'none';
  readonly pairs: number;
  readonly episodesA: number;
  readonly episodesB: number;
  /** Episodes of A (of B) with no partner on the other side: counted, excluded, and said so. */
  readonly unpairedA: number;
  readonly unpairedB: number;
  /** Pairs whose key matched several episodes on a side (GRPO rollouts): paired by group + rollout index, else in order. */
  readonly ambiguousKeys: number;
}

/** Which test produced `p` and the interval: Student t below 30 pairs, normal at 30 and above. */
export type PairedTest = 't' | 'normal';

/** A paired difference `B − A` over the pairs where both sides have a value. */
export interface PairedDifference {
  /** Pairs that carried a value on both sides. */
  readonly n: number;
  readonly meanA: number;
  readonly meanB: number;
  /** Mean of the per-pair differences `B − A`. */
  readonly difference: number;
  /** Two-sided 95% interval of the mean difference; NaN bounds when n < 2. */
  readonly interval: readonly [lower: number, upper: number];
  /** Two-sided p-value of "no difference"; NaN when n < 2. */
  readonly p: number;
  readonly test: PairedTest;
}

/** One agent's change between the two sides. */
export interface AgentComparison {
  readonly agent: string;
  /** Credit (reward units) under the chosen method, paired. */
  readonly credit: PairedDifference;
  /** Share of the summed positive credit of the side (0..1), NaN when the side has none. */
  readonly shareA: number;
  readonly shareB: number;
  /** The weaker status of the credit rows used on each side; 'not-identifiable' when a side has none. */
  readonly statusA: CreditStatus;
  readonly statusB: CreditStatus;
  /** Why a side has no number and what would give one (present when a status is 'not-identifiable'). */
  readonly missing?: string;
  /**
   * The share difference `shareB − shareA` over the pairs, with its delta-method interval and test
   * (credit-methods.md §5.5); `meanA`/`meanB` are the shares. Added by the compare engine.
   */
  readonly share?: PairedDifference;
  /** Where each side's values came from, as stored (`logged`, `logged+checked`, …; core/provenance.ts joinSources). */
  readonly sourceA?: string;
  readonly sourceB?: string;
}

/** A flag kind on one agent, present on one side and not the other (or on both). */
export interface FlagChange {
  readonly agent: string;
  readonly kind: string;
  readonly change: 'appeared' | 'disappeared' | 'kept';
  /** The flag's step window on each side, where present. */
  readonly stepsA?: readonly [number, number];
  readonly stepsB?: readonly [number, number];
}

/** A pair that shows the change, for the Episode diff. */
export interface ExamplePair {
  readonly key: string;
  readonly episodeA: string;
  readonly episodeB: string;
  readonly agent: string;
  readonly creditA: number;
  readonly creditB: number;
}

export interface RunComparison {
  readonly a: ComparisonSide;
  readonly b: ComparisonSide;
  /** The credit method compared ('loo', 'shapley', …) and the parameter set used on each side. */
  readonly method: string;
  readonly pairing: PairingSummary;
  /** Team reward, paired. */
  readonly reward: PairedDifference;
  readonly agents: readonly AgentComparison[];
  readonly flags: readonly FlagChange[];
  /** A few pairs per agent with the largest credit change (largest |B − A| first). */
  readonly examples: readonly ExamplePair[];
  /** Plain sentences: what was excluded and why, what could not be answered and what would answer it. */
  readonly notes: readonly string[];
}

/** A run the Compare view can offer as a side: its name, steps and whether credit is stored. */
export interface CompareRunChoice {
  readonly run: string;
  readonly episodes: number;
  /** Inclusive step extent; absent for a step-less run. */
  readonly steps?: { readonly from: number; readonly to: number };
  /** Methods with stored credit for this run (empty = credit must be computed first). */
  readonly methods: readonly string[];
}

/** What to compare: two sides (a run and optional steps each) under one credit method. */
export interface ComparisonRequest {
  readonly a: Omit<ComparisonSide, 'label'>;
  readonly b: Omit<ComparisonSide, 'label'>;
  /** A stored credit method ('loo', 'shapley', 'shapley-mc', …). */
  readonly method: string;
}

/**
 * The engine's comparison entry point as the CLI and the Compare panel use it, implemented by
 * `CompareService` (src/engine/compare/compareService.ts, constructed from an open index `Db`).
 */
export interface RunComparer {
  /** The runs of the index that can be a side, with their steps and stored credit methods. */
  choices(): readonly CompareRunChoice[];
  /** Throws an Error with a plain message when a run is unknown or a side has no stored credit for the method. */
  compare(request: ComparisonRequest): RunComparison;
}
