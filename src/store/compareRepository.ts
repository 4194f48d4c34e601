import { defaultSplit } from '../core/split';
import type { Db, Statement } from './database';
import { splitCondition, splitParam } from './splitFilter';

/** What the comparison needs of one episode: its pairing keys, outcome and where its record is. */
export interface CompareEpisode {
  readonly episodeId: number;
  readonly externalId: string;
  readonly task: string | null;
  readonly group: string | null;
  readonly sample: number | null;
  readonly step: number | null;
  readonly reward: number | null;
  readonly uri: string;
  /** The importer of the file (source.format). */
  readonly format: string;
  readonly line: number;
  readonly offset: number;
  readonly length: number;
}

/** One stored agent-level credit value of an episode with its provenance. */
export interface CompareCredit {
  readonly episodeId: number;
  readonly agent: string;
  readonly value: number;
  /** exact | estimated | approximate. */
  readonly status: string;
  /** `logged`, `logged+checked`, … as stored (null for rows older than provenance). */
  readonly source: string | null;
}

/** The episodes a parameter set could not give credit, by stored status (failed | not-identifiable). */
export interface CompareFailures {
  readonly status: string;
  readonly episodes: number;
  /** The first (lowest episode id) failure's reason and remedy. */
  readonly reason: string;
  readonly remedy: string | null;
}

/** A parameter set a run has agent-level credit under, with how many episodes it covers. */
export interface CompareParamSet {
  readonly paramsHash: string;
  readonly episodes: number;
  /** The largest credit row id of the set: a larger one was written later. */
  readonly newest: number;
}

/** A side's episodes: one run, optionally an inclusive step range (no step counts as 0). */
export interface CompareScope {
  readonly runId: number;
  readonly steps?: { readonly from: number; readonly to: number };
}

// Every read is one set-based statement over the side's episodes (the training split, as credit and
// audit use by default): no query per episode.
const inScope = `e.run_id = :run AND ${splitCondition('e', ':split')}
  AND (:from IS NULL OR coalesce(e.train_step, 0) BETWEEN :from AND :to)`;

const episodesSql = `
  SELECT e.episode_id AS episodeId, e.external_id AS externalId, e.task_id AS task, e.group_id AS "group",
    e.sample_idx AS sample, e.train_step AS step, e.outcome AS reward, s.uri, s.format, e.line,
    e.byte_offset AS offset, e.byte_length AS length
  FROM episode e JOIN source s ON s.source_id = e.source_id WHERE ${inScope} ORDER BY e.episode_id`;

const creditSql = `
  SELECT c.episode_id AS episodeId, a.name AS agent, c.value, c.status, c.source
  FROM episode e CROSS JOIN credit c JOIN agent a ON a.agent_id = c.agent_id
  WHERE ${inScope} AND c.episode_id = e.episode_id AND c.method = :method AND c.params_hash = :hash
    AND c.message_seq IS NULL AND c.value IS NOT NULL`;

const failuresSql = `
  SELECT x.status, count(*) AS episodes, min(x.episode_id) AS first FROM episode e CROSS JOIN credit_error x
  WHERE ${inScope} AND x.episode_id = e.episode_id AND x.method = :method AND x.params_hash = :hash GROUP BY x.status`;

const failureSql = 'SELECT reason, remedy FROM credit_error WHERE episode_id = ? AND method = ? AND params_hash = ?';

// Every parameter set of the run's agent-level credit of a method, the widest first (ties: the newest).
const paramSetsSql = `
  SELECT params_hash AS paramsHash, count(*) AS episodes, max(newest) AS newest FROM (
    SELECT params_hash, episode_id, max(credit_id) AS newest FROM credit
    WHERE run_id = ? AND method = ? AND message_seq IS NULL GROUP BY params_hash, episode_id)
  GROUP BY params_hash ORDER BY episodes DESC, newest DESC`;
const methodsSql = 'SELECT DISTINCT method FROM credit WHERE run_id = ? ORDER BY method';

/**
 * The comparison's reads (docs/credit-methods.md §5.5): a side's episodes with their pairing keys,
 * its stored credit of one parameter set, its failures, and the methods a run has credit for. Runs,
 * latest parameter sets, flags and audit summaries are read through the repositories that own them
 * (DashboardRepository, BrowseRepository, AgentSummaryRepository).
 */
export class CompareRepository {
  private readonly episodesStmt: Statement<CompareEpisode>;
  private readonly creditStmt: Statement<CompareCredit>;
  private readonly failuresStmt: Statement<{ status: string; episodes: number; first: number }>;
  private readonly failureStmt: Statement<{ reason: string; remedy: string | null }>;
  private readonly methodsStmt: Statement<{ method: string }>;
  private readonly paramSetsStmt: Statement<CompareParamSet>;

  constructor(db: Db) {
    this.episodesStmt = db.prepare(episodesSql);
    this.creditStmt = db.prepare(creditSql);
    this.failuresStmt = db.prepare(failuresSql);
    this.failureStmt = db.prepare(failureSql);
    this.methodsStmt = db.prepare(methodsSql);
    this.paramSetsStmt = db.prepare(paramSetsSql);
  }

  /** The side's training episodes in id order. */
  episodes(scope: CompareScope): CompareEpisode[] {
    return this.episodesStmt.all(scopeParams(scope));
  }

  /** The side's stored agent-level credit of `method` under parameter set `paramsHash` (rows with a value). */
  credit(scope: CompareScope, method: string, paramsHash: string): CompareCredit[] {
    return this.creditStmt.all({ ...scopeParams(scope), method, hash: paramsHash });
  }

  /** The side's episodes with a stored failure of the parameter set, by status, each with its first reason. */
  failures(scope: CompareScope, method: string, paramsHash: string): CompareFailures[] {
    return this.failuresStmt.all({ ...scopeParams(scope), method, hash: paramsHash }).map((row) => {
      const first = this.failureStmt.get(row.first, method, paramsHash);
      return { status: row.status, episodes: row.episodes, reason: first?.reason ?? '', remedy: first?.remedy ?? null };
    });
  }

  /** The run's parameter sets of `method`, the one covering the most episodes first (ties: the newest). */
  paramSets(runId: number, method: string): CompareParamSet[] {
    return this.paramSetsStmt.all(runId, method);
  }

  /** The methods the run has agent-level credit for, by name. */
  methods(runId: number): string[] {
    return this.methodsStmt.all(runId).map((r) => r.method);
  }
}

function scopeParams(scope: CompareScope): Record<string, string | number | null> {
  // An open range (`25..`) arrives as ±Infinity: bound it to what a step can be.
  const clamp = (step: number): number => Math.max(-1e15, Math.min(1e15, step));
  return {
    run: scope.runId,
    split: splitParam(defaultSplit),
    from: scope.steps ? clamp(scope.steps.from) : null,
    to: scope.steps ? clamp(scope.steps.to) : null,
  };
}
