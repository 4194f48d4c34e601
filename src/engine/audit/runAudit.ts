import type { RunAudit } from '../../core/auditReport';
import type { AuditThresholds } from '../../credit/audit/auditThresholds';
import { AgentTally } from './agentAudits';
import type { EpisodeFacts } from './auditFacts';
import { decouplingFlags } from './decouplingFlags';
import { SilentTally } from './silentFlags';
import { StepTally } from './stepTrends';
import { WindowTally } from './windowFlags';

/**
 * What the audit keeps of a run while its episodes stream by (in id order): per-agent totals and
 * credit values, per-step sums, the silent tally and the open windows. No episode is held.
 */
export class RunTally {
  readonly agents = new AgentTally();
  readonly silent = new SilentTally();
  readonly steps: StepTally;
  readonly windows: WindowTally;

  /** `stepCounts`: the run's episodes per step, which fix its audit windows before any episode is fed. */
  constructor(
    stepCounts: readonly { readonly step: number; readonly episodes: number }[],
    readonly thresholds: AuditThresholds,
  ) {
    this.steps = new StepTally(thresholds.epsilon ?? 0.02);
    this.windows = new WindowTally(stepCounts, thresholds);
  }

  add(e: EpisodeFacts): void {
    this.agents.add(e);
    this.silent.add(e);
    this.steps.add(e);
    this.windows.add(e);
  }
}

/**
 * The audit of one run from its tally: `silent` from the roster alone; `idle`, `free-rider`,
 * `dominant` and `decoupling` only for trained agents and only from credit that can support a
 * verdict (exact or estimated marginal contributions). Every verdict that could not be reached is
 * listed in `unreachable`, per agent, with the reason and what would answer it.
 */
export function buildRunAudit(run: string, method: string, tally: RunTally, creditProblem?: string): RunAudit {
  const agents = tally.agents.agents();
  const trained = tally.agents.trained();
  const flags = [...tally.silent.flags()];
  const unreachable = [
    ...contextNotes(tally.agents, agents, trained),
    ...missingCredit(tally.agents, trained, method, creditProblem),
  ];
  const judged = trained.filter((agent) => tally.agents.hasVerdictCredit(agent));
  const locate = tally.steps.locator();
  if (judged.length > 0) {
    const windows = tally.windows.flags(judged, locate);
    flags.push(...windows.flags);
    unreachable.push(...windows.unreachable);
    const preliminary = tally.steps.trends(judged, flags);
    flags.push(...decouplingFlags(preliminary, judged, locate, tally.thresholds, flags));
  }
  return {
    run,
    method,
    agents: tally.agents.audits(flags),
    flags,
    trends: tally.steps.trends(agents, flags),
    unreachable,
  };
}

/** Agents that are part of the environment (human, tool, user simulator, system prompt, …). */
function contextNotes(tally: AgentTally, agents: readonly string[], trained: readonly string[]): string[] {
  return agents
    .filter((agent) => !trained.includes(agent))
    .map(
      (agent) =>
        `idle, free-rider, dominant and decoupling for ${agent}: it is ${kindName(tally.kind(agent))}, not a trained agent; reported as context, never flagged`,
    );
}

/** Trained agents none of whose credit can support a verdict, with why. */
function missingCredit(
  tally: AgentTally,
  trained: readonly string[],
  method: string,
  creditProblem: string | undefined,
): string[] {
  const notes: string[] = [];
  for (const agent of trained) {
    if (tally.hasVerdictCredit(agent)) continue;
    const approximate = tally.statusCount(agent, 'approximate');
    const why =
      approximate > 0
        ? `its ${method} credit is approximate in ${approximate} episode(s): it was removed without re-generating the agents that read its output; a replay (--evaluator replay:url=…) or logged counterfactuals would answer it`
        : `no ${method} credit could be computed: ${creditProblem ?? 'none of its episodes has the data'}`;
    notes.push(`idle, free-rider, dominant and decoupling for ${agent}: ${why}`);
  }
  return notes;
}

const kindNames: Readonly<Record<string, string>> = {
  human: 'a human',
  tool: 'a tool',
  env: 'an environment',
  user_sim: 'a user simulator',
  system: 'a system prompt',
};

function kindName(kind: string): string {
  return kindNames[kind] ?? `an agent of kind ${kind} marked not trainable`;
}
