import { advantagesFor, type AdvantageConvention } from '../../credit/signals/advantageConventions';
import type { AdvantageChoice } from '../credit/advantageConvention';
import type { GroupCreditErrorRow, GroupCreditRow, GroupRolloutRow } from '../../store/groupViewRepository';
import type { ConventionView } from '../../protocol/groupPanel';

// Pure pieces of the group view (groupViewService.ts): the order of the rollouts, the group's
// reward statistics, the convention in words, and the stored credit of one method.

/** Fewest values of a signal in a group for a group-relative advantage to mean anything. */
export const minRolloutsForAdvantage = 2;

/** Rollouts by reward, highest first, those without a reward last; ties by sample, then as indexed. */
export function byReward(rollouts: readonly GroupRolloutRow[]): GroupRolloutRow[] {
  const key = (r: GroupRolloutRow): number => r.reward ?? -Infinity;
  return [...rollouts].sort(
    (a, b) =>
      (a.reward === null ? 1 : 0) - (b.reward === null ? 1 : 0) ||
      key(b) - key(a) ||
      (a.sample ?? -1) - (b.sample ?? -1) ||
      a.episodeId - b.episodeId,
  );
}

/**
 * The GRPO advantages of `values` (one per rollout, null: none) under `convention`, by the
 * engine's own function; all null when fewer than {@link minRolloutsForAdvantage} values are present.
 */
export function groupAdvantages(
  values: readonly (number | null)[],
  convention: AdvantageConvention | undefined,
): (number | null)[] {
  const present = values.filter((v) => v !== null).length;
  if (!convention || present < minRolloutsForAdvantage) return values.map(() => null);
  const computed = advantagesFor(
    convention,
    Float64Array.from(values, (v) => v ?? Number.NaN),
  );
  return values.map((v, i) => (v === null ? null : finiteOrNull(computed[i])));
}

/** Mean and standard deviation (the convention's ddof; population without one) of the present values. */
export function rewardMoments(
  values: readonly (number | null)[],
  convention: AdvantageConvention | undefined,
): { mean: number | null; std: number | null } {
  const present = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (present.length === 0) return { mean: null, std: null };
  const mean = present.reduce((sum, v) => sum + v, 0) / present.length;
  const ddof = convention?.options.ddof ?? 0;
  if (present.length - ddof <= 0 || present.length < minRolloutsForAdvantage) return { mean, std: null };
  const squares = present.reduce((sum, v) => sum + (v - mean) ** 2, 0);
  return { mean, std: Math.sqrt(squares / (present.length - ddof)) };
}

/** The convention in words: `(r − mean) / (std + ε) over 4 rollouts`, and where it came from. */
export function conventionView(choice: AdvantageChoice, rollouts: number): ConventionView {
  const { name, summary, options } = choice.convention;
  const over = `over ${String(rollouts)} rollout${rollouts === 1 ? '' : 's'}`;
  const formula = options.centerOnly
    ? 'r − mean'
    : options.epsPlacement === 'inside'
      ? '(r − mean) / √(var + ε)'
      : '(r − mean) / (std + ε)';
  return { name, formula: `${formula} ${over}`, detail: `${summary}; ${choice.description}` };
}

/** The stored credit of one method over the group: the parameter set written last, by rollout and agent. */
export interface MethodCredit {
  readonly byRollout: ReadonlyMap<number, ReadonlyMap<string, GroupCreditRow>>;
  /** When the newest row of each rollout was written. */
  readonly computedAt: ReadonlyMap<number, string>;
}

/** Splits the group's credit rows by method, keeping each method's newest parameter set only. */
export function creditByMethod(rows: readonly GroupCreditRow[]): Map<string, MethodCredit> {
  const newest = new Map<string, GroupCreditRow>();
  for (const row of rows) {
    const kept = newest.get(row.method);
    if (!kept || row.computedAt >= kept.computedAt) newest.set(row.method, row);
  }
  const out = new Map<string, MethodCredit>();
  for (const [method, latest] of newest) {
    const byRollout = new Map<number, Map<string, GroupCreditRow>>();
    const computedAt = new Map<number, string>();
    for (const row of rows) {
      if (row.method !== method || row.paramsHash !== latest.paramsHash) continue;
      const agents = byRollout.get(row.episodeId) ?? new Map<string, GroupCreditRow>();
      agents.set(row.agent, row);
      byRollout.set(row.episodeId, agents);
      const at = computedAt.get(row.episodeId);
      if (at === undefined || row.computedAt > at) computedAt.set(row.episodeId, row.computedAt);
    }
    out.set(method, { byRollout, computedAt });
  }
  return out;
}

/** The newest failure of `method` on each rollout. */
export function latestErrors(errors: readonly GroupCreditErrorRow[], method: string): Map<number, GroupCreditErrorRow> {
  const out = new Map<number, GroupCreditErrorRow>();
  for (const e of errors) if (e.method === method) out.set(e.episodeId, e);
  return out;
}

function finiteOrNull(value: number | undefined): number | null {
  return value === undefined || !Number.isFinite(value) ? null : value;
}
