import type { Db, Statement } from './database';
import { episodeFlagCountSql } from './flagBadges';

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
  /** Flags whose step window contains the step, plus the flags about its episodes (distinct). */
  readonly flags: number;
}

/** Consecutive training steps `from..to` (inclusive) with their totals; only steps with episodes count. */
export interface BrowseStepRange {
  readonly from: number;
  readonly to: number;
  readonly steps: number;
  readonly episodes: number;
  readonly meanReward: number | null;
  /** Flags whose step window overlaps the range, or about one of its episodes (distinct). */
  readonly flags: number;
}

/** One GRPO group of a step; `group` is null for the episodes that log none. */
export interface BrowseGroup {
  readonly group: string | null;
  readonly episodes: number;
  readonly meanReward: number | null;
  /** Flags about at least one episode of the group; step windows are the step's, not the group's. */
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
  /** Flags about this episode: episode-scope flags naming or listing it (episodeFlags.ts). */
  readonly flags: number;
}

/** A stored flag. `steps` is the inclusive range of a step- or run-scope window; `location` the trace line it points at. */
export interface BrowseFlag {
  readonly flagId: number;
  /** The run the flag is about (absent in hand-made flags). */
  readonly runId?: number;
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
  /** Every trace line the flag concerns, when it lists several (a silent agent's episodes), with the episode's id. */
  readonly locations?: readonly { readonly uri: string; readonly line: number; readonly episode?: string }[];
}

/** A line the indexer could not read (`line` 1-based; 0 = the file as a whole). */
export interface BrowseParseError {
  readonly uri: string;
  readonly line: number;
  readonly reason: string;
}

/** A flags row: the flag's own columns, its evidence as stored (parsed by {@link toFlag}). */
type FlagRow = Required<Pick<BrowseFlag, 'flagId' | 'runId' | 'kind' | 'agent' | 'scope' | 'scopeId' | 'score'>> & {
  readonly evidenceJson: string | null;
};

// Every flag of run :run that covers training steps, as an inclusive step range (lo, hi): windows of
// steps (stored as "a..b" by auditRepository.ts, at step or run scope) and the step of each episode
// an episode-scope flag is about. The run and its steps count these; groups and episodes count only
// the flags about their episodes (episodeFlags.ts), so a run-wide window does not badge every row.
const flagSpans = `
  flag_span AS MATERIALIZED (
    SELECT flag_id, CAST(substr(scope_id, 1, instr(scope_id, '..') - 1) AS INTEGER) AS lo,
      CAST(substr(scope_id, instr(scope_id, '..') + 2) AS INTEGER) AS hi
    FROM flag WHERE run_id = :run AND scope_kind IN ('step', 'run') AND instr(scope_id, '..') > 0
    UNION
    SELECT fe.flag_id, e.train_step, e.train_step
    FROM flag_episode fe JOIN episode e ON e.run_id = fe.run_id AND e.external_id = fe.external_id WHERE fe.run_id = :run)`;

// Episodes and mean reward in one pass over the covering index episode_step; the step count is a
// skip scan (stepCountSql), since a count(DISTINCT) over every episode dominated a live refresh.
const runsSql = `
  SELECT r.run_id AS runId, r.name, r.root, r.mechanism, coalesce(t.episodes, 0) AS episodes, t.mean_reward AS meanReward,
    (SELECT count(*) FROM flag f WHERE f.run_id = r.run_id) AS flags
  FROM run r LEFT JOIN (
    SELECT run_id, count(*) AS episodes, avg(outcome) AS mean_reward FROM episode INDEXED BY episode_step GROUP BY run_id
  ) t ON t.run_id = r.run_id
  WHERE EXISTS (SELECT 1 FROM source s WHERE s.run_id = r.run_id) ORDER BY r.root`;

// Distinct steps of run :run (the null step counts as one), one index seek per step.
const stepCountSql = `
  WITH RECURSIVE s(step) AS (
    SELECT min(train_step) FROM episode WHERE run_id = :run AND train_step IS NOT NULL
    UNION ALL
    SELECT (SELECT min(train_step) FROM episode WHERE run_id = :run AND train_step > s.step) FROM s WHERE s.step IS NOT NULL)
  SELECT count(step) + EXISTS (SELECT 1 FROM episode WHERE run_id = :run AND train_step IS NULL) AS steps FROM s`;

// The step listing over the steps a condition on `train_step` selects: all, a range, or the null step.
const stepsWhere = (condition: string): string => `
  WITH ${flagSpans}
  SELECT s.step, s.episodes, s.groups, s.mean_reward AS meanReward,
    (SELECT count(DISTINCT flag_id) FROM flag_span WHERE s.step BETWEEN lo AND hi OR (s.step IS NULL AND lo IS NULL)) AS flags
  FROM (SELECT train_step AS step, count(*) AS episodes, count(DISTINCT group_id) AS groups, avg(outcome) AS mean_reward
        FROM episode INDEXED BY episode_step WHERE run_id = :run ${condition} GROUP BY train_step) s
  ORDER BY s.step`;
