/**
 * Schema 6: provenance of credit (issue 11, docs/credit-provenance.md). Every credit row gets a
 * status (exact | estimated | approximate) and the intervention its counterfactual is; an episode
 * the data cannot answer is stored in `credit_error` with status `not-identifiable` and the remedy;
 * cached evaluations remember whether the evaluator re-generated downstream agents; `calibration`
 * keeps how well each checker reproduced the logged rewards of a run.
 */
export const provenance0006 = `
ALTER TABLE credit ADD COLUMN status TEXT NOT NULL DEFAULT 'exact';   -- exact | estimated | approximate
ALTER TABLE credit ADD COLUMN intervention TEXT;                      -- leave-one-out: the counterfactual's intervention
UPDATE credit SET status = CASE WHEN approximate = 1 THEN 'approximate' WHEN stderr IS NOT NULL THEN 'estimated' ELSE 'exact' END;
UPDATE credit SET source = 'checked' WHERE source = 'evaluated';
UPDATE credit SET source = 'logged+checked' WHERE source = 'mixed';
-- The dashboard draws only exact or estimated credit: keep its covering index covering.
DROP INDEX credit_agent_value;
CREATE INDEX credit_agent_value ON credit(method, params_hash, episode_id, agent_id, value, status, message_seq) WHERE message_seq IS NULL;

ALTER TABLE credit_error ADD COLUMN status TEXT NOT NULL DEFAULT 'failed'; -- failed | not-identifiable
ALTER TABLE credit_error ADD COLUMN remedy TEXT;

ALTER TABLE evaluation ADD COLUMN replayed INTEGER NOT NULL DEFAULT 0;

CREATE TABLE calibration (
  run_id       INTEGER NOT NULL REFERENCES run,
  evaluator    TEXT NOT NULL,            -- fingerprint
  sampled      INTEGER NOT NULL,         -- factual episodes scored
  agreed       INTEGER NOT NULL,         -- of which the checker reproduced the logged reward
  threshold    REAL NOT NULL,
  accepted     INTEGER NOT NULL,
  reason       TEXT,                     -- why it was not accepted
  example_json TEXT,                     -- one disagreeing episode {episode, logged, checked}
  computed_at  TEXT NOT NULL,
  PRIMARY KEY (run_id, evaluator)
) WITHOUT ROWID;
`;
