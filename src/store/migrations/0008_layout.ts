/**
 * Schema 8: runs inferred from the producers' layouts, side files and counted repeats (issue 12).
 * `run.layout` names the producer whose folder layout made the folder a run (NULL: a run.json or
 * the indexed folder); `run.layout_note` says what was assumed where the layout is ambiguous.
 * `source.repeats` counts the rows a source skipped as repeats of rows already indexed (TRL logs
 * the same generation at several steps): information, not errors. Side files are sources of
 * format `other_file` with no episodes.
 */
export const layout0008 = `
ALTER TABLE run ADD COLUMN layout TEXT;
ALTER TABLE run ADD COLUMN layout_note TEXT;
ALTER TABLE source ADD COLUMN repeats INTEGER NOT NULL DEFAULT 0;
`;
