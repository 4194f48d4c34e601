import type { Db, Statement } from './database';

/** A run of the index with its totals. `meanReward` is null when no episode logs a reward. */
export interface BrowseRun {
  readonly runId: number;
  readonly name: string;
  /** Run folder relative to the indexed folder ('' = the folder itself). */
  readonly root: string;
  readonly mechanism: string | null;
  readonly episodes: number;
  /** Distinct training steps (episodes without a step count as one). */
  readonly steps: number;
  readonly meanReward: number | null;
  /** Every flag of the run, whatever its scope. */
  readonly flags: number;
}

/** One training step of a run; `step` is null for the episodes that log none. */
export interface BrowseStep {
  readonly step: number | null;
  readonly episodes: number;
  readonly groups: number;
  readonly meanReward: number | null;
  /** Step-scope flags whose range contains the step, plus episode-scope flags of its episodes. */
  readonly flags: number;
}

/** One GRPO group of a step; `group` is null for the episodes that log none. */
export interface BrowseGroup {
  readonly group: string | null;
  readonly episodes: number;
  readonly meanReward: number | null;
  /** Flags covering at least one episode of the group (see {@link BrowseStep.flags}). */
  readonly flags: number;
}

/** One episode, with the trace line it was read from (`uri` relative to the indexed folder, `line` 1-based). */
export interface BrowseEpisode {
  readonly episodeId: number;
  readonly externalId: string;
  readonly sample: number | null;
  readonly reward: number | null;
  /** Roster size, declared-but-silent agents included. */
  readonly agents: number;
  readonly uri: string;
  readonly line: number;
  /** Episode-scope flags naming it plus step-scope flags whose range contains its step. */
  readonly flags: number;
}

/** A stored flag. `steps` is the inclusive range of a step-scope flag; `location` the trace line it points at. */
export interface BrowseFlag {
  readonly flagId: number;
  /** As stored: silent | idle | free-rider | dominant | decoupling. */
  readonly kind: string;
  readonly agent: string | null;
  readonly scope: string;
  readonly scopeId: string;
  readonly steps: readonly [number, number] | null;
  readonly score: number | null;
  /** The evidence object without `location`; `{}` when absent or unreadable. */
  readonly evidence: Readonly<Record<string, unknown>>;
  readonly location: { readonly uri: string; readonly line: number } | null;
  /** Every trace line the flag concerns, when it lists several (a silent agent's episodes). */
  readonly locations?: readonly { readonly uri: string; readonly line: number }[];
}

/** A line the indexer could not read (`line` 1-based; 0 = the file as a whole). */
export interface BrowseParseError {
  readonly uri: string;
  readonly line: number;
  readonly reason: string;
}

interface FlagRow {
  flag_id: number;
  kind: string;
  agent: string | null;
  scope_kind: string;
  scope_id: string;
  score: number | null;
  evidence_json: string | null;
}

// Every flag of run :run as an inclusive step range (lo, hi), with the group of an episode-scope flag.
// Step-scope flags store their range as "a..b" (auditRepository.ts); run-scope flags cover no step.
const flagSpans = `
  flag_span AS MATERIALIZED (
    SELECT 'step' AS scope, NULL AS group_id,
      CAST(substr(scope_id, 1, instr(scope_id, '..') - 1) AS INTEGER) AS lo,
      CAST(substr(scope_id, instr(scope_id, '..') + 2) AS INTEGER) AS hi
    FROM flag WHERE run_id = :run AND scope_kind = 'step' AND instr(scope_id, '..') > 0
    UNION ALL
    SELECT 'episode', e.group_id, e.train_step, e.train_step
    FROM flag f JOIN episode e ON e.run_id = f.run_id AND e.external_id = f.scope_id
    WHERE f.run_id = :run AND f.scope_kind = 'episode')`;

