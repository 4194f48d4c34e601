import type { SplitKind } from './split';
import type { ComputedStatus } from './provenance';

/** What the credit engine knows about one episode before any evaluator call (read from the index). */
export interface CreditEpisode {
  readonly episodeId: number;
  readonly externalId: string;
  readonly runId: number;
  readonly step: number | null;
  readonly group: string | null;
  /** Its split kind (core/split.ts) as the index classifies it; absent where no index is read (the pass's kind is meant). */
  readonly splitKind?: SplitKind;
  /** The logged team reward v(N); null when the trace has none. */
  readonly reward: number | null;
  readonly groundTruth: string | null;
  /** Roster in ordinal order; agent i of every bitmask below is `agents[i]`. */
  readonly agents: readonly CreditAgent[];
  /** Messages each roster agent wrote, as indexed (`episode_agent.n_messages`), in roster order; absent where no index is read. */
  readonly agentMessages?: readonly number[];
  /** Where the raw record is, to read message text when an evaluator needs it. */
  readonly uri: string;
  /** The importer of the file (source.format); the canonical format when absent. */
  readonly format?: string;
  readonly offset: number;
  readonly length: number;
  readonly line: number;
  /**
   * Logged v(S) by bitmask over `agents` (bit i = `agents[i]`; bigint so any team size works):
   * coalition tables, the team reward as v(N), and `remove` counterfactuals as v(N∖removed).
   */
  readonly loggedCoalitions: ReadonlyMap<bigint, number>;
  /** Every logged counterfactual, whatever its intervention (leave-one-out reads the other kinds too). */
  readonly loggedCounterfactuals: readonly LoggedCounterfactual[];
  /** Routing decision, as indices into `agents`. */
  readonly routing?: {
    readonly probs: readonly number[];
    readonly selected: number;
    readonly behaviourProbs?: readonly number[];
  };
  /** Roster index of each message's author, in message order. */
  readonly messageAuthors: readonly number[];
  /** Logged blame / failure labels, shown beside computed first errors. */
  readonly labels: readonly CreditLabel[];
}

/**
 * An episode's logged v(S) by mask (credit-methods.md §6.1), in order of precedence: its coalition
 * tables (`coalitions`, completed in place), then each `remove` counterfactual as v(N∖removed) (only
 * removal is the coalition game's default; other interventions are other games), then the team
 * reward as v(N). `full` is the mask of the whole roster (0 for an episode without agents).
 */
export function withLoggedValues(
  coalitions: Map<bigint, number>,
  counterfactuals: readonly LoggedCounterfactual[],
  reward: number | null,
  full: bigint,
): Map<bigint, number> {
  for (const cf of counterfactuals)
    if (cf.intervention === 'remove' && !coalitions.has(full & ~cf.removed))
      coalitions.set(full & ~cf.removed, cf.value);
  if (reward !== null && full !== 0n && !coalitions.has(full)) coalitions.set(full, reward);
  return coalitions;
}

/** A logged counterfactual reward (docs/trace-format.md §2.6). */
export interface LoggedCounterfactual {
  /** Bitmask of the agents removed or replaced. */
  readonly removed: bigint;
  /** remove | empty | placeholder | resample_self | resample_ref | replace_text. */
  readonly intervention: string;
  /** True / false when the trace says whether downstream agents were re-generated; null when it does not. */
  readonly replayed: boolean | null;
  readonly value: number;
}

/** A logged label (e.g. Who&When's mistake agent and step). */
export interface CreditLabel {
  readonly kind: string;
  readonly agent: string | null;
  readonly messageSeq: number | null;
  readonly value: string | null;
  readonly reason: string | null;
}

export interface CreditAgent {
  readonly agentId: number;
  readonly name: string;
}

/** One credit value as stored: per agent (messageSeq null) or per message. */
export interface CreditRow {
  readonly episodeId: number;
  readonly agentId: number;
  readonly messageSeq: number | null;
  readonly value: number;
  readonly stderr: number | null;
  readonly ciLow: number | null;
  readonly ciHigh: number | null;
  readonly n: number | null;
  /** exact | estimated | approximate (docs/credit-provenance.md). */
  readonly status: ComputedStatus;
  /** The sources of the values behind it, e.g. `logged` or `logged+checked` (core/provenance.ts). */
  readonly source: string;
  /** The intervention the counterfactual of a leave-one-out row is (remove, replace_text, …); null otherwise. */
  readonly intervention: string | null;
  advantage: number | null;
}

/** A credit method and its parameters, identified by a stable hash. */
export interface CreditParams {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly hash: string;
}
