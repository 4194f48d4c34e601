import { err, ok, type Result } from '../../core/result';
import type { BrowseFlag } from '../../store/browseRepository';
import { flagSummary } from '../views/flagView';
import { limitInput, offsetInput, optionalString, paging } from './commonInputs';
import { pathInFolder } from './pathScope';
import { capText, pageOf, type ToolIndex } from './toolIndex';
import { maxResultChars, type CreditLensTool, type ToolValue } from './toolTypes';

/** Most flags listed per run; `flagCount` always gives them all. */
const maxFlagsPerRun = 20;

/** `list_runs`: the runs of the folder with their audit: who is flagged, what for, over which steps. */
export const listRunsTool: CreditLensTool = {
  name: 'list_runs',
  title: 'List runs and their audit',
  description:
    'Lists the training runs indexed in this run folder: episodes, agents, training steps, and the last audit ' +
    '(flags per agent — silent, idle, free-rider, dominant, decoupling — with the steps each covers and a flagId ' +
    'for explain_flag). Start here.',
  inputSchema: {
    type: 'object',
    properties: {
      folder: {
        type: 'string',
        description: 'Only the runs at or below this sub-folder of the run folder (relative path).',
        maxLength: 4096,
      },
      offset: offsetInput,
      limit: limitInput,
    },
    additionalProperties: false,
  },
  mutating: false,
  run: (index, input) => Promise.resolve(listRuns(index, input)),
};

function listRuns(index: ToolIndex, input: Readonly<Record<string, unknown>>): Result<ToolValue> {
  const folder = optionalString(input, 'folder');
  const scope = folder === undefined ? undefined : pathInFolder(index.root, folder);
  if (scope && !scope.ok) return err(scope.error);
  const roots = new Map(index.browse.runs().map((r) => [r.runId, r.root]));
  const under = scope?.value ?? '';
  const runs = index.dashboard.runs().filter((r) => under === '' || isAtOrBelow(roots.get(r.runId) ?? '', under));
  const { offset, limit } = paging(input);
  const page = pageOf(runs, offset, limit);
  return ok({
    folder: index.root,
    total: page.total,
    offset: page.offset,
    nextOffset: page.nextOffset,
    runs: page.items.map((run) => ({
      run: run.name,
      folder: roots.get(run.runId) ?? '',
      mechanism: run.mechanism,
      episodes: run.episodes,
      agents: run.agents,
      steps: run.steps,
      audit: auditOf(index, run.runId),
    })),
  });
}

function auditOf(index: ToolIndex, runId: number): ToolValue {
  const summary = index.agents.auditSummary(runId);
  const flags = index.browse.flags(runId);
  if (!summary && flags.length === 0)
    return {
      audited: false,
      note: 'not audited yet: run `credit-lens audit <run-folder>` (or Credit Lens: Run Audit)',
    };
  return {
    audited: summary !== undefined,
    method: summary?.method ?? null,
    auditedAt: summary?.auditedAt ?? null,
    verdictsNotReached: summary?.unreachable.map((u) => capText(u, maxResultChars)) ?? [],
    flagCount: flags.length,
    flags: flags.slice(0, maxFlagsPerRun).map(flagLine),
  };
}

/** A flag as one line of a list: enough to choose it, and its id for explain_flag. */
export function flagLine(flag: BrowseFlag): ToolValue {
  return {
    flagId: flag.flagId,
    kind: flag.kind,
    agent: flag.agent,
    scope: flag.scope,
    steps: flag.steps ? { from: flag.steps[0], to: flag.steps[1] } : null,
    summary: capText(flagSummary(flag), maxResultChars),
  };
}

function isAtOrBelow(runRoot: string, folder: string): boolean {
  return runRoot === folder || runRoot.startsWith(`${folder}/`);
}
