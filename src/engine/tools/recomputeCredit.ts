import { ok, err, type Result } from '../../core/result';
import { runCreditJob } from '../credit/creditJob';
import type { CreditMethodName } from '../credit/creditMethod';
import { methodInput, optionalNumber, optionalString, runInput, stepFromInput, stepToInput } from './commonInputs';
import { capText, findRun, type ToolIndex } from './toolIndex';
import { maxResultChars, type CreditLensTool, type ToolValue } from './toolTypes';

/**
 * `recompute_credit`: computes a method's credit with the built-in final-answer checker (never a
 * command or a replay) and stores it. It writes the index and may take minutes, so it is mutating:
 * offered only with `--allow-compute` or in a trusted workspace, after a confirmation.
 */
export const recomputeCreditTool: CreditLensTool = {
  name: 'recompute_credit',
  title: 'Recompute credit',
  description:
    'Computes and stores credit under a method for a run (or its steps stepFrom..stepTo), taking counterfactual ' +
    'values from the trace first, then the built-in final-answer checker (calibrated on the logged rewards). ' +
    'Writes the index and can take minutes; get_agent_credit then reads the result.',
  inputSchema: {
    type: 'object',
    properties: { run: runInput, method: methodInput, stepFrom: stepFromInput, stepTo: stepToInput },
    additionalProperties: false,
  },
  mutating: true,
  run: recompute,
};

async function recompute(index: ToolIndex, input: Readonly<Record<string, unknown>>): Promise<Result<ToolValue>> {
  const run = findRun(index, input['run']);
  if (!run.ok) return run;
  const from = optionalNumber(input, 'stepFrom');
  const to = optionalNumber(input, 'stepTo');
  const method = (optionalString(input, 'method') ?? 'loo') as CreditMethodName;
  try {
    const result = await runCreditJob({
      root: index.root,
      ...(index.dbPath !== undefined ? { dbPath: index.dbPath } : {}),
      method,
      run: run.value.name,
      ...(from !== undefined || to !== undefined ? { steps: [from ?? -1e15, to ?? 1e15] as const } : {}),
    });
    return ok({
      method,
      runs: result.runs.map((r) => ({
        run: r.run.name,
        evaluator: r.evaluator ?? null,
        computed: r.computed,
        failed: r.failed,
        notIdentifiable: r.unidentified,
        calibration: r.calibration
          ? { sampled: r.calibration.sampled, agreed: r.calibration.agreed, accepted: r.calibration.accepted }
          : null,
        agents: r.agents.map((a) => ({
          agent: a.agent,
          episodes: a.episodes,
          mean: a.episodes > 0 ? a.mean : null,
          ci95: a.episodes >= 2 ? a.ci : null,
          statusCounts: a.status,
        })),
      })),
      next: 'get_agent_credit reads the stored values per step, with their sources',
    });
  } catch (error) {
    return err(capText(`recompute failed: ${(error as Error).message}`, maxResultChars));
  }
}
