/**
 * Schema 17 (issue 17): influence between agents, an overlay beside credit (credit-methods.md §3.17).
 *
 * `influence_edge` keeps the edges a trace logs (AgentChord/GBC-style `connections` / `weights` on
 * messages, docs/trace-format.md §2.2), one row per connection: the source and destination agents
 * and messages, the logged weight and where it came from. Counterfactual and alternatives edges are
 * computed on read from the logged values already stored (engine/influence); `kind` leaves room to
 * store them too. A null `dst_agent_id` is the episode's outcome.
 */
export const influence0017 = `
CREATE TABLE influence_edge (
  edge_id      INTEGER PRIMARY KEY,
  episode_id   INTEGER NOT NULL REFERENCES episode ON DELETE CASCADE,
  src_agent_id INTEGER NOT NULL,
  dst_agent_id INTEGER,                  -- NULL: the outcome
  src_seq      INTEGER,                  -- message index, NULL for an agent-level edge
  dst_seq      INTEGER,
  kind         TEXT NOT NULL,            -- logged | counterfactual | alternatives
  weight       REAL NOT NULL,
  provenance   TEXT NOT NULL             -- e.g. 'messages[4].weights[0]'
);
CREATE INDEX influence_edge_episode ON influence_edge(episode_id);
`;
