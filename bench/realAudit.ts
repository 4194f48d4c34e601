import { runAudit } from '../src/engine/audit/auditJob';
import { runIndexJob } from '../src/engine/indexJob';
import type { AuditReport } from './auditValidation';

/**
 * The audit as a user runs it, for the validation suite: index the scenario folder, then audit it
 * with leave-one-out credit. Only run- and step-scope flags are scored (episode flags are evidence).
 */
export async function indexAndAudit(root: string): Promise<AuditReport> {
  await runIndexJob({ root, search: false });
  const result = await runAudit({ root, method: 'loo', readText: false });
  return {
    runs: result.runs.map((run) => ({
      run: run.run,
      flags: run.flags
        .filter((f) => f.scope !== 'episode')
        .map((f) => ({ kind: f.kind, ...(f.agent ? { agent: f.agent } : {}), ...(f.steps ? { steps: f.steps } : {}) })),
    })),
  };
}