const runsSql = `
  SELECT r.run_id, r.name, r.root, r.mechanism,
    (SELECT count(*) FROM episode e WHERE e.run_id = r.run_id) AS episodes,
    (SELECT count(DISTINCT coalesce(e.train_step, 'none')) FROM episode e WHERE e.run_id = r.run_id) AS steps,
    (SELECT avg(e.outcome) FROM episode e WHERE e.run_id = r.run_id) AS mean_reward,
    (SELECT count(*) FROM flag f WHERE f.run_id = r.run_id) AS flags
  FROM run r WHERE EXISTS (SELECT 1 FROM source s WHERE s.run_id = r.run_id) ORDER BY r.root`;

const stepsSql = `
  WITH ${flagSpans}
  SELECT s.step, s.episodes, s.groups, s.mean_reward,
    (SELECT count(*) FROM flag_span WHERE s.step BETWEEN lo AND hi) AS flags
  FROM (SELECT train_step AS step, count(*) AS episodes, count(DISTINCT group_id) AS groups, avg(outcome) AS mean_reward
        FROM episode WHERE run_id = :run GROUP BY train_step) s
  ORDER BY s.step`;

const groupsSql = `
  WITH ${flagSpans}
  SELECT g.group_id, g.episodes, g.mean_reward,
    (SELECT count(*) FROM flag_span WHERE :step BETWEEN lo AND hi AND (scope = 'step' OR group_id IS g.group_id)) AS flags
  FROM (SELECT group_id, count(*) AS episodes, avg(outcome) AS mean_reward
        FROM episode INDEXED BY episode_step WHERE run_id = :run AND train_step IS :step GROUP BY group_id) g
  ORDER BY g.group_id`;

const episodesSql = `
  SELECT e.episode_id, e.external_id, e.sample_idx, e.outcome, s.uri, e.line,
    (SELECT count(*) FROM episode_agent ea WHERE ea.episode_id = e.episode_id) AS agents,
    (SELECT count(*) FROM flag f WHERE f.run_id = e.run_id AND (
      (f.scope_kind = 'episode' AND f.scope_id = e.external_id) OR
      (f.scope_kind = 'step' AND instr(f.scope_id, '..') > 0
        AND e.train_step BETWEEN CAST(substr(f.scope_id, 1, instr(f.scope_id, '..') - 1) AS INTEGER)
                             AND CAST(substr(f.scope_id, instr(f.scope_id, '..') + 2) AS INTEGER)))) AS flags
  FROM episode e INDEXED BY episode_step JOIN source s ON s.source_id = e.source_id
  WHERE e.run_id = :run AND e.train_step IS :step AND e.group_id IS :group
  ORDER BY e.sample_idx, e.episode_id LIMIT :limit`;

/** The listing statements, exported so a test can check their query plans. */
export const browseQueries = { steps: stepsSql, groups: groupsSql, episodes: episodesSql } as const;

const flagsSql = `
  SELECT f.flag_id, f.kind, a.name AS agent, f.scope_kind, f.scope_id, f.score, f.evidence_json
  FROM flag f LEFT JOIN agent a ON a.agent_id = f.agent_id WHERE f.run_id = ? ORDER BY f.kind, f.flag_id`;

const parseErrorsSql = `
  SELECT s.uri, p.line, p.reason FROM parse_error p JOIN source s ON s.source_id = p.source_id ORDER BY s.uri, p.line LIMIT ?`;

/**
 * Read-only listings for the extension's tree views and diagnostics: runs → steps → groups →
 * episodes with reward and flag counts, the stored flags, and the parse errors. Every statement is
 * prepared once; the step, group and episode listings read through the `episode_step` index.
 */
