/**
 * Schema 16 (issue 16): numeric-aware order of episode and group ids, and one meaning of an
 * episode's flag count.
 *
 * - `episode.external_key` / `group_key`: naturalSortKey() of the ids, written with the episode
 *   (episodeWriter.ts), so `g:2` sorts before `g:10` in plain SQL order; `episode_natural` keeps the
 *   table's id sort on an index. SQLite has no regular expressions, so existing rows get their keys
 *   here in JavaScript, in batches by rowid.
 * - `flag_episode`: the episodes each flag is about (episodeFlags.ts), kept by triggers on `flag`;
 *   `episode_flag` is recounted from it, and its insert trigger now seeks it instead of testing
 *   every step window, so a run-wide window no longer counts on every episode.
 */
import { naturalSortKey } from '../../core/naturalSortKey';
import type { Db } from '../database';
import { flagCountRowsSql, flagCoverSql, flagEpisodesSql } from '../episodeFlags';

const newFlag = `(SELECT new.run_id AS run_id, new.flag_id AS flag_id, new.kind AS kind, new.scope_kind AS scope_kind,
  new.scope_id AS scope_id, new.evidence_json AS evidence_json) f`;
const newEpisode = `(SELECT new.run_id AS run_id, new.episode_id AS episode_id, new.external_id AS external_id) e`;

const before = `
ALTER TABLE episode ADD COLUMN external_key TEXT;
ALTER TABLE episode ADD COLUMN group_key TEXT;

CREATE TABLE flag_episode (
  run_id      INTEGER NOT NULL,
  external_id TEXT NOT NULL,
  flag_id     INTEGER NOT NULL,
  kind        TEXT NOT NULL,
  PRIMARY KEY (run_id, external_id, flag_id)
) WITHOUT ROWID;
CREATE INDEX flag_episode_flag ON flag_episode(flag_id);
INSERT OR IGNORE INTO flag_episode (run_id, external_id, flag_id, kind) ${flagEpisodesSql('flag f')};

CREATE TRIGGER flag_episode_insert AFTER INSERT ON flag BEGIN
  INSERT OR IGNORE INTO flag_episode (run_id, external_id, flag_id, kind) ${flagEpisodesSql(newFlag)};
END;
CREATE TRIGGER flag_episode_delete AFTER DELETE ON flag BEGIN
  DELETE FROM flag_episode WHERE flag_id = old.flag_id;
END;

DROP TRIGGER episode_flag_insert;
CREATE TRIGGER episode_flag_insert AFTER INSERT ON episode BEGIN
  INSERT INTO episode_flag (run_id, episode_id, kind, n) ${flagCountRowsSql(flagCoverSql(newEpisode, '1'))};
END;
DELETE FROM episode_flag;
INSERT INTO episode_flag (run_id, episode_id, kind, n) ${flagCountRowsSql(flagCoverSql('episode e', '1'))};
`;

// Built after the keys are filled: one sort of the finished column instead of an index kept per update.
const after = `CREATE INDEX episode_natural ON episode(run_id, external_key);`;

/** Rows keyed per batch: bounded memory at any index size. */
const batch = 20_000;

/** Gives every existing episode its sort keys (a group's key computed once per distinct group id). */
function fillKeys(db: Db): void {
  const read = db.prepare<{ episode_id: number; external_id: string; group_id: string | null }>(
    'SELECT episode_id, external_id, group_id FROM episode WHERE episode_id > ? ORDER BY episode_id LIMIT ?',
  );
  const write = db.prepare('UPDATE episode SET external_key = ?, group_key = ? WHERE episode_id = ?');
  const groupKeys = new Map<string, string>();
  const groupKey = (group: string | null): string | null => {
    if (group === null) return null;
    let key = groupKeys.get(group);
    if (key === undefined) groupKeys.set(group, (key = naturalSortKey(group)));
    return key;
  };
  for (let last = 0, rows = read.all(last, batch); rows.length > 0; rows = read.all(last, batch)) {
    for (const r of rows) write.run(naturalSortKey(r.external_id), groupKey(r.group_id), r.episode_id);
    last = rows[rows.length - 1]?.episode_id ?? Infinity;
    if (groupKeys.size > batch) groupKeys.clear();
  }
}

/** Migration 0016 (see the file's comment); runs in migrate()'s transaction. */
export function naturalOrder0016(db: Db): void {
  db.exec(before);
  fillKeys(db);
  db.exec(after);
}
