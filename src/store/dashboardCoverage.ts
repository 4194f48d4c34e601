import { defaultSplit, type SplitChoice } from '../core/split';
import type { CreditCoverage } from '../core/provenance';
import type { Db, Statement } from './database';
import { inSplit, kindInSplit, unsteppedEpisodes } from './dashboardSplit';
import { splitParam } from './splitFilter';
import type { CreditAggregates } from './viewAggregates';

/** The episode counts of a coverage, without the reason. */
type CoverageCounts = Omit<CreditCoverage, 'reason' | 'remedy'>;
const noCoverage: CoverageCounts = { episodes: 0, drawn: 0, approximate: 0, notIdentifiable: 0, failed: 0 };

// The counts from the aggregates of migration 0011 (`rows` 0: the parameter set has none).
const coverageAggregateSql = `
  SELECT (SELECT coalesce(sum(episodes), 0) FROM step_total WHERE run_id = :run AND ${kindInSplit}) + ${unsteppedEpisodes} AS episodes,
    coalesce(sum(drawn), 0) AS drawn, coalesce(sum(approximate), 0) AS approximate,
    coalesce(sum(unidentified), 0) AS notIdentifiable, coalesce(sum(failed), 0) AS failed, count(*) AS rows
  FROM credit_step_coverage WHERE run_id = :run AND method = :method AND params_hash = :hash AND ${kindInSplit}`;

// How much of a parameter set the charts can draw (only exact or estimated credit), and why not the rest.
const splitEpisodes = `episode_id IN (SELECT e.episode_id FROM episode e WHERE e.run_id = :run AND ${inSplit('e')})`;
const coverageSql = `
  SELECT
    (SELECT count(*) FROM episode e WHERE e.run_id = :run AND ${inSplit('e')}) AS episodes,
    (SELECT count(DISTINCT episode_id) FROM credit WHERE run_id = :run AND method = :method AND params_hash = :hash
      AND message_seq IS NULL AND status IN ('exact', 'estimated') AND ${splitEpisodes}) AS drawn,
    (SELECT count(DISTINCT episode_id) FROM credit WHERE run_id = :run AND method = :method AND params_hash = :hash
      AND message_seq IS NULL AND status = 'approximate' AND ${splitEpisodes}) AS approximate,
    (SELECT count(*) FROM credit_error WHERE run_id = :run AND method = :method AND params_hash = :hash AND status = 'not-identifiable' AND ${splitEpisodes}) AS notIdentifiable,
    (SELECT count(*) FROM credit_error WHERE run_id = :run AND method = :method AND params_hash = :hash AND status <> 'not-identifiable' AND ${splitEpisodes}) AS failed`;
const topReasonSql = `
  SELECT reason, remedy, count(*) AS n FROM credit_error WHERE run_id = :run AND method = :method AND params_hash = :hash AND status = 'not-identifiable'
  GROUP BY reason, remedy ORDER BY n DESC LIMIT 1`;

/** The coverage statements, exported so a test can check their query plans. */
export const coverageQueries = { coverage: coverageSql, coverageAggregate: coverageAggregateSql } as const;

/** What the Run Dashboard's charts of one parameter set draw and leave out (docs/credit-provenance.md). */
export class CoverageReader {
  private readonly aggregateStmt: Statement<CoverageCounts & { rows: number }>;
  private readonly coverageStmt: Statement<CoverageCounts>;
  private readonly topReasonStmt: Statement<{ reason: string; remedy: string | null }>;

  constructor(
    db: Db,
    private readonly aggregates: CreditAggregates,
  ) {
    this.aggregateStmt = db.prepare(coverageAggregateSql);
    this.coverageStmt = db.prepare(coverageSql);
    this.topReasonStmt = db.prepare(topReasonSql);
  }

  /** What the charts of one parameter set draw and leave out over the episodes in `split`. */
  coverage(runId: number, method: string, paramsHash: string, split: SplitChoice = defaultSplit): CreditCoverage {
    const params = { run: runId, method, hash: paramsHash };
    const aggregated = this.aggregates.fresh(runId)
      ? this.aggregateStmt.get({ ...params, split: splitParam(split) })
      : undefined;
    const { rows, ...counts } = aggregated ?? { rows: 0, ...noCoverage };
    // A parameter set without aggregate rows (one whose every episode failed) is counted from its rows.
    const c = rows > 0 ? counts : (this.coverageStmt.get({ ...params, split: splitParam(split) }) ?? noCoverage);
    const top = this.topReasonStmt.get(params);
    return { ...c, reason: top?.reason ?? null, remedy: top?.remedy ?? null };
  }
}
