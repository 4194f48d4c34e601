/**
 * Schema 2: the credit engine's tables. `evaluation` caches every evaluator call (keyed by episode,
 * intervention and evaluator fingerprint), so reopening a run or switching methods reuses them;
 * `credit` gains confidence bounds, the GRPO group-relative advantage, provenance and an
 * approximation mark; `credit_error` records episodes a method could not compute.
 */
export const credit0002 = `
CREATE TABLE evaluation (
  episode_id   INTEGER NOT NULL REFERENCES episode ON DELETE CASCADE,
  evaluator    TEXT NOT NULL,            -- fingerprint: evaluator name, options and version
  intervention TEXT NOT NULL,            -- e.g. 'agents:1,3' (agent ids present) or 'messages:0,2,5'
  value        REAL NOT NULL,
  computed_at  TEXT NOT NULL,
  PRIMARY KEY (episode_id, evaluator, intervention)
) WITHOUT ROWID;

ALTER TABLE credit ADD COLUMN ci_low REAL;
ALTER TABLE credit ADD COLUMN ci_high REAL;
ALTER TABLE credit ADD COLUMN advantage REAL;     -- GRPO group-relative advantage of value (per group and agent)
ALTER TABLE credit ADD COLUMN approximate INTEGER NOT NULL DEFAULT 0;
ALTER TABLE credit ADD COLUMN source TEXT;        -- logged | evaluated | mixed
CREATE UNIQUE INDEX credit_key ON credit(method, params_hash, episode_id, agent_id, coalesce(message_seq, -1));

CREATE TABLE credit_error (
  run_id      INTEGER NOT NULL REFERENCES run,
  episode_id  INTEGER NOT NULL REFERENCES episode ON DELETE CASCADE,
  method      TEXT NOT NULL,
  params_hash TEXT NOT NULL,
  reason      TEXT NOT NULL,
  computed_at TEXT NOT NULL,
  PRIMARY KEY (method, params_hash, episode_id)
) WITHOUT ROWID;
CREATE INDEX credit_error_episode ON credit_error(episode_id);
`;
