/**
 * Schema 23 (issue 15): credit rows name their parameter set by an integer, `credit_set.set_id`,
 * instead of repeating the run, the method and the 16-character parameter hash in every row and
 * in three of its four indexes. A pass writes one row per agent and episode (390,000 for the
 * 1 GB run's LOO); with the text keys, storing them took as long as reading and computing them.
 *
 * - `credit_set`: one row per (run, method, parameter hash), the key every credit row points to,
 *   and `newest`, its largest credit id: which set of a run's method was written last is one
 *   lookup (creditSets.ts), where it was a seek per agent for the largest row id.
 * - `credit_value`: the rows, without run, method, hash, `approximate` (it is `status =
 *   'approximate'`), the unused `params_json` (0012) and the episode scope (`scope_kind` and
 *   `scope_id` are NULL for an episode's own row, which is every row a pass writes).
 * - Three indexes instead of four: the key (episode first: the clearing of an episode's rows and
 *   the cascade from a deleted episode), the per-agent sort, and the covering one of the views,
 *   now over every row (not only agent-level ones), since it also serves what
 *   `credit_run_method_agent` did: every row of a parameter set.
 * - `credit` stays, as a view with the old columns in the old order, so every reader and the
 *   shards' queries read it unchanged; writes through it go to the tables by INSTEAD OF triggers.
 *   The credit pass writes `credit_value` directly (creditRepository.ts). The view reads the set
 *   first (CROSS JOIN fixes the order): a run has a few sets, and each is one range of
 *   `credit_value`'s indexes, so a reader's method and hash pick the range as the text keys did.
 */
export const creditSets0023 = `
CREATE TABLE credit_set (
  set_id      INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES run,
  method      TEXT NOT NULL,
  params_hash TEXT NOT NULL,
  newest      INTEGER,                  -- the largest credit_id written to the set: the set written last has the largest
  UNIQUE (method, params_hash, run_id)
);
INSERT INTO credit_set (run_id, method, params_hash)
  SELECT DISTINCT run_id, method, params_hash FROM credit ORDER BY method, params_hash, run_id;

CREATE TABLE credit_value (
  credit_id    INTEGER PRIMARY KEY,
  set_id       INTEGER NOT NULL REFERENCES credit_set,
  episode_id   INTEGER REFERENCES episode ON DELETE CASCADE,  -- NULL = run or group scope
  agent_id     INTEGER NOT NULL REFERENCES agent,
  message_seq  INTEGER,                                       -- set for per-message credit
  value        REAL,
  status       TEXT NOT NULL DEFAULT 'exact',                 -- exact | estimated | approximate
  source       TEXT,
  intervention TEXT,
  advantage    REAL,
  stderr       REAL,
  n            INTEGER,
  ci_low       REAL,
  ci_high      REAL,
  computed_at  TEXT NOT NULL,
  scope_kind   TEXT,                                          -- NULL: the episode's own row
  scope_id     TEXT
);
INSERT INTO credit_value (credit_id, set_id, episode_id, agent_id, message_seq, value, status, source, intervention,
    advantage, stderr, n, ci_low, ci_high, computed_at, scope_kind, scope_id)
  SELECT c.credit_id, s.set_id, c.episode_id, c.agent_id, c.message_seq, c.value,
    CASE WHEN c.approximate = 1 THEN 'approximate' ELSE c.status END, c.source, c.intervention,
    c.advantage, c.stderr, c.n, c.ci_low, c.ci_high, c.computed_at,
    CASE WHEN c.scope_kind = 'episode' AND c.scope_id IS CAST(c.episode_id AS TEXT) THEN NULL ELSE c.scope_kind END,
    CASE WHEN c.scope_kind = 'episode' AND c.scope_id IS CAST(c.episode_id AS TEXT) THEN NULL ELSE c.scope_id END
  FROM credit c JOIN credit_set s ON s.method = c.method AND s.params_hash = c.params_hash AND s.run_id = c.run_id
  ORDER BY c.credit_id;
DROP TABLE credit;
UPDATE credit_set SET newest = (SELECT max(v.credit_id) FROM credit_value v WHERE v.set_id = credit_set.set_id);

CREATE UNIQUE INDEX credit_key ON credit_value(episode_id, agent_id, set_id, coalesce(message_seq, -1));
CREATE INDEX credit_agent_sort ON credit_value(set_id, agent_id, value, episode_id) WHERE message_seq IS NULL;
CREATE INDEX credit_agent_value ON credit_value(set_id, episode_id, agent_id, value, status, message_seq);

${creditView()}
`;

