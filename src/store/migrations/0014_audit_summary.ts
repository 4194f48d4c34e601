/**
 * Schema 14: what the last audit of a run found beyond its flags, so a view can tell "not audited
 * yet" from "audited, nothing raised" and show the audit's text checks (empty and copied message
 * rates per agent, read from the trace text) without reading the text again. One row per run,
 * replaced by every audit of it; a run whose row is absent was never audited.
 *
 * - agents_json: `[{ agent, emptyRate, copyRate }]` (a rate is null when the text was not read).
 * - unreachable_json: the verdicts the audit could not reach, each with its reason, as sentences.
 */
export const auditSummary0014 = `
CREATE TABLE audit_summary (
  run_id           INTEGER PRIMARY KEY REFERENCES run ON DELETE CASCADE,
  method           TEXT NOT NULL,
  audited_at       TEXT NOT NULL,
  agents_json      TEXT NOT NULL,
  unreachable_json TEXT NOT NULL
);
`;
