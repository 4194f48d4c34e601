/**
 * Schema 12 (issue 15): the whole-index summary that ends every pass, live appends included, reads
 * per-run, per-step, per-agent and per-source totals instead of counting every episode and roster
 * row of the index. runTotals.ts keeps them as episodes are written and as a source's episodes are
 * deleted (a rewrite, a deleted file); here they are back-filled from what the index holds.
 */
export const runTotals0012 = `
CREATE TABLE run_totals (
  run_id      INTEGER PRIMARY KEY REFERENCES run,
  episodes    INTEGER NOT NULL,
  messages    INTEGER NOT NULL,
  outcomes    INTEGER NOT NULL,          -- episodes with a logged outcome
  outcome_sum REAL NOT NULL              -- their sum: mean reward = outcome_sum / outcomes
);
CREATE TABLE run_step_totals (           -- one row per training step that has episodes
  run_id     INTEGER NOT NULL REFERENCES run,
  train_step INTEGER NOT NULL,
  episodes   INTEGER NOT NULL,
  PRIMARY KEY (run_id, train_step)
) WITHOUT ROWID;
CREATE TABLE agent_totals (              -- roster rows (episode_agent) per agent
  agent_id INTEGER PRIMARY KEY REFERENCES agent,
  episodes INTEGER NOT NULL,
  messages INTEGER NOT NULL
);
ALTER TABLE source ADD COLUMN episodes INTEGER NOT NULL DEFAULT 0;

INSERT INTO run_totals (run_id, episodes, messages, outcomes, outcome_sum)
  SELECT run_id, count(*), sum(n_messages), count(outcome), total(outcome) FROM episode GROUP BY run_id;
INSERT INTO run_step_totals (run_id, train_step, episodes)
  SELECT run_id, train_step, count(*) FROM episode WHERE train_step IS NOT NULL GROUP BY run_id, train_step;
INSERT INTO agent_totals (agent_id, episodes, messages)
  SELECT agent_id, count(*), sum(n_messages) FROM episode_agent GROUP BY agent_id;
UPDATE source SET episodes = (SELECT count(*) FROM episode e WHERE e.source_id = source.source_id);
`;
