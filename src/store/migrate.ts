import type { Db } from './database';
import { init0001 } from './migrations/0001_init';
import { credit0002 } from './migrations/0002_credit';
import { lookup0003 } from './migrations/0003_lookup';
import { views0004 } from './migrations/0004_views';
import { import0005 } from './migrations/0005_import';
import { provenance0006 } from './migrations/0006_provenance';
import { rollingBuffer0007 } from './migrations/0007_rolling_buffer';
import { layout0008 } from './migrations/0008_layout';
import { splitIndex0009 } from './migrations/0009_split_index';
import { evaluatorUsage0010 } from './migrations/0010_evaluator_usage';
import { viewAggregates0011 } from './migrations/0011_view_aggregates';
import { runTotals0012 } from './migrations/0012_run_totals';
import { episodeFlags0013 } from './migrations/0013_episode_flags';
import { auditSummary0014 } from './migrations/0014_audit_summary';
import { agentCreditSort0015 } from './migrations/0015_agent_credit_sort';
import { naturalOrder0016 } from './migrations/0016_natural_order';
import { influence0017 } from './migrations/0017_influence';
import { batchAggregates0018 } from './migrations/0018_batch_aggregates';
import { episodeSearch0019 } from './migrations/0019_episode_search';
import { signalDisagreement0020 } from './migrations/0020_signal_disagreement';
import { episodeInfluence0021 } from './migrations/0021_episode_influence';
import { unsearchedTable0022 } from './migrations/0022_unsearched_table';
import { creditSets0023 } from './migrations/0023_credit_sets';

/** One schema step: SQL, or a function for what SQL alone cannot compute (run in the step's transaction). */
export type Migration = string | ((db: Db) => void);

/** Ordered schema migrations; migration i brings `user_version` from i to i + 1. */
export const migrations: readonly Migration[] = [
  init0001,
  credit0002,
  lookup0003,
  views0004,
  import0005,
  provenance0006,
  rollingBuffer0007,
  layout0008,
  splitIndex0009,
  evaluatorUsage0010,
  viewAggregates0011,
  runTotals0012,
  episodeFlags0013,
  auditSummary0014,
  agentCreditSort0015,
  naturalOrder0016,
  influence0017,
  batchAggregates0018,
  episodeSearch0019,
  signalDisagreement0020,
  episodeInfluence0021,
  unsearchedTable0022,
  creditSets0023,
];

/** The schema version this build writes. */
export const schemaVersion = migrations.length;

/**
 * Why an index cannot be read by this build: written by an older Credit Lens (`older`: an indexing
 * pass with this build migrates it) or a newer one (`newer`: never touched). Its message names the
 * remedy; callers that can act on it (the extension's views upgrade an older index) read `direction`.
 */
export class IndexSchemaError extends Error {
  constructor(
    readonly version: number,
    readonly understood: number,
    readonly direction: 'older' | 'newer',
  ) {
    super(
      direction === 'newer'
        ? `index schema version ${String(version)} is newer than this Credit Lens understands (${String(understood)}); ` +
            `upgrade Credit Lens or delete the index to rebuild it`
        : `index schema version ${String(version)} is older than this Credit Lens reads (${String(understood)}); ` +
            `index the folder once with this version to upgrade it (Credit Lens: Index Run Folder, or credit-lens index <folder>)`,
    );
    this.name = 'IndexSchemaError';
  }
}

/**
 * Brings the database to {@link schemaVersion}, one transaction per migration, using
 * `PRAGMA user_version` as the version. A database newer than this build is refused rather than
 * touched, so an older Credit Lens never corrupts an index written by a newer one.
 */
export function migrate(db: Db, steps: readonly Migration[] = migrations): number {
  const current = schemaVersionOf(db);
  if (current > steps.length) throw new IndexSchemaError(current, steps.length, 'newer');
  for (let version = current; version < steps.length; version++) {
    const step = steps[version] ?? '';
    db.transaction(() => {
      if (typeof step === 'string') db.exec(step);
      else step(db);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
  return steps.length;
}

/**
 * Refuses, with an {@link IndexSchemaError}, an index a read-only connection cannot read: one
 * written by another schema than this build's. A read-only connection never migrates, and a view's
 * statements written for this schema fail on an older one with errors such as "no such table"
 * (an index from before migration 0013 read as "no index yet"). Version 0 (no Credit Lens schema)
 * passes: its first read says what it is.
 */
export function assertReadableSchema(db: Db): void {
  const version = schemaVersionOf(db);
  if (version === 0 || version === schemaVersion) return;
  throw new IndexSchemaError(version, schemaVersion, version > schemaVersion ? 'newer' : 'older');
}

/** The schema version the database is at (`PRAGMA user_version`; 0 before the first migration). */
export function schemaVersionOf(db: Db): number {
  const rows = db.pragma('user_version') as { user_version: number }[];
  return rows[0]?.user_version ?? 0;
}
