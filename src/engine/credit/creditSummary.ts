import type { ComputedStatus } from '../../core/provenance';
import { pairedStatistics } from '../../credit/stats/pairedStatistics';

/** An agent's credit over a run: mean with a 95% interval, and how it moved over training. */
export interface AgentSummary {
  readonly agent: string;
  readonly episodes: number;
  readonly mean: number;
  readonly ci: readonly [number, number];
  /** Mean over the first and the last quarter of the run's training steps. */
  readonly early: number;
  readonly late: number;
  /** How many of its values are exact, estimated or approximate (docs/credit-provenance.md). */
  readonly status: Readonly<Record<ComputedStatus, number>>;
}

/**
 * Per-agent summaries from (step, value) pairs. The interval is the normal approximation
 * mean ± 1.96·sd/√n (n ≥ 2; a single episode gives [mean, mean]). NaN values are skipped.
 */
export function agentSummaries(
  values: ReadonlyMap<string, readonly (readonly [number, number, ComputedStatus?])[]>,
): AgentSummary[] {
  return [...values].map(([agent, pairs]) => {
    const finite = pairs.filter(([, v]) => Number.isFinite(v));
    // A loop, not Math.min(...steps): a spread of 100k+ arguments overflows the call stack.
    let lo = Infinity;
    let hi = -Infinity;
    for (const [step] of finite) {
      lo = Math.min(lo, step);
      hi = Math.max(hi, step);
    }
    const quarter = (hi - lo) / 4;
    return {
      agent,
      episodes: finite.length,
      ...meanInterval(finite.map(([, v]) => v)),
      early: mean(finite.filter(([s]) => s <= lo + quarter).map(([, v]) => v)),
      late: mean(finite.filter(([s]) => s >= hi - quarter).map(([, v]) => v)),
      status: statusCounts(finite),
    };
  });
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Mean and normal 95% interval (credit/stats/pairedStatistics); one value gives a zero-width interval. */
function meanInterval(values: readonly number[]): { mean: number; ci: readonly [number, number] } {
  const stats = pairedStatistics(values);
  return { mean: stats.mean, ci: stats.n < 2 ? [stats.mean, stats.mean] : stats.ci95 };
}

function statusCounts(pairs: readonly (readonly [number, number, ComputedStatus?])[]): Record<ComputedStatus, number> {
  const counts: Record<ComputedStatus, number> = { exact: 0, estimated: 0, approximate: 0 };
  for (const [, , status] of pairs) counts[status ?? 'exact']++;
  return counts;
}
