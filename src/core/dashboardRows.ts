// The rows the Run Dashboard lists, as the store reads them (column aliases) and the webview
// receives them (src/protocol/dashboardPanel.ts re-exports them): one shape, defined here.

/** A run of the index as the Run Dashboard lists it. */
export interface DashboardRun {
  readonly runId: number;
  readonly name: string;
  readonly mechanism: string | null;
  readonly episodes: number;
  /** Agents that appear in some episode's roster, by agent id (the declared order of first sight). */
  readonly agents: readonly string[];
  /** Smallest and largest training step and the number of distinct steps (episodes without a step left out). */
  readonly steps: { readonly min: number | null; readonly max: number | null; readonly count: number };
  readonly flags: number;
  /** True when some episode of the run logs a routing decision (the Routing method is offered only then). */
  readonly routingLogged?: boolean;
}

/** One episode of the episode table (without its per-agent credit cells). */
export interface EpisodeTableRow {
  readonly episodeId: number;
  readonly externalId: string;
  readonly step: number | null;
  readonly group: string | null;
  readonly sample: number | null;
  readonly reward: number | null;
  /** Roster size, declared-but-silent agents included. */
  readonly agents: number;
  readonly messages: number;
  /** The flags about the episode, as the table's flag filter counts them. */
  readonly flags: number;
}

/** Sorts by one agent's credit: `credit:` and the agent's name (episodes without a value last). */
export type AgentCreditSortKey = `credit:${string}`;

/** The episode table's own sort keys, and one agent's credit under the dashboard's method. */
export type EpisodeSortKey = 'step' | 'reward' | 'messages' | 'flags' | 'externalId' | AgentCreditSortKey;

/** Episodes whose agent's credit lies in [min, max] (a null bound is open). */
export interface AgentCreditFilter {
  readonly agent: string;
  readonly min?: number | null;
  readonly max?: number | null;
}

/** Filters of the episode table; absent or null = no filter. */
export interface EpisodeFilter {
  readonly stepFrom?: number | null;
  readonly stepTo?: number | null;
  readonly group?: string | null;
  readonly rewardMin?: number | null;
  readonly rewardMax?: number | null;
  /** 'any' = covered by at least one flag about the episode; otherwise a flag kind. */
  readonly flag?: string | null;
  /** Episodes whose roster has this agent. */
  readonly agent?: string | null;
  /** Full-text query over message text (FTS5 syntax, words are ANDed). */
  readonly search?: string | null;
  /** A range of one agent's credit under the request's method (no episode matches without one). */
  readonly agentCredit?: AgentCreditFilter | null;
}
