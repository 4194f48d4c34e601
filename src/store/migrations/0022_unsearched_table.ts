/**
 * Schema 22 (issue 15): which episodes are not yet in the full-text index is a narrow table of
 * their ids, `episode_unsearched`, not a column of the episode row with a partial index.
 *
 * A cold pass builds the full-text index in a side file and adopts it at the end
 * (sideSearchIndex.ts); marking its episodes searchable then rewrote every episode row (an
 * `UPDATE` of `search_indexed`, messages and metadata included) in the pass's serial tail, and
 * every rewritten page went through the WAL again: the adoption's transaction took 1.2 s of the
 * 1 GB run's cold index (0.3 s with this table), the marking alone 6.3 s at 10 GB (0.46 s).
 * Deleting ids from a table of ids touches only that table's pages. An episode is unsearched
 * exactly when its id is in the table; the rows go with their episode (ON DELETE CASCADE). The
 * column is dropped (a rewrite of the episode table, once: 0.8 s for the 1 GB run's index, 11 s
 * for the 10 GB run's, in the indexer's worker).
 */
export const unsearchedTable0022 = `
CREATE TABLE unsearched_episode_ids (episode_id INTEGER PRIMARY KEY REFERENCES episode ON DELETE CASCADE);
INSERT INTO unsearched_episode_ids (episode_id) SELECT episode_id FROM episode WHERE search_indexed = 0;
DROP INDEX episode_unsearched;
ALTER TABLE episode DROP COLUMN search_indexed;
ALTER TABLE unsearched_episode_ids RENAME TO episode_unsearched;
`;
