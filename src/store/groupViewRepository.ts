import type { Db, Statement } from './database';

/** One rollout of a GRPO group: an episode of the run with the group's id. */
export interface GroupRolloutRow {
  readonly episodeId: number;
  readonly externalId: string;
  readonly step: number | null;
  readonly sample: number | null;
  /** The logged team reward. */
  readonly reward: number | null;
}

/** An agent of a rollout's roster, with the advantage the trainer logged for it (episode_agent.advantage). */
export interface GroupRosterRow {
  readonly episodeId: number;
  readonly agent: string;
  readonly ordinal: number;
  readonly loggedAdvantage: number | null;
}

/** A stored agent-level credit value of a rollout, under any method and parameter set. */
export interface GroupCreditRow {
  readonly episodeId: number;
  readonly agent: string;
  readonly method: string;
  readonly paramsHash: string;
  /** Null when the stored value was NaN. */
  readonly value: number | null;
  /** The GRPO group-relative advantage the credit pass stored with the value. */
  readonly advantage: number | null;
  /** exact | estimated | approximate. */
  readonly status: string;
  readonly computedAt: string;
}

/** A credit pass's failure on a rollout (failed, or not identifiable with a remedy). */
export interface GroupCreditErrorRow {
  readonly episodeId: number;
  readonly method: string;
  readonly status: string;
  readonly reason: string;
  readonly remedy: string | null;
  readonly computedAt: string;
}

/** The GRPO group an episode belongs to, and its size (null group: the episode logs none). */
export interface EpisodeGroupRow {
  readonly runId: number;
  readonly group: string | null;
  readonly rollouts: number;
}

// Every statement reads the group's episodes through episode_group (run_id, group_id), then each
// episode's rows by their episode_id index: a group costs its own rows, never a scan of the run.
const groupEpisodes = 'FROM episode e INDEXED BY episode_group WHERE e.run_id = :run AND e.group_id = :group';

const rolloutsSql = `
  SELECT e.episode_id AS episodeId, e.external_id AS externalId, e.train_step AS step, e.sample_idx AS sample,
    e.outcome AS reward
  ${groupEpisodes}
  ORDER BY e.sample_idx, e.episode_id`;

const rosterSql = `
  SELECT ea.episode_id AS episodeId, a.name AS agent, ea.ordinal, ea.advantage AS loggedAdvantage
  ${groupEpisodes.replace('WHERE', 'JOIN episode_agent ea ON ea.episode_id = e.episode_id JOIN agent a ON a.agent_id = ea.agent_id WHERE')}
  ORDER BY ea.episode_id, ea.ordinal`;

const creditSql = `
  SELECT c.episode_id AS episodeId, a.name AS agent, c.method, c.params_hash AS paramsHash, c.value, c.advantage,
    c.status, c.computed_at AS computedAt
  ${groupEpisodes.replace('WHERE', 'JOIN credit c ON c.episode_id = e.episode_id AND c.message_seq IS NULL JOIN agent a ON a.agent_id = c.agent_id WHERE')}
  ORDER BY c.method, c.episode_id, c.agent_id`;

const errorsSql = `
  SELECT x.episode_id AS episodeId, x.method, x.status, x.reason, x.remedy, x.computed_at AS computedAt
  ${groupEpisodes.replace('WHERE', 'JOIN credit_error x ON x.episode_id = e.episode_id WHERE')}
  ORDER BY x.computed_at`;

const episodeGroupSql = `
  SELECT e.run_id AS runId, e.group_id AS "group",
    (SELECT count(*) FROM episode g INDEXED BY episode_group WHERE g.run_id = e.run_id AND g.group_id = e.group_id) AS rollouts
  FROM episode e WHERE e.episode_id = :episode`;

const runSql = `
  SELECT r.name, EXISTS (SELECT 1 FROM episode e INDEXED BY episode_group WHERE e.run_id = r.run_id AND e.group_id IS NOT NULL) AS grouped
  FROM run r WHERE r.run_id = :run`;

/** The statements above, exported so a test can check their query plans. */
export const groupViewQueries = {
  rollouts: rolloutsSql,
  roster: rosterSql,
  credit: creditSql,
  errors: errorsSql,
  episodeGroup: episodeGroupSql,
  run: runSql,
} as const;

/**
 * What the group view shows of one GRPO group — the rollouts of one prompt in one run, sharing a
 * group id — read by (run, group) through the episode_group index.
 */
export class GroupViewRepository {
  private readonly rolloutsStmt: Statement<GroupRolloutRow>;
  private readonly rosterStmt: Statement<GroupRosterRow>;
  private readonly creditStmt: Statement<GroupCreditRow>;
  private readonly errorsStmt: Statement<GroupCreditErrorRow>;
  private readonly episodeGroupStmt: Statement<EpisodeGroupRow>;
  private readonly runStmt: Statement<{ name: string; grouped: number }>;

  constructor(db: Db) {
    this.rolloutsStmt = db.prepare(rolloutsSql);
    this.rosterStmt = db.prepare(rosterSql);
    this.creditStmt = db.prepare(creditSql);
    this.errorsStmt = db.prepare(errorsSql);
    this.episodeGroupStmt = db.prepare(episodeGroupSql);
    this.runStmt = db.prepare(runSql);
  }

  /** The group's rollouts by sample index, then as indexed; empty when the run has no such group. */
  rollouts(runId: number, group: string): GroupRolloutRow[] {
    return this.rolloutsStmt.all({ run: runId, group });
  }

  /** Every roster agent of every rollout, by rollout then ordinal. */
  roster(runId: number, group: string): GroupRosterRow[] {
    return this.rosterStmt.all({ run: runId, group });
  }

  /** Agent-level credit of the group's rollouts under every stored method and parameter set. */
  credit(runId: number, group: string): GroupCreditRow[] {
    return this.creditStmt.all({ run: runId, group });
  }

  /** Credit failures of the group's rollouts, oldest first. */
  errors(runId: number, group: string): GroupCreditErrorRow[] {
    return this.errorsStmt.all({ run: runId, group });
  }

  /** The group of an episode and its rollout count; undefined for an unknown episode. */
  groupOfEpisode(episodeId: number): EpisodeGroupRow | undefined {
    return this.episodeGroupStmt.get({ episode: episodeId });
  }

  /** The run's name and whether any of its episodes logs a group; undefined for an unknown run. */
  run(runId: number): { readonly name: string; readonly grouped: boolean } | undefined {
    const row = this.runStmt.get({ run: runId });
    return row ? { name: row.name, grouped: row.grouped === 1 } : undefined;
  }
}
