/**
 * Schema 21 (issue 15): an episode's logged influence edges in one row, not one row per edge.
 *
 * `influence_edge` (0017) took a row, a rowid and an index entry per connection: on the benchmark's
 * 1 GB run, 794,000 rows (six an episode) and 54 MB, a quarter of the index, written by the
 * indexer's single writer thread. Its only reader takes an episode's edges whole, by episode id
 * range, so `episode_influence` keeps each episode's edges as one JSON array of
 * `[src_agent_id, dst_agent_id, src_seq, dst_seq, kind, weight, provenance]` in stored order
 * (dst_agent_id null: the outcome), keyed by episode id. Existing edges move over in their order.
 */
export const episodeInfluence0021 = `
CREATE TABLE episode_influence (
  episode_id  INTEGER PRIMARY KEY REFERENCES episode ON DELETE CASCADE,
  edges_json  TEXT NOT NULL
);
INSERT INTO episode_influence (episode_id, edges_json)
  SELECT episode_id, json_group_array(json_array(src_agent_id, dst_agent_id, src_seq, dst_seq, kind, weight, provenance))
  FROM (SELECT * FROM influence_edge ORDER BY episode_id, edge_id) GROUP BY episode_id;
DROP TABLE influence_edge;
`;
