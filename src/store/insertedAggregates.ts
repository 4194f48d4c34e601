import type { Db, Statement } from './database';
import { flagCountRowsSql, flagCoverSql } from './episodeFlags';
import { splitKindOf as kind } from './splitFilter';

/** The batch's episodes: ids from `:lo` to `:hi`, all inserted by the batch (ids ascend). */
type Range = { lo: number; hi: number };

const inRange = 'e.episode_id BETWEEN :lo AND :hi';
// By rowid: left to itself the planner scans a covering index of every episode (8 ms a batch at 1 GB, not 0.2).
const batchEpisodes = 'episode e NOT INDEXED';

/** Per (run, split kind, step): episodes and their logged team reward (migration 0011's step_total). */
const stepTotalSql = `
  INSERT INTO step_total (run_id, split_kind, train_step, episodes, outcome_sum, outcomes)
  SELECT e.run_id, ${kind('e')}, e.train_step, count(*), coalesce(sum(e.outcome), 0), count(e.outcome)
  FROM ${batchEpisodes} WHERE ${inRange} AND e.train_step IS NOT NULL GROUP BY 1, 2, 3
  ON CONFLICT DO UPDATE SET episodes = episodes + excluded.episodes, outcome_sum = outcome_sum + excluded.outcome_sum,
    outcomes = outcomes + excluded.outcomes`;

/** The "shared" signal per (run, split kind, step, agent, tolerance): migration 0011's shared_step_agent. */
const sharedStepAgentSql = `
  INSERT INTO shared_step_agent (run_id, split_kind, train_step, agent_id, epsilon, total, n, spoke, idle)
  SELECT e.run_id, ${kind('e')}, e.train_step, ea.agent_id, t.epsilon, sum(e.outcome), count(*), sum(ea.n_messages > 0),
    sum(ea.n_messages > 0 AND abs(e.outcome) <= t.epsilon)
  FROM ${batchEpisodes} JOIN episode_agent ea ON ea.episode_id = e.episode_id CROSS JOIN view_tolerance t
  WHERE ${inRange} AND e.train_step IS NOT NULL AND e.outcome IS NOT NULL GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT DO UPDATE SET total = total + excluded.total, n = n + excluded.n, spoke = spoke + excluded.spoke,
    idle = idle + excluded.idle`;

/** The flags already about an episode indexed later (a step window or an id the audit named): migration 0013. */
const episodeFlagSql = `
  INSERT INTO episode_flag (run_id, episode_id, kind, n) ${flagCountRowsSql(flagCoverSql(batchEpisodes, inRange))}`;

/**
 * Adds the episodes a batch inserted to the views' aggregates (step_total, shared_step_agent) and
 * counts the flags already about them (episode_flag), with one set-based statement each over the
 * batch's id range at the end of its transaction. Migrations 0011 and 0013 did this with a trigger
 * per episode and per roster row: 9 of the 21 s spent writing the 1 GB run (migration 0018 drops
 * those insert triggers; the delete triggers still subtract, row by row, what is taken out).
 */
export class InsertedAggregates {
  private readonly statements: readonly Statement[];
  private range: Range | undefined;

  constructor(db: Db) {
    this.statements = [stepTotalSql, sharedStepAgentSql, episodeFlagSql].map((sql) => db.prepare(sql));
  }

  /** Notes an episode the batch inserted (ids ascend within a transaction, so a range holds them). */
  add(episodeId: number): void {
    if (this.range) this.range.hi = episodeId;
    else this.range = { lo: episodeId, hi: episodeId };
  }

  /** Writes the batch's aggregates. Must run inside the transaction that inserted its episodes. */
  flush(): void {
    const range = this.range;
    this.range = undefined;
    if (range) for (const statement of this.statements) statement.run(range);
  }

  /** Forgets the batch (its transaction was rolled back). */
  discard(): void {
    this.range = undefined;
  }
}
