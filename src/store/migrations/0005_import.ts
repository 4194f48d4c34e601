/**
 * Schema 5: other trace formats (issue 7). Importers that drop rows repeated across files (TRL
 * completion tables) store a hash of each episode's content; `source_repeat` remembers which source
 * held the first copy of a row another source skipped, so that when that source is emptied (the
 * file changed or is gone) the skipping source is read again and no row is lost.
 */
export const import0005 = `
ALTER TABLE episode ADD COLUMN content_hash TEXT;

CREATE TABLE source_repeat (
  source_id       INTEGER NOT NULL REFERENCES source ON DELETE CASCADE,  -- skipped a repeated row
  first_source_id INTEGER NOT NULL REFERENCES source ON DELETE CASCADE,  -- holds the first copy
  PRIMARY KEY (source_id, first_source_id)
) WITHOUT ROWID;
CREATE INDEX source_repeat_first ON source_repeat(first_source_id);
`;
