/**
 * Schema 13: the flags covering each episode, per kind and over every kind (episodeFlags.ts), so the
 * episode table's page sorted by flags and its flag filter read an index (issue 15: under 500 ms at
 * 1.3 M episodes) instead of recounting the run's flags over every episode. A narrow side table
 * rather than a column of `episode`, whose wide rows an audit would otherwise rewrite.
 *
 * The audit rebuilds a run's rows when it replaces the run's flags; triggers on episode count the
 * flags of an episode indexed later (a step window or an episode id it already names) and drop the
 * rows of a deleted one. flag_scope finds the flags naming one episode or one step window.
 */
import { everyKind, flagCountRowsSql } from '../episodeFlags';

// What covered an episode at schema 13, frozen here (migration 0016 replaced it by the flags about
// the episode, episodeFlags.ts): an episode-scope flag naming it, or a step window holding its step.
const stepLo = `CAST(substr(f.scope_id, 1, instr(f.scope_id, '..') - 1) AS INTEGER)`;
const stepHi = `CAST(substr(f.scope_id, instr(f.scope_id, '..') + 2) AS INTEGER)`;
const flagCoverSql = (episodes: string): string => `
    SELECT e.run_id, e.episode_id, f.kind FROM ${episodes} JOIN flag f
      ON f.run_id = e.run_id AND f.scope_kind = 'episode' AND f.scope_id = e.external_id
    UNION ALL
    SELECT e.run_id, e.episode_id, f.kind FROM flag f JOIN ${episodes}
      ON e.run_id = f.run_id AND e.train_step BETWEEN ${stepLo} AND ${stepHi}
    WHERE f.scope_kind = 'step' AND instr(f.scope_id, '..') > 0`;

const newEpisode = `(SELECT new.run_id AS run_id, new.episode_id AS episode_id, new.external_id AS external_id,
  new.train_step AS train_step) e`;

export const episodeFlags0013 = `
CREATE INDEX flag_scope ON flag(run_id, scope_kind, scope_id);

CREATE TABLE episode_flag (
  run_id     INTEGER NOT NULL,
  episode_id INTEGER NOT NULL,
  kind       TEXT NOT NULL,               -- a flag kind, or '${everyKind}' for every kind together
  n          INTEGER NOT NULL,            -- flags of that kind covering the episode (> 0)
  PRIMARY KEY (run_id, episode_id, kind)
) WITHOUT ROWID;
-- The page sorted by flags walks it by count; the flag filter reads the ids of one kind.
CREATE INDEX episode_flag_rank ON episode_flag(run_id, kind, n, episode_id);

INSERT INTO episode_flag (run_id, episode_id, kind, n) ${flagCountRowsSql(flagCoverSql('episode e'))};

CREATE TRIGGER episode_flag_insert AFTER INSERT ON episode BEGIN
  INSERT INTO episode_flag (run_id, episode_id, kind, n) ${flagCountRowsSql(flagCoverSql(newEpisode))};
END;
CREATE TRIGGER episode_flag_delete AFTER DELETE ON episode BEGIN
  DELETE FROM episode_flag WHERE run_id = old.run_id AND episode_id = old.episode_id;
END;
`;
