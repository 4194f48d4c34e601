/**
 * Schema 20 (issue 18): how wrong is the training signal (credit-methods.md §3.18).
 *
 * `signal_step_agent` holds, per (run, method, parameter set, split kind, step, agent), the counts
 * of the agent's samples whose GRPO advantage under the shared reward and under its stored credit
 * have opposite signs (`opposite`) or where either is 0 (`zero`), over `n` samples, with Spearman's
 * ρ of the two over the same samples, and the rows left out. The credit pass replaces a step's rows
 * when it writes that step (engine/credit/signalPass.ts); the Run Dashboard and the audit read this
 * table only, never the episodes. Deleting an episode (a re-read or removed file) deletes its
 * step's rows, so a stale count is never shown: the step has none until the next pass.
 */
export const signalDisagreement0020 = `
CREATE TABLE signal_step_agent (
  run_id      INTEGER NOT NULL,
  method      TEXT NOT NULL,
  params_hash TEXT NOT NULL,
  split_kind  TEXT NOT NULL,
  train_step  INTEGER NOT NULL,
  agent_id    INTEGER NOT NULL,
  n           INTEGER NOT NULL,            -- samples with both advantages
  opposite    INTEGER NOT NULL,            -- of which the signs are strictly opposite
  zero        INTEGER NOT NULL,            -- of which either advantage is 0
  shared_only INTEGER NOT NULL,            -- of those, the shared advantage is not 0 and the credit's is
  rho         REAL,                        -- Spearman's rho over the n samples; NULL when undefined
  no_group    INTEGER NOT NULL,            -- the agent's roster rows in episodes without a GRPO group
  no_credit   INTEGER NOT NULL,            -- in a group, without exact or estimated credit with an advantage
  no_reward   INTEGER NOT NULL,            -- in a group, with credit, but the episode logs no team reward
  PRIMARY KEY (run_id, method, params_hash, split_kind, train_step, agent_id)
) WITHOUT ROWID;
CREATE INDEX signal_step_agent_step ON signal_step_agent(run_id, train_step);
CREATE TRIGGER signal_step_agent_delete BEFORE DELETE ON episode WHEN old.train_step IS NOT NULL BEGIN
  DELETE FROM signal_step_agent WHERE run_id = old.run_id AND train_step = old.train_step;
END;
`;
