/**
 * Schema 12 (issue 15): the whole-index summary that ends every pass, live appends included, reads
 * per-run, per-agent and per-source totals (per-step counts: 0011's step_total) instead of counting every episode and roster
 * row of the index. runTotals.ts keeps them as episodes are written and as a source's episodes are
 * deleted (a rewrite, a deleted file); here they are back-filled from what the index holds.
 *
 * Credit writes (issue 15): a parameter set's JSON is stored once in `credit_params` instead of on
 * each of its credit rows (`credit.params_json` stays, NULL, for older readers; no query reads it).
 * Of the credit table's five indexes, `credit_agent` served no query (agents are never deleted,
 * so its foreign key needs no index either), and `credit_episode` (episode_id, method) is a prefix
 * of `credit_key` once that starts with the episode: one index serves the uniqueness, the clearing
 * of an episode's rows, the episode view and the cascade from a deleted episode.
 */
export const runTotals0012 = `
CREATE TABLE run_totals (
  run_id      INTEGER PRIMARY KEY REFERENCES run,
  episodes    INTEGER NOT NULL,
  messages    INTEGER NOT NULL,
  outcomes    INTEGER NOT NULL,          -- episodes with a logged outcome
  outcome_sum REAL NOT NULL              -- their sum: mean reward = outcome_sum / outcomes
);
CREATE TABLE agent_totals (              -- roster rows (episode_agent) per agent
  agent_id INTEGER PRIMARY KEY REFERENCES agent,
  episodes INTEGER NOT NULL,
  messages INTEGER NOT NULL
);
ALTER TABLE source ADD COLUMN episodes INTEGER NOT NULL DEFAULT 0;

INSERT INTO run_totals (run_id, episodes, messages, outcomes, outcome_sum)
  SELECT run_id, count(*), sum(n_messages), count(outcome), total(outcome) FROM episode GROUP BY run_id;
INSERT INTO agent_totals (agent_id, episodes, messages)
  SELECT agent_id, count(*), sum(n_messages) FROM episode_agent GROUP BY agent_id;
UPDATE source SET episodes = (SELECT count(*) FROM episode e WHERE e.source_id = source.source_id);

CREATE TABLE credit_params (             -- the params_json of each parameter set a run has credit for
  run_id      INTEGER NOT NULL REFERENCES run,
  method      TEXT NOT NULL,
  params_hash TEXT NOT NULL,
  params_json TEXT NOT NULL,
  PRIMARY KEY (run_id, method, params_hash)
) WITHOUT ROWID;
INSERT OR IGNORE INTO credit_params (run_id, method, params_hash, params_json)
  SELECT run_id, method, params_hash, params_json FROM credit WHERE params_json IS NOT NULL;
UPDATE credit SET params_json = NULL WHERE params_json IS NOT NULL;
DROP INDEX credit_agent;
DROP INDEX credit_episode;
DROP INDEX credit_key;
CREATE UNIQUE INDEX credit_key ON credit(episode_id, agent_id, method, params_hash, coalesce(message_seq, -1));
`;
