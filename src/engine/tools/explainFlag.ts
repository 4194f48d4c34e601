import { err, ok, type Result } from '../../core/result';
import type { BrowseFlag } from '../../store/browseRepository';
import { flagEvidenceRows, flagVerdict, type EvidenceRow } from '../report/flagEvidence';
import { flagFacts, flagScope, flagSummary } from '../views/flagView';
import { capText, type ToolIndex } from './toolIndex';
import { maxResultChars, type CreditLensTool, type ToolValue } from './toolTypes';

/** Most trace locations listed for a flag that concerns several episodes; `locationCount` gives them all. */
const maxLocations = 10;
/** Most evidence rows (and children of a row) listed. */
const maxEvidenceRows = 30;

/** `explain_flag`: why an agent was flagged (the evidence in words and figures) and where in the trace. */
export const explainFlagTool: CreditLensTool = {
  name: 'explain_flag',
  title: 'Explain an audit flag',
  description:
    'Explains one audit flag (flagId from list_runs): the verdict, the steps or episode it covers, the evidence ' +
    'behind it (mean credit and its 90% interval, team reward, tolerance, per window of steps) and the trace ' +
    'file and line it points at. Use find_episodes with the same flagId to list the episodes it covers.',
  inputSchema: {
    type: 'object',
    properties: {
      flagId: { type: 'integer', description: 'The flag, as list_runs gives it.', minimum: 0, maximum: 2 ** 53 - 1 },
    },
    required: ['flagId'],
    additionalProperties: false,
  },
  mutating: false,
  run: (index, input) => Promise.resolve(explainFlag(index, Number(input['flagId']))),
};

/** The stored flag with this id and its run's name, or an error saying how to find flag ids. */
export function findFlag(index: ToolIndex, flagId: number): Result<{ flag: BrowseFlag; run: string }> {
  for (const run of index.dashboard.runs()) {
    const flag = index.browse.flags(run.runId).find((f) => f.flagId === flagId);
    if (flag) return ok({ flag, run: run.name });
  }
  return err(`no flag ${flagId} in this index (list_runs lists the flags of the last audit)`);
}

function explainFlag(index: ToolIndex, flagId: number): Result<ToolValue> {
  const found = findFlag(index, flagId);
  if (!found.ok) return found;
  const { flag, run } = found.value;
  const locations = flag.locations ?? [];
  return ok({
    flagId: flag.flagId,
    run,
    kind: flag.kind,
    agent: flag.agent,
    scope: flag.scope,
    steps: flag.steps ? { from: flag.steps[0], to: flag.steps[1] } : null,
    episode: flagFacts(flag).episode ?? null,
    verdict: capText(flagVerdict(flagFacts(flag)), maxResultChars),
    where: flagScope(flag),
    summary: capText(flagSummary(flag), maxResultChars),
    evidence: rowsOf(flagEvidenceRows(flag.evidence)),
    location: flag.location ? { file: flag.location.uri, line: flag.location.line } : null,
    locationCount: locations.length,
    locations: locations.slice(0, maxLocations).map((l) => ({ file: l.uri, line: l.line, episode: l.episode ?? null })),
    next: `find_episodes with {"run": ${JSON.stringify(run)}, "flagId": ${flag.flagId}} lists the episodes it covers; read_episode with a location's file and line reads one`,
  });
}

/** Evidence rows with one level of details (a window's own figures are in its value already). */
function rowsOf(rows: readonly EvidenceRow[], depth = 0): ToolValue[] {
  return rows.slice(0, maxEvidenceRows).map((row) => ({
    label: capText(row.label, maxResultChars),
    value: capText(row.value, maxResultChars),
    ...(depth === 0 && row.children && row.children.length > 0 ? { details: rowsOf(row.children, 1) } : {}),
  }));
}
