import { creditShares } from '../../credit/audit/creditShare';
import type { AgentActivity, AgentCreditValue, AuditSummaryRecord } from '../../store/agentSummaryRepository';
import type { BrowseFlag } from '../../store/browseRepository';
import { agentSummaries } from '../credit/creditSummary';
import type { RunOverviewInput } from './runOverview';
import type { AgentSummary, AgentSummaryRow, CreditHistogram } from './viewTypes';

/** Bins of every agent's credit histogram. */
export const histogramBins = 20;

/** What an agent summary is assembled from (store queries, see AgentSummaryRepository). */
export interface AgentSummaryInput extends Pick<
  RunOverviewInput,
  'runId' | 'method' | 'status' | 'coverage' | 'agents' | 'flags'
> {
  readonly steplessEpisodes: number;
  /** Drawn agent-level credit (exact or estimated) of the method's parameter set. */
  readonly values: readonly AgentCreditValue[];
  readonly activity: readonly AgentActivity[];
  /** The run's last audit; undefined before any. */
  readonly audit: AuditSummaryRecord | undefined;
}

/**
 * Per-agent standing over the whole run under one method: mean credit and its 95% interval (the
 * CLI's credit summary, engine/credit/creditSummary.ts), share of the positive mean credit (the
 * audit's creditShares), token share, the last audit's empty and copied message rates (null before
 * an audit or when it read no text), flags per kind; and each agent's credit histogram on one bin
 * grid spanning every agent's values. Steps play no part, so a step-less run reads as one with steps.
 */
export function agentSummary(input: AgentSummaryInput): AgentSummary {
  const byAgent = new Map(input.agents.map((a) => [a.agentId, [] as [number, number][]]));
  for (const v of input.values) byAgent.get(v.agentId)?.push([v.step ?? 0, v.value]);
  const named = new Map(input.agents.map((a) => [a.name, byAgent.get(a.agentId) ?? []]));
  const summaries = agentSummaries(named);
  const means = summaries.map((s) => (s.episodes > 0 ? s.mean : null));
  const shares = means.every((m) => m === null) ? undefined : creditShares(means.map((m) => m ?? 0));
  const tokens = tokenShares(input.agents, input.activity);
  const audited = new Map((input.audit?.agents ?? []).map((a) => [a.agent, a]));
  const rows = input.agents.map((agent, i): AgentSummaryRow => {
    const s = summaries[i];
    const text = audited.get(agent.name);
    return {
      agent: agent.name,
      episodes: s?.episodes ?? 0,
      meanCredit: means[i] ?? null,
      ci: s && s.episodes > 0 ? s.ci : null,
      creditShare: shares ? (shares[i] ?? 0) : null,
      tokenShare: tokens.get(agent.agentId) ?? null,
      emptyRate: text?.emptyRate ?? null,
      copyRate: text?.copyRate ?? null,
      flags: flagCounts(input.flags, agent.name),
    };
  });
  const audit = input.audit;
  return {
    runId: input.runId,
    method: input.method,
    status: input.status,
    coverage: input.coverage,
    steplessEpisodes: input.steplessEpisodes,
    agents: rows,
    histogram: histogram(
      input.agents.map((a) => a.name),
      input.agents.map((a) => (byAgent.get(a.agentId) ?? []).map(([, v]) => v)),
    ),
    audit: audit ? { method: audit.method, auditedAt: audit.auditedAt, unreachable: audit.unreachable } : null,
  };
}

/** Each agent's share of the run's logged tokens; none when no episode logs tokens. */
function tokenShares(agents: AgentSummaryInput['agents'], activity: readonly AgentActivity[]): Map<number, number> {
  const logged = activity.filter((a) => a.tokens !== null && agents.some((g) => g.agentId === a.agentId));
  const total = logged.reduce((s, a) => s + (a.tokens ?? 0), 0);
  return new Map(total > 0 ? logged.map((a) => [a.agentId, (a.tokens ?? 0) / total] as const) : []);
}

function flagCounts(flags: readonly BrowseFlag[], agent: string): { kind: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const f of flags) if (f.agent === agent) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => ({ kind, count }));
}

/**
 * Histograms of `values` (one list per agent) on {@link histogramBins} equal bins from the smallest
 * to the largest value of any agent (±0.5 around it when they are all equal); null without values.
 * NaN and infinite values are skipped.
 */
export function histogram(agents: readonly string[], values: readonly (readonly number[])[]): CreditHistogram | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const list of values)
    for (const v of list)
      if (Number.isFinite(v)) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
  if (lo > hi) return null;
  if (lo === hi) [lo, hi] = [lo - 0.5, hi + 0.5];
  const width = (hi - lo) / histogramBins;
  const counts = values.flatMap((list) => {
    const bins = new Array<number>(histogramBins).fill(0);
    for (const v of list)
      if (Number.isFinite(v)) {
        const bin = Math.min(histogramBins - 1, Math.floor((v - lo) / width));
        bins[bin] = (bins[bin] ?? 0) + 1;
      }
    return bins;
  });
  const cols = Array.from({ length: histogramBins }, (_, i) => lo + i * width);
  return { domain: [lo, hi], counts: { rows: agents, cols, values: counts } };
}
