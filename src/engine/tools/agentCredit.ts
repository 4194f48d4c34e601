import { defaultSplit } from '../../core/split';
import { err, ok, type Result } from '../../core/result';
import { methodInput, offsetInput, optionalNumber, optionalString, paging, runInput } from './commonInputs';
import { limitInput, stepFromInput, stepToInput } from './commonInputs';
import { creditWindows } from './creditWindows';
import { capText, findRun, pageOf, type ToolIndex } from './toolIndex';
import { maxResultChars, type CreditLensTool, type ToolValue } from './toolTypes';

/** `get_agent_credit`: one agent's stored credit per training step or per window of steps, with provenance. */
export const agentCreditTool: CreditLensTool = {
  name: 'get_agent_credit',
  title: "Get an agent's credit over training",
  description:
    "An agent's stored credit under a method (default loo, leave-one-out) over a run's training steps: per step, " +
    'or the mean over windows of `window` steps, with its 95% interval, its share of the positive credit, how ' +
    'many values are exact or estimated and where they came from (logged, replayed, checked, cached, estimated), ' +
    'and the episodes the data cannot answer. Paged by window. Reads stored credit only; nothing is computed.',
  inputSchema: {
    type: 'object',
    properties: {
      run: runInput,
      agent: { type: 'string', description: 'The agent, as list_runs names it.', minLength: 1, maxLength: 1024 },
      method: methodInput,
      stepFrom: stepFromInput,
      stepTo: stepToInput,
      window: {
        type: 'integer',
        description: 'Steps per window (default 1: per step).',
        minimum: 1,
        maximum: 1e9,
        default: 1,
      },
      offset: offsetInput,
      limit: limitInput,
    },
    required: ['agent'],
    additionalProperties: false,
  },
  mutating: false,
  run: (index, input) => Promise.resolve(agentCredit(index, input)),
};

function agentCredit(index: ToolIndex, input: Readonly<Record<string, unknown>>): Result<ToolValue> {
  const run = findRun(index, input['run']);
  if (!run.ok) return run;
  const agent = optionalString(input, 'agent') ?? '';
  if (!run.value.agents.includes(agent))
    return err(`no agent "${agent}" in run "${run.value.name}"; agents: ${run.value.agents.join(', ')}`);
  const method = optionalString(input, 'method') ?? 'loo';
  const head = { run: run.value.name, agent, method, split: defaultSplit };
  const hash = index.stored.latestParams(run.value.runId, method);
  if (hash === undefined) return ok({ ...head, ...notStored(index, run.value.runId, method) });
  const from = optionalNumber(input, 'stepFrom') ?? run.value.steps.min ?? 0;
  const to = optionalNumber(input, 'stepTo') ?? run.value.steps.max ?? 0;
  const rows = index.credit.outputRows(run.value.runId, hash, from, to, defaultSplit);
  const problems = index.credit.problemRows(run.value.runId, hash, from, to);
  const width = Number(input['window'] ?? 1);
  const windows = creditWindows(rows, problems, { agent, method, width, base: from });
  const { offset, limit } = paging(input);
  const page = pageOf(windows, offset, limit);
  return ok({
    ...head,
    status: 'computed',
    steps: { from, to, window: width },
    total: page.total,
    offset: page.offset,
    nextOffset: page.nextOffset,
    note: 'mean and share are over exact and estimated values; approximate ones are counted, not averaged (docs/credit-provenance.md)',
    windows: page.items,
  });
}

/** Why there is no number: never computed, or the last pass failed (with its reason), and what would answer. */
function notStored(index: ToolIndex, runId: number, method: string): ToolValue {
  const failure = index.stored.latestFailure(runId, method);
  const remedy = `compute it: \`credit-lens credit <run-folder> --method ${method}\` (or recompute_credit when the tools may compute)`;
  if (failure)
    return {
      status: failure.status === 'not-identifiable' ? 'not-identifiable' : 'failed',
      reason: capText(failure.reason, maxResultChars),
      remedy,
      windows: [],
    };
  return { status: 'not-computed', reason: `no ${method} credit is stored for this run`, remedy, windows: [] };
}