export class BrowseRepository {
  private readonly runsStmt: Statement<{
    run_id: number;
    name: string;
    root: string;
    mechanism: string | null;
    episodes: number;
    steps: number;
    mean_reward: number | null;
    flags: number;
  }>;
  private readonly stepsStmt: Statement<{
    step: number | null;
    episodes: number;
    groups: number;
    mean_reward: number | null;
    flags: number;
  }>;
  private readonly groupsStmt: Statement<{
    group_id: string | null;
    episodes: number;
    mean_reward: number | null;
    flags: number;
  }>;
  private readonly episodesStmt: Statement<{
    episode_id: number;
    external_id: string;
    sample_idx: number | null;
    outcome: number | null;
    uri: string;
    line: number;
    agents: number;
    flags: number;
  }>;
  private readonly flagsStmt: Statement<FlagRow>;
  private readonly parseErrorsStmt: Statement<BrowseParseError>;

  constructor(db: Db) {
    this.runsStmt = db.prepare(runsSql);
    this.stepsStmt = db.prepare(browseQueries.steps);
    this.groupsStmt = db.prepare(browseQueries.groups);
    this.episodesStmt = db.prepare(browseQueries.episodes);
    this.flagsStmt = db.prepare(flagsSql);
    this.parseErrorsStmt = db.prepare(parseErrorsSql);
  }

  /** Runs that still have a source file, by root. */
  runs(): BrowseRun[] {
    return this.runsStmt.all().map((r) => ({
      runId: r.run_id,
      name: r.name,
      root: r.root,
      mechanism: r.mechanism,
      episodes: r.episodes,
      steps: r.steps,
      meanReward: r.mean_reward,
      flags: r.flags,
    }));
  }

  /** The run's training steps in ascending order (the null step first). Empty for an unknown run. */
  steps(runId: number): BrowseStep[] {
    return this.stepsStmt.all({ run: runId }).map((r) => ({
      step: r.step,
      episodes: r.episodes,
      groups: r.groups,
      meanReward: r.mean_reward,
      flags: r.flags,
    }));
  }

  /** The groups of one step (`step` null = episodes without a step), by group id. */
  groups(runId: number, step: number | null): BrowseGroup[] {
    return this.groupsStmt
      .all({ run: runId, step })
      .map((r) => ({ group: r.group_id, episodes: r.episodes, meanReward: r.mean_reward, flags: r.flags }));
  }

  /** At most `limit` episodes of one group of one step, by sample index then id. */
  episodes(runId: number, step: number | null, group: string | null, limit: number): BrowseEpisode[] {
    return this.episodesStmt.all({ run: runId, step, group, limit }).map((r) => ({
      episodeId: r.episode_id,
      externalId: r.external_id,
      sample: r.sample_idx,
      reward: r.outcome,
      agents: r.agents,
      uri: r.uri,
      line: r.line,
      flags: r.flags,
    }));
  }

  /** The run's flags by kind, then in the order the audit raised them. */
  flags(runId: number): BrowseFlag[] {
    return this.flagsStmt.all(runId).map(toFlag);
  }

  /** Unreadable lines of every file, by file and line; at most `limit` (default 10 000). */
  parseErrors(limit = 10_000): BrowseParseError[] {
    return this.parseErrorsStmt.all(limit);
  }
}

function toFlag(row: FlagRow): BrowseFlag {
  const { location, locations, ...evidence } = parseEvidence(row.evidence_json);
  const range = /^(-?\d+)\.\.(-?\d+)$/.exec(row.scope_id);
  return {
    flagId: row.flag_id,
    kind: row.kind,
    agent: row.agent,
    scope: row.scope_kind,
    scopeId: row.scope_id,
    steps: row.scope_kind === 'step' && range ? [Number(range[1]), Number(range[2])] : null,
    score: row.score,
    evidence,
    location: toLocation(location),
    locations: Array.isArray(locations) ? locations.flatMap((l) => toLocation(l) ?? []) : [],
  };
}

function parseEvidence(json: string | null): Record<string, unknown> {
  if (json === null) return {};
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function toLocation(value: unknown): BrowseFlag['location'] {
  if (typeof value !== 'object' || value === null) return null;
  const { uri, line } = value as { uri?: unknown; line?: unknown };
  return typeof uri === 'string' && typeof line === 'number' && Number.isInteger(line) ? { uri, line } : null;
}