const stepsSql = stepsWhere('');
const stepsInRangeSql = stepsWhere('AND train_step BETWEEN :from AND :to');
const noStepSql = stepsWhere('AND train_step IS NULL');

// Steps :from..:to in ranges of :width steps (floor division, so negative steps fall in their own
// range). Per-step totals come from the covering index episode_step in step order; only the few
// step rows are then grouped into ranges.
const stepRangesSql = `
  WITH ${flagSpans},
  per_step AS (
    SELECT train_step AS step, count(*) AS episodes, sum(outcome) AS total, count(outcome) AS rewarded
    FROM episode INDEXED BY episode_step WHERE run_id = :run AND train_step BETWEEN :from AND :to GROUP BY train_step),
  ranged AS (
    SELECT w.width * CASE WHEN step >= 0 THEN step / w.width ELSE (step + 1) / w.width - 1 END AS lo, w.width, per_step.*
    FROM per_step CROSS JOIN (SELECT CAST(:width AS INTEGER) AS width) w)
  SELECT lo AS "from", lo + width - 1 AS "to", count(*) AS steps, sum(episodes) AS episodes,
    sum(total) / nullif(sum(rewarded), 0) AS meanReward,
    (SELECT count(DISTINCT flag_id) FROM flag_span f WHERE f.lo <= ranged.lo + width - 1 AND f.hi >= ranged.lo) AS flags
  FROM ranged GROUP BY lo ORDER BY lo`;

const stepSpanSql = `
  SELECT (SELECT min(train_step) FROM episode WHERE run_id = :run AND train_step IS NOT NULL) AS lo,
    (SELECT max(train_step) FROM episode WHERE run_id = :run AND train_step IS NOT NULL) AS hi`;

// Groups in numeric-aware order of their ids (group_key, migration 0016: `g:2` before `g:10`).
const groupsSql = `
  SELECT g.group_id AS "group", g.episodes, g.mean_reward AS meanReward,
    (SELECT count(DISTINCT fe.flag_id) FROM flag_episode fe JOIN episode e ON e.run_id = fe.run_id AND e.external_id = fe.external_id
     WHERE fe.run_id = :run AND e.train_step IS :step AND e.group_id IS g.group_id) AS flags
  FROM (SELECT group_id, min(group_key) AS group_key, count(*) AS episodes, avg(outcome) AS mean_reward
        FROM episode INDEXED BY episode_step WHERE run_id = :run AND train_step IS :step GROUP BY group_id) g
  ORDER BY g.group_key, g.group_id`;

// Within a group by sample index, then in numeric-aware order of the ids (external_key, migration 0016).
const episodesSql = `
  SELECT e.episode_id AS episodeId, e.external_id AS externalId, e.sample_idx AS sample, e.outcome AS reward, s.uri, e.line,
    (SELECT count(*) FROM episode_agent ea WHERE ea.episode_id = e.episode_id) AS agents,
    ${episodeFlagCountSql('e')} AS flags
  FROM episode e INDEXED BY episode_step JOIN source s ON s.source_id = e.source_id
  WHERE e.run_id = :run AND e.train_step IS :step AND e.group_id IS :group
  ORDER BY e.sample_idx, e.external_key, e.episode_id LIMIT :limit OFFSET :offset`;

/** The listing statements, exported so a test can check their query plans. */
export const browseQueries = {
  steps: stepsSql,
  stepsInRange: stepsInRangeSql,
  noStep: noStepSql,
  stepRanges: stepRangesSql,
  groups: groupsSql,
  episodes: episodesSql,
} as const;

const flagsSql = `
  SELECT f.flag_id AS flagId, f.run_id AS runId, f.kind, a.name AS agent, f.scope_kind AS scope, f.scope_id AS scopeId, f.score,
    f.evidence_json AS evidenceJson
  FROM flag f LEFT JOIN agent a ON a.agent_id = f.agent_id WHERE f.run_id = ? ORDER BY f.kind, f.flag_id`;

const parseErrorsSql = `
  SELECT s.uri, p.line, p.reason FROM parse_error p JOIN source s ON s.source_id = p.source_id ORDER BY s.uri, p.line LIMIT ?`;

/**
 * Read-only listings for the extension's tree views and diagnostics: runs → steps → groups →
 * episodes with reward and flag counts, the stored flags, and the parse errors. Every statement is
 * prepared once; the step, group and episode listings read through the `episode_step` index.
 */
