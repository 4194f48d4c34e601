/**
 * Schema 11: the Run Dashboard's per-step aggregates, kept as the rows they summarise are written
 * (issue 15: every view under 500 ms at 1.3 M episodes), instead of a GROUP BY over every episode,
 * roster row and credit row of a run on each open. Split kind is `train` or `validation` as in
 * splitFilter.ts; idle counts are kept for each tolerance of `view_tolerance` (the dashboard's and
 * the audit's), a view asking another one reads the rows themselves.
 *
 * - step_total: per (run, split kind, step) episodes and their logged team reward; triggers on episode.
 * - shared_step_agent: the "shared" signal (every roster agent gets the team reward) per (run,
 *   split kind, step, agent, tolerance); triggers on episode_agent (insert) and episode (delete: its
 *   roster rows go by cascade, after the episode row, so they are taken out before).
 * - episode_messages: the episode table's pages sorted by message count, in index order.
 * - credit_step_agent, credit_step_coverage: agent-level credit and coverage per parameter set and
 *   step, written by the credit pass (viewAggregates.ts) when it ends. credit_view_state.fresh = 0
 *   while a pass writes, after one failed, or once an episode of the run is deleted: the views then
 *   read the credit rows themselves until the next pass rebuilds the run's aggregates.
 */
import { splitKindOf as kind } from '../splitFilter';

