/**
 * Schema 7: rolling-buffer repeats (issue 12). An importer whose files re-dump a rolling buffer
 * (TRL completion tables, FormatMapper.dedupeRepeats) stores the content hash of every row of each
 * source, in row order, including the rows it skipped as repeats: the next file's leading rows are
 * matched against this file's trailing rows by position, never by content alone.
 */
export const rollingBuffer0007 = `
ALTER TABLE source ADD COLUMN row_hashes_json TEXT;
`;
