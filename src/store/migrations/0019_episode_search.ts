/**
 * Schema 19 (issue 15): the full-text index has one document per episode, not per message.
 *
 * The search only ever filters episodes (the episode table's search); a document per message cost a
 * rowid, a docsize row and a posting per message and term, and a common term's matches (4.4 M
 * messages at 10 GB) had to be read to find its episodes. `episode_fts` holds an episode's message
 * texts joined by newlines, rowid = episode_id: a query matches an episode when its messages
 * together hold the terms. The old index is dropped and every episode marked unsearched, so the
 * search stage of the next pass rebuilds it from the traces (episodes stay browsable meanwhile).
 */
export const episodeSearch0019 = `
DROP TABLE message_fts;
CREATE VIRTUAL TABLE episode_fts USING fts5(content, content='', contentless_delete=1, detail=none);
UPDATE episode SET search_indexed = 0 WHERE search_indexed = 1;
`;