export const viewAggregates0011 = `
CREATE TABLE view_tolerance (epsilon REAL PRIMARY KEY) WITHOUT ROWID;
INSERT INTO view_tolerance VALUES (0.01), (0.02);

CREATE TABLE step_total (
  run_id      INTEGER NOT NULL,
  split_kind  TEXT NOT NULL,
  train_step  INTEGER NOT NULL,
  episodes    INTEGER NOT NULL,
  outcome_sum REAL NOT NULL,
  outcomes    INTEGER NOT NULL,            -- episodes that log a team reward
  PRIMARY KEY (run_id, split_kind, train_step)
) WITHOUT ROWID;
INSERT INTO step_total
  SELECT run_id, ${kind('e')}, train_step, count(*), coalesce(sum(outcome), 0), count(outcome)
  FROM episode e WHERE train_step IS NOT NULL GROUP BY 1, 2, 3;
CREATE TRIGGER step_total_insert AFTER INSERT ON episode WHEN new.train_step IS NOT NULL BEGIN
  INSERT INTO step_total VALUES (new.run_id, ${kind('new')}, new.train_step, 1, coalesce(new.outcome, 0), new.outcome IS NOT NULL)
  ON CONFLICT DO UPDATE SET episodes = episodes + 1, outcome_sum = outcome_sum + excluded.outcome_sum, outcomes = outcomes + excluded.outcomes;
END;
CREATE TRIGGER step_total_delete AFTER DELETE ON episode WHEN old.train_step IS NOT NULL BEGIN
  UPDATE step_total SET episodes = episodes - 1, outcome_sum = outcome_sum - coalesce(old.outcome, 0), outcomes = outcomes - (old.outcome IS NOT NULL)
  WHERE run_id = old.run_id AND split_kind = ${kind('old')} AND train_step = old.train_step;
END;

CREATE TABLE shared_step_agent (
  run_id     INTEGER NOT NULL,
  split_kind TEXT NOT NULL,
  train_step INTEGER NOT NULL,
  agent_id   INTEGER NOT NULL,
  epsilon    REAL NOT NULL,
  total      REAL NOT NULL,                -- sum of the team reward over the roster rows
  n          INTEGER NOT NULL,
  spoke      INTEGER NOT NULL,
  idle       INTEGER NOT NULL,
  PRIMARY KEY (run_id, epsilon, split_kind, train_step, agent_id)
) WITHOUT ROWID;
INSERT INTO shared_step_agent
  SELECT e.run_id, ${kind('e')}, e.train_step, ea.agent_id, t.epsilon, sum(e.outcome), count(*), sum(ea.n_messages > 0),
    sum(ea.n_messages > 0 AND abs(e.outcome) <= t.epsilon)
  FROM episode e JOIN episode_agent ea ON ea.episode_id = e.episode_id CROSS JOIN view_tolerance t
  WHERE e.train_step IS NOT NULL AND e.outcome IS NOT NULL GROUP BY 1, 2, 3, 4, 5;
CREATE TRIGGER shared_step_agent_insert AFTER INSERT ON episode_agent BEGIN
  INSERT INTO shared_step_agent
    SELECT e.run_id, ${kind('e')}, e.train_step, new.agent_id, t.epsilon, e.outcome, 1, new.n_messages > 0,
      new.n_messages > 0 AND abs(e.outcome) <= t.epsilon
    FROM episode e CROSS JOIN view_tolerance t
    WHERE e.episode_id = new.episode_id AND e.train_step IS NOT NULL AND e.outcome IS NOT NULL
  ON CONFLICT DO UPDATE SET total = total + excluded.total, n = n + 1, spoke = spoke + excluded.spoke, idle = idle + excluded.idle;
END;
CREATE TRIGGER shared_step_agent_delete BEFORE DELETE ON episode WHEN old.train_step IS NOT NULL AND old.outcome IS NOT NULL BEGIN
  UPDATE shared_step_agent SET total = total - old.outcome, n = n - 1, spoke = spoke - (ea.n_messages > 0),
    idle = idle - (ea.n_messages > 0 AND abs(old.outcome) <= shared_step_agent.epsilon)
  FROM episode_agent ea
  WHERE ea.episode_id = old.episode_id AND shared_step_agent.run_id = old.run_id AND shared_step_agent.split_kind = ${kind('old')}
    AND shared_step_agent.train_step = old.train_step AND shared_step_agent.agent_id = ea.agent_id;
END;

CREATE TABLE credit_step_agent (
  run_id      INTEGER NOT NULL,
  method      TEXT NOT NULL,
  params_hash TEXT NOT NULL,
  epsilon     REAL NOT NULL,
  split_kind  TEXT NOT NULL,
  train_step  INTEGER NOT NULL,
  agent_id    INTEGER NOT NULL,
  total       REAL NOT NULL,               -- exact or estimated agent-level credit: sum, rows
  n           INTEGER NOT NULL,
  spoke       INTEGER NOT NULL,            -- of which the agent spoke (no roster row with n_messages = 0)
  idle        INTEGER NOT NULL,            -- of which |credit| <= epsilon
  PRIMARY KEY (run_id, method, params_hash, epsilon, split_kind, train_step, agent_id)
) WITHOUT ROWID;
CREATE TABLE credit_step_coverage (        -- per step; train_step NULL: the episodes that log none
  run_id       INTEGER NOT NULL,
  method       TEXT NOT NULL,
  params_hash  TEXT NOT NULL,
  split_kind   TEXT NOT NULL,
  train_step   INTEGER,
  drawn        INTEGER NOT NULL,           -- episodes with exact or estimated agent-level credit
  approximate  INTEGER NOT NULL,           -- episodes with approximate agent-level credit
  unidentified INTEGER NOT NULL,           -- credit_error rows, not identifiable
  failed       INTEGER NOT NULL            -- other credit_error rows
);
CREATE INDEX credit_step_coverage_key ON credit_step_coverage(run_id, method, params_hash, train_step);
CREATE TABLE credit_view_state (
  run_id INTEGER PRIMARY KEY,
  fresh  INTEGER NOT NULL
);
CREATE TRIGGER credit_view_stale BEFORE DELETE ON episode BEGIN
  UPDATE credit_view_state SET fresh = 0 WHERE run_id = old.run_id AND fresh = 1;
END;

INSERT INTO credit_step_agent
  SELECT e.run_id, c.method, c.params_hash, t.epsilon, ${kind('e')}, e.train_step, c.agent_id, sum(c.value), count(*),
    sum(coalesce(ea.n_messages <> 0, 1)), sum(coalesce(ea.n_messages <> 0, 1) AND abs(c.value) <= t.epsilon)
  FROM credit c JOIN episode e ON e.episode_id = c.episode_id
  LEFT JOIN episode_agent ea ON ea.episode_id = c.episode_id AND ea.agent_id = c.agent_id CROSS JOIN view_tolerance t
  WHERE c.message_seq IS NULL AND c.value IS NOT NULL AND c.status IN ('exact', 'estimated') AND e.train_step IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO credit_step_coverage
  SELECT run_id, method, params_hash, split_kind, train_step, sum(drawn), sum(approximate), sum(unidentified), sum(failed) FROM (
    SELECT e.run_id, c.method, c.params_hash, ${kind('e')} AS split_kind, e.train_step,
      max(c.status IN ('exact', 'estimated')) AS drawn, max(c.status = 'approximate') AS approximate, 0 AS unidentified, 0 AS failed
    FROM credit c JOIN episode e ON e.episode_id = c.episode_id WHERE c.message_seq IS NULL
    GROUP BY c.method, c.params_hash, c.episode_id
    UNION ALL
    SELECT e.run_id, x.method, x.params_hash, ${kind('e')}, e.train_step, 0, 0, x.status = 'not-identifiable', x.status <> 'not-identifiable'
    FROM credit_error x JOIN episode e ON e.episode_id = x.episode_id)
  GROUP BY 1, 2, 3, 4, 5;
INSERT INTO credit_view_state SELECT run_id, 1 FROM run;

-- The episode table sorted by messages reads its page in index order.
CREATE INDEX episode_messages ON episode(run_id, n_messages);
`;
