import { studentTQuantile } from '../game/studentTQuantile';
import { defaultVerdictEpsilon, idleVerdict, requiredSampleSize } from '../stats/idleVerdict';
import { discordantCounts, mcnemarExact } from '../stats/mcnemarExact';
import { pairedStatistics, type Interval, type PairedStatistics } from '../stats/pairedStatistics';

/** The statistics behind one agent's verdict in one audit window (credit-methods.md §5.2, §5.3). */
export interface WindowEvidence {
  /** Episodes with a finite contribution `d_i`. */
  readonly n: number;
  /** Mean contribution `d̄_i`, in reward units. */
  readonly meanCredit: number;
  /** Sample sd of `d_i` (ddof 1). */
  readonly sd: number;
  /** 90% interval of the mean (the TOST interval of the idle verdict). */
  readonly ci90: Interval;
  /** 95% interval of the mean (the contributes / harmful verdicts). */
  readonly ci95: Interval;
  /** Mean team reward `R̄`. */
  readonly meanReward: number;
  /** Mean `v(N\{i})` (reward without the agent) when known, else null. */
  readonly partnerSolo: number | null;
  /** Exact McNemar p on `(R, R^{(−i)})` when both are known and binary, else null. */
  readonly mcnemarP: number | null;
  /** The tolerance ε used, in reward units. */
  readonly epsilon: number;
  /** True when `partnerSolo` is unknown and partner-solo competence was assumed, not tested. */
  readonly partnerSoloAssumed: boolean;
  /** Episodes an equivalence verdict needs at this sd and ε, `(z_{0.95}·sd/ε)²` (§5.2); NaN when sd is. */
  readonly requiredEpisodes: number;
}

/** One agent's verdict in one window: §5.2's paired verdicts plus free-rider. */
export type WindowVerdict = 'contributes' | 'harmful' | 'idle' | 'free-rider' | 'inconclusive';

/** Options of {@link windowVerdict}. */
export interface WindowVerdictOptions {
  /** Tolerance in reward units, > 0; default `max(0.02, 0.05·R̄)` (§5.2). */
  readonly epsilon?: number;
  /** Fewer episodes with a finite contribution than this → inconclusive (default 20). */
  readonly minEpisodes?: number;
}

/**
 * One agent's verdict over an audit window (credit-methods.md §5.2 verdicts, §5.3 statistics;
 * oracle E13). `credit[e]` is the paired per-episode LOO contribution `d_{i,e} = R_e − R_e^{(−i)}`,
 * `rewards[e]` the team reward `R_e`, `without[e]` the counterfactual `R_e^{(−i)} = v(N\{i})` when
 * known (else null); the arrays are aligned per episode and NaN entries are skipped.
 *
 * * **contributes** / **harmful**: the 95% interval of `d̄_i` lies above +ε / below −ε;
 * * **idle**: TOST, the 90% interval lies inside (−ε, +ε), **and** partner-solo competence
 *   `mean v(N\{i}) ≥ R̄ − ε`. When `without` is null, `d ≈ 0` already says the partners carry the
 *   reward alone, so the condition is taken as met and `evidence.partnerSoloAssumed` is true;
 * * **free-rider**: idle **and** `R̄ > ε`: the agent shares a reward the team earns (§5.2 asks
 *   for `R̄ > 0`; ε keeps a near-zero team reward from counting);
 * * **inconclusive**: anything else, or fewer than `minEpisodes` episodes.
 *
 * The intervals are cluster-free (episodes treated as independent; the prompt-cluster bootstrap of
 * §5.3 is the caller's refinement): the normal intervals of {@link pairedStatistics} for n ≥ 20, and
 * t intervals with n − 1 df below 20 prompts' worth of episodes, as §5.3 prescribes for low n.
 * E13 (b = 3, c = 1, n = 100): inconclusive at ε = 0.05, idle at ε = 0.10 (free-rider if R̄ > 0.10).
 * Misaligned arrays or `epsilon ≤ 0` are programmer errors (RangeError).
 */
export function windowVerdict(
  credit: readonly number[],
  rewards: readonly number[],
  without: readonly number[] | null,
  options: WindowVerdictOptions = {},
): { verdict: WindowVerdict; evidence: WindowEvidence } {
  if (rewards.length !== credit.length || (without !== null && without.length !== credit.length)) {
    throw new RangeError(
      `credit (${credit.length}), rewards (${rewards.length}) and without (${without?.length ?? 'null'}) must be aligned`,
    );
  }
  const statistics = windowStatistics(credit);
  const meanReward = finiteMean(rewards);
  const epsilon = options.epsilon ?? defaultVerdictEpsilon(meanReward);
  const partnerSolo = without === null ? null : finiteMean(without);
  const partnerSoloKnown = partnerSolo !== null && !Number.isNaN(partnerSolo);
  const evidence: WindowEvidence = {
    n: statistics.n,
    meanCredit: statistics.mean,
    sd: statistics.sd,
    ci90: statistics.ci90,
    ci95: statistics.ci95,
    meanReward,
    partnerSolo: partnerSoloKnown ? partnerSolo : null,
    mcnemarP: without === null ? null : binaryMcnemar(rewards, without),
    epsilon,
    partnerSoloAssumed: !partnerSoloKnown,
    requiredEpisodes: requiredSampleSize(statistics.sd, epsilon),
  };
  if (statistics.n < (options.minEpisodes ?? 20)) return { verdict: 'inconclusive', evidence };
  const verdict = idleVerdict(statistics, epsilon, !partnerSoloKnown || partnerSolo >= meanReward - epsilon);
  return { verdict: verdict === 'idle' && meanReward > epsilon ? 'free-rider' : verdict, evidence };
}

/** {@link pairedStatistics}, with t intervals (n − 1 df) replacing the normal ones below n = 20. */
function windowStatistics(credit: readonly number[]): PairedStatistics {
  const statistics = pairedStatistics(credit);
  if (statistics.n >= 20) return statistics;
  const t = (confidence: number): number => studentTQuantile((1 + confidence) / 2, statistics.n - 1);
  const interval = (confidence: number): Interval => [
    statistics.mean - t(confidence) * statistics.se,
    statistics.mean + t(confidence) * statistics.se,
  ];
  return { ...statistics, ci90: interval(0.9), ci95: interval(0.95) };
}

/** Mean of the finite entries; NaN when there are none. */
function finiteMean(values: readonly number[]): number {
  let n = 0;
  let sum = 0;
  for (const value of values) {
    if (!Number.isFinite(value)) continue;
    n++;
    sum += value;
  }
  return n === 0 ? NaN : sum / n;
}

/** Exact McNemar p when every pair with both values finite is binary (and there is one), else null. */
function binaryMcnemar(rewards: readonly number[], without: readonly number[]): number | null {
  const finitePairs = rewards.filter((r, e) => Number.isFinite(r) && Number.isFinite(without[e])).length;
  const { b, c, n } = discordantCounts(rewards, without);
  return n > 0 && n === finitePairs ? mcnemarExact(b, c) : null;
}
