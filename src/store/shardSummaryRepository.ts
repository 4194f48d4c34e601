import { withLatestParams } from './exportRepository';
import type { ShardSet } from './shardSet';

/**
 * Additive sums of an agent's agent-level credit in a run over some shards (the latest parameter
 * set of each shard's run under the method): partial sums of several connections add up.
 */
export interface AgentCreditSums {
  readonly run: string;
  readonly agent: string;
  readonly n: number;
  readonly total: number;
  readonly squares: number;
  readonly min_step: number;
  readonly max_step: number;
  readonly exact: number;
  readonly estimated: number;
  readonly approximate: number;
}

/** Sums over the first and the last steps of a run (below `low`, from `high`) for each agent. */
export interface AgentWindowSums {
  readonly run: string;
  readonly agent: string;
  readonly early_n: number;
  readonly early_total: number | null;
  readonly late_n: number;
  readonly late_total: number | null;
}

/** The step cut-offs of one agent of a run: its early window ends at `low`, its late one starts at `high`. */
export interface WindowCut {
  readonly run: string;
  readonly agent: string;
  readonly low: number;
  readonly high: number;
}

/** Each shard's parameter sets read by the summary, to tell when shards disagree. */
export interface ShardParams {
  readonly shard: number;
  readonly run: string;
  readonly params_hash: string;
}

// Agent-level values of the latest pass (what `credit-lens credit` summarises): finite values only,
// since SQLite stores NaN as NULL. An episode without a step counts as step 0, as in the credit job.
const valuesSql = (s: string): string => `${withLatestParams(s)}
  SELECT r.name AS run, a.name AS agent, coalesce(e.train_step, 0) AS step, c.value, c.status
  FROM latest l
  JOIN ${s}.credit c ON c.run_id = l.run_id AND c.method = l.method AND c.params_hash = l.params_hash
  JOIN ${s}.run r ON r.run_id = c.run_id JOIN ${s}.agent a ON a.agent_id = c.agent_id
  JOIN ${s}.episode e ON e.episode_id = c.episode_id
  WHERE l.method = :method AND c.message_seq IS NULL AND c.value IS NOT NULL
    AND abs(c.value) < 9e999 AND (:run IS NULL OR r.name = :run OR r.root = :run)`;

const sumsSql = (union: string): string => `
  SELECT run, agent, count(*) AS n, sum(value) AS total, sum(value * value) AS squares,
    min(step) AS min_step, max(step) AS max_step, sum(status = 'exact') AS exact,
    sum(status = 'estimated') AS estimated, sum(status = 'approximate') AS approximate
  FROM (${union}) GROUP BY run, agent ORDER BY run, agent`;

const windowsSql = (union: string): string => `
  SELECT v.run, v.agent, sum(v.step <= k.low) AS early_n, sum(CASE WHEN v.step <= k.low THEN v.value END) AS early_total,
    sum(v.step >= k.high) AS late_n, sum(CASE WHEN v.step >= k.high THEN v.value END) AS late_total
  FROM (${union}) v
  JOIN (SELECT j.value ->> 0 AS run, j.value ->> 1 AS agent, j.value ->> 2 AS low, j.value ->> 3 AS high FROM json_each(:cuts) j) k
    ON k.run = v.run AND k.agent = v.agent
  GROUP BY v.run, v.agent`;

const paramsSql = (s: string): string => `${withLatestParams(s)}
  SELECT r.name AS run, l.params_hash FROM latest l JOIN ${s}.run r ON r.run_id = l.run_id
  WHERE l.method = :method AND (:run IS NULL OR r.name = :run OR r.root = :run)`;

/**
 * Per-agent credit over a set of shards, aggregated by SQLite over each connection's attached
 * shards (runs and agents are matched by name: each shard numbers them on its own).
 */
export class ShardSummaryRepository {
  constructor(private readonly shards: ShardSet) {}

  /** The sums of each (run, agent), one row per connection that holds some. */
  sums(method: string, run?: string): AgentCreditSums[] {
    return [...this.shards.aggregate<AgentCreditSums>(valuesSql, sumsSql, { method, run: run ?? null })];
  }

  /** The sums of each (run, agent) over its early and late windows, one row per connection that holds some. */
  windows(method: string, cuts: readonly WindowCut[], run?: string): AgentWindowSums[] {
    const json = JSON.stringify(cuts.map((c) => [c.run, c.agent, c.low, c.high]));
    return [...this.shards.aggregate<AgentWindowSums>(valuesSql, windowsSql, { method, run: run ?? null, cuts: json })];
  }

  /** The parameter set each shard's runs were summarised under. */
  params(method: string, run?: string): ShardParams[] {
    return [...this.shards.rows<ShardParams>(paramsSql, { method, run: run ?? null })];
  }
}
