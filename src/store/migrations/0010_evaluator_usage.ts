/**
 * Schema 10: what a credit pass spent on an evaluator that calls a model server (issue 14, the
 * replay evaluator): calls, tokens, retries, failures and time, with the credit parameters they
 * were spent for (the pass's `params_hash` and `params_json`) and the estimate shown before it ran.
 * One row per run and parameter set: the latest pass. A replay's API key is never stored.
 */
export const evaluatorUsage0010 = `
CREATE TABLE evaluator_usage (
  run_id            INTEGER NOT NULL REFERENCES run,
  method            TEXT NOT NULL,
  params_hash       TEXT NOT NULL,
  params_json       TEXT NOT NULL,
  calls             INTEGER NOT NULL,
  failed_calls      INTEGER NOT NULL,
  retries           INTEGER NOT NULL,
  prompt_tokens     INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL,
  elapsed_ms        INTEGER NOT NULL,
  failed_episodes   INTEGER NOT NULL,
  estimate_json     TEXT,                -- {calls, promptTokens, completionTokens} estimated before the pass
  computed_at       TEXT NOT NULL,
  PRIMARY KEY (run_id, method, params_hash)
) WITHOUT ROWID;
`;