/** The view `credit` over the two tables, and its triggers (also what a test that reverts 0023 drops). */
export function creditView(): string {
  return `
CREATE VIEW credit AS
  SELECT v.credit_id AS credit_id, s.run_id AS run_id, v.episode_id AS episode_id,
    coalesce(v.scope_kind, 'episode') AS scope_kind, coalesce(v.scope_id, CAST(v.episode_id AS TEXT)) AS scope_id,
    v.agent_id AS agent_id, v.message_seq AS message_seq, s.method AS method, v.value AS value, v.stderr AS stderr,
    v.n AS n, s.params_hash AS params_hash, NULL AS params_json, v.computed_at AS computed_at, v.ci_low AS ci_low,
    v.ci_high AS ci_high, v.advantage AS advantage, v.status = 'approximate' AS approximate, v.source AS source,
    v.status AS status, v.intervention AS intervention
  FROM credit_set s CROSS JOIN credit_value v ON v.set_id = s.set_id;

-- A bound id may arrive as a REAL (1.0, which casts to '1.0'): compared as an integer.
CREATE TRIGGER credit_insert INSTEAD OF INSERT ON credit BEGIN
  INSERT OR IGNORE INTO credit_set (run_id, method, params_hash) VALUES (NEW.run_id, NEW.method, NEW.params_hash);
  INSERT INTO credit_value (credit_id, set_id, episode_id, agent_id, message_seq, value, status, source, intervention,
      advantage, stderr, n, ci_low, ci_high, computed_at, scope_kind, scope_id)
    VALUES (NEW.credit_id,
      (SELECT set_id FROM credit_set WHERE method = NEW.method AND params_hash = NEW.params_hash AND run_id = NEW.run_id),
      NEW.episode_id, NEW.agent_id, NEW.message_seq, NEW.value,
      CASE WHEN NEW.approximate = 1 THEN 'approximate' ELSE coalesce(NEW.status, 'exact') END,
      NEW.source, NEW.intervention, NEW.advantage, NEW.stderr, NEW.n, NEW.ci_low, NEW.ci_high, NEW.computed_at,
      CASE WHEN NEW.scope_kind = 'episode' AND NEW.scope_id IS CAST(CAST(NEW.episode_id AS INTEGER) AS TEXT) THEN NULL ELSE NEW.scope_kind END,
      CASE WHEN NEW.scope_kind = 'episode' AND NEW.scope_id IS CAST(CAST(NEW.episode_id AS INTEGER) AS TEXT) THEN NULL ELSE NEW.scope_id END);
  UPDATE credit_set SET newest = last_insert_rowid()
    WHERE method = NEW.method AND params_hash = NEW.params_hash AND run_id = NEW.run_id;
END;

CREATE TRIGGER credit_update INSTEAD OF UPDATE ON credit BEGIN
  UPDATE credit_value SET value = NEW.value, stderr = NEW.stderr, n = NEW.n, ci_low = NEW.ci_low, ci_high = NEW.ci_high,
    advantage = NEW.advantage, source = NEW.source, intervention = NEW.intervention, computed_at = NEW.computed_at,
    status = CASE WHEN NEW.approximate = 1 AND OLD.approximate = 0 THEN 'approximate' ELSE NEW.status END
  WHERE credit_id = OLD.credit_id;
END;

CREATE TRIGGER credit_delete INSTEAD OF DELETE ON credit BEGIN
  DELETE FROM credit_value WHERE credit_id = OLD.credit_id;
END;
`;
}
