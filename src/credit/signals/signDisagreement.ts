import { spearman } from '../audit/spearman';

/** Counts of one (step, agent) cell, additive over groups and steps (credit-methods.md §3.18). */
export interface SignCounts {
  /** Samples with both advantages finite. */
  readonly n: number;
  /** Of which the two advantages have strictly opposite signs: the shared reward pushes the wrong way. */
  readonly opposite: number;
  /** Of which either advantage is 0: one of the two signals does not push at all (never a flip). */
  readonly zero: number;
  /** Of `zero`, those the shared reward pushes while the agent's own signal does not (it contributed nothing there). */
  readonly sharedOnly: number;
}

/** {@link SignCounts} with the Spearman rank correlation of the two advantages over the same samples. */
export interface SignDisagreement extends SignCounts {
  /** Spearman's ρ of the shared-reward and the credit advantages; NaN when either side is constant or n < 2. */
  readonly rho: number;
  /** Two-sided p of ρ (1 with n < 4, see spearman.ts). */
  readonly p: number;
}

/**
 * Sign disagreement between the GRPO advantages of the same samples under the shared reward and
 * under an agent's marginal-contribution signal (credit-methods.md §3.18; oracle §8 E16). `shared[k]`
 * and `credit[k]` are the two advantages of sample `k`, each computed over its GRPO group by
 * `grpoAdvantages` in the run's convention (§3.15). A pair where either is not finite is skipped.
 * `opposite` counts `shared·credit < 0`; `zero` counts a pair where either is exactly 0 (a group
 * whose values are all equal gets 0 for every rollout), so a "no push" is never counted as a flip;
 * `sharedOnly` is the part of `zero` where the shared reward pushes and the agent's own signal is 0.
 * Arrays must be aligned (RangeError otherwise).
 */
export function signDisagreement(shared: ArrayLike<number>, credit: ArrayLike<number>): SignDisagreement {
  if (shared.length !== credit.length)
    throw new RangeError(`shared (${shared.length}) and credit (${credit.length}) must be aligned`);
  const x: number[] = [];
  const y: number[] = [];
  let opposite = 0;
  let zero = 0;
  let sharedOnly = 0;
  for (let k = 0; k < shared.length; k++) {
    const a = shared[k] ?? NaN;
    const b = credit[k] ?? NaN;
    if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
    x.push(a);
    y.push(b);
    if (a !== 0 && b === 0) sharedOnly++;
    if (a === 0 || b === 0) zero++;
    else if (a < 0 !== b < 0) opposite++;
  }
  const { rho, p } = spearman(x, y);
  return { n: x.length, opposite, zero, sharedOnly, rho, p };
}

/** The share of samples pushed the wrong way, `opposite / n`; null without samples (never 0 for "no data"). */
export function wrongWayShare(counts: SignCounts): number | null {
  return counts.n > 0 ? counts.opposite / counts.n : null;
}

/** The counts of several cells together (a window of steps): sums, since each sample is counted once. */
export function addSignCounts(cells: Iterable<SignCounts>): SignCounts {
  let n = 0;
  let opposite = 0;
  let zero = 0;
  let sharedOnly = 0;
  for (const c of cells) {
    n += c.n;
    opposite += c.opposite;
    zero += c.zero;
    sharedOnly += c.sharedOnly;
  }
  return { n, opposite, zero, sharedOnly };
}