export class BrowseRepository {
  private readonly runsStmt: Statement<Omit<BrowseRun, 'steps'>>;
  private readonly stepCountStmt: Statement<{ steps: number }>;
  private readonly stepsStmt: Statement<BrowseStep>;
  private readonly stepsInRangeStmt: Statement<BrowseStep>;
  private readonly noStepStmt: Statement<BrowseStep>;
  private readonly stepRangesStmt: Statement<BrowseStepRange>;
  private readonly stepSpanStmt: Statement<{ lo: number | null; hi: number | null }>;
  private readonly groupsStmt: Statement<BrowseGroup>;
  private readonly episodesStmt: Statement<BrowseEpisode>;
  private readonly flagsStmt: Statement<FlagRow>;
  private readonly parseErrorsStmt: Statement<BrowseParseError>;

  constructor(db: Db) {
    this.runsStmt = db.prepare(runsSql);
    this.stepCountStmt = db.prepare(stepCountSql);
    this.stepsStmt = db.prepare(browseQueries.steps);
    this.stepsInRangeStmt = db.prepare(browseQueries.stepsInRange);
    this.noStepStmt = db.prepare(browseQueries.noStep);
    this.stepRangesStmt = db.prepare(browseQueries.stepRanges);
    this.stepSpanStmt = db.prepare(stepSpanSql);
    this.groupsStmt = db.prepare(browseQueries.groups);
    this.episodesStmt = db.prepare(browseQueries.episodes);
    this.flagsStmt = db.prepare(flagsSql);
    this.parseErrorsStmt = db.prepare(parseErrorsSql);
  }

  /** Runs that still have a source file, by root. */
  runs(): BrowseRun[] {
    return this.runsStmt.all().map((r) => ({ ...r, steps: this.stepCountStmt.get({ run: r.runId })?.steps ?? 0 }));
  }

  /** The run's training steps in ascending order (the null step first). Empty for an unknown run. */
  steps(runId: number): BrowseStep[] {
    return this.stepsStmt.all({ run: runId });
  }

  /** The run's steps `from..to` (inclusive), ascending. */
  stepsInRange(runId: number, from: number, to: number): BrowseStep[] {
    return this.stepsInRangeStmt.all({ run: runId, from, to });
  }

  /** The episodes of the run that log no step, as a step; undefined when every episode logs one. */
  noStep(runId: number): BrowseStep | undefined {
    return this.noStepStmt.all({ run: runId })[0];
  }

  /** Smallest and largest logged step of the run (index seeks); undefined when no episode logs one. */
  stepSpan(runId: number): { readonly from: number; readonly to: number } | undefined {
    const span = this.stepSpanStmt.get({ run: runId });
    return span && span.lo !== null && span.hi !== null ? { from: span.lo, to: span.hi } : undefined;
  }

  /**
   * The steps `from..to` in ranges of `width` steps aligned on multiples of `width` (steps 0–99,
   * 100–199, …), ascending; ranges without an episode are left out.
   */
  stepRanges(runId: number, width: number, from: number, to: number): BrowseStepRange[] {
    return this.stepRangesStmt.all({ run: runId, width, from, to });
  }

  /** The groups of one step (`step` null = episodes without a step), by group id (numeric-aware: `g:2` before `g:10`). */
  groups(runId: number, step: number | null): BrowseGroup[] {
    return this.groupsStmt.all({ run: runId, step });
  }

  /** At most `limit` episodes of one group of one step from position `offset`, by sample index then id (numeric-aware). */
  episodes(runId: number, step: number | null, group: string | null, limit: number, offset = 0): BrowseEpisode[] {
    return this.episodesStmt.all({ run: runId, step, group, limit, offset });
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

/** A stored flag with its step range and its evidence parsed (location and listed locations apart). */
function toFlag({ evidenceJson, ...flag }: FlagRow): BrowseFlag {
  const { location, locations, ...evidence } = parseEvidence(evidenceJson);
  const range = /^(-?\d+)\.\.(-?\d+)$/.exec(flag.scopeId);
  return {
    ...flag,
    // A window over every step is stored at run scope with its range (auditRepository.ts).
    steps: flag.scope !== 'episode' && range ? [Number(range[1]), Number(range[2])] : null,
    evidence,
    location: toLocation(location),
    locations: Array.isArray(locations) ? locations.flatMap((l) => withEpisode(l) ?? []) : [],
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

/** A listed location with the id of its episode when the audit named it. */
function withEpisode(value: unknown): NonNullable<BrowseFlag['locations']>[number] | null {
  const at = toLocation(value);
  const episode = (value as { episode?: unknown } | null)?.episode;
  return at && typeof episode === 'string' ? { ...at, episode } : at;
}

function toLocation(value: unknown): BrowseFlag['location'] {
  if (typeof value !== 'object' || value === null) return null;
  const { uri, line } = value as { uri?: unknown; line?: unknown };
  return typeof uri === 'string' && typeof line === 'number' && Number.isInteger(line) ? { uri, line } : null;
}
