import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeDemoRun } from '../../../src/demo/writeDemoRun';
import { indexRunFolder } from '../../../src/ingest/indexRunFolder';
import type { Db } from '../../../src/store/database';
import { IndexStore } from '../../../src/store/indexStore';
import { tempFolder } from '../../builders/episodeBuilder';

/** A generated two-run folder (the team run and the routed run; the demo's `-credit` run left out), indexed. */
export async function indexedDemo(): Promise<{ root: string; store: IndexStore; rollouts: string; files: string[] }> {
  const root = tempFolder();
  writeDemoRun(root, { episodes: 240, groupsPerStep: 8, seed: 3, creditRun: false });
  const store = IndexStore.open(':memory:');
  await indexRunFolder(root, store);
  const team = readdirSync(root).find((name) => readdirSync(join(root, name)).includes('rollouts')) ?? '';
  const rollouts = join(root, team, 'rollouts');
  return { root, store, rollouts, files: readdirSync(rollouts).sort() };
}

/**
 * Undoes migration 0023: the credit rows back in one table `credit` with their run, method, hash
 * and scope in every row, and its four indexes of schema 22; the view, its triggers and the two
 * tables dropped.
 */
export function revertCreditSets(db: Db): void {
  db.exec(`CREATE TABLE credit_rows (
      credit_id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES run,
      episode_id INTEGER REFERENCES episode ON DELETE CASCADE, scope_kind TEXT NOT NULL, scope_id TEXT NOT NULL,
      agent_id INTEGER NOT NULL REFERENCES agent, message_seq INTEGER, method TEXT NOT NULL, value REAL, stderr REAL,
      n INTEGER, params_hash TEXT NOT NULL, params_json TEXT, computed_at TEXT NOT NULL, ci_low REAL, ci_high REAL,
      advantage REAL, approximate INTEGER NOT NULL DEFAULT 0, source TEXT, status TEXT NOT NULL DEFAULT 'exact', intervention TEXT);
    INSERT INTO credit_rows SELECT * FROM credit;
    DROP VIEW credit; DROP TABLE credit_value; DROP TABLE credit_set;
    ALTER TABLE credit_rows RENAME TO credit;
    CREATE INDEX credit_run_method_agent ON credit(run_id, method, agent_id);
    CREATE INDEX credit_agent_value ON credit(method, params_hash, episode_id, agent_id, value, status, message_seq) WHERE message_seq IS NULL;
    CREATE UNIQUE INDEX credit_key ON credit(episode_id, agent_id, method, params_hash, coalesce(message_seq, -1));
    CREATE INDEX credit_agent_sort ON credit(method, params_hash, agent_id, value, episode_id) WHERE message_seq IS NULL;`);
}

/**
 * Undoes migrations 0023 (which came after it) and 0022: whether an episode is searchable back in
 * its `search_indexed` column (with the partial index), the table of unsearched ids dropped.
 */
export function revertUnsearchedTable(db: Db): void {
  revertCreditSets(db);
  db.exec(`ALTER TABLE episode ADD COLUMN search_indexed INTEGER NOT NULL DEFAULT 1;
    UPDATE episode SET search_indexed = 0 WHERE episode_id IN (SELECT episode_id FROM episode_unsearched);
    DROP TABLE episode_unsearched;
    CREATE INDEX episode_unsearched ON episode(episode_id) WHERE search_indexed = 0;`);
}

/** Takes an index back to schema 11: without what migrations 0012 and later add, with the credit indexes 0012 drops. */
export function revertTo11(db: Db): void {
  revertUnsearchedTable(db);
  // Schema 11's full-text index had a document per message (migration 0019 replaced it).
  db.exec(`DROP TABLE episode_fts; CREATE VIRTUAL TABLE message_fts USING fts5(content, content='', contentless_delete=1, detail=none);
    DROP TABLE episode_influence; DROP TABLE audit_summary; DROP TRIGGER IF EXISTS episode_flag_insert; DROP TRIGGER episode_flag_delete;
    DROP TABLE episode_flag; DROP INDEX flag_scope; DROP INDEX credit_agent_sort;
    DROP TRIGGER flag_episode_insert; DROP TRIGGER flag_episode_delete; DROP TABLE flag_episode;
    DROP INDEX episode_natural; ALTER TABLE episode DROP COLUMN external_key; ALTER TABLE episode DROP COLUMN group_key;
    DROP TABLE run_totals; DROP TABLE agent_totals; DROP TABLE credit_params;
    ALTER TABLE source DROP COLUMN episodes;
    DROP INDEX credit_key;
    CREATE UNIQUE INDEX credit_key ON credit(method, params_hash, episode_id, agent_id, coalesce(message_seq, -1));
    CREATE INDEX credit_episode ON credit(episode_id, method);
    CREATE INDEX credit_agent ON credit(agent_id);
    DROP TABLE signal_step_agent; DROP TRIGGER signal_step_agent_delete;`);
  db.pragma('user_version = 11');
}
