/** Options of {@link grpoAdvantages}. */
export interface GrpoAdvantageOptions {
  /** Standard-deviation convention: 0 = population (C3's MAGRPO), 1 = sample (`torch.std`). Default 0. */
  readonly ddof?: 0 | 1;
  /** Denominator guard added to the std: `(x − mean)/(std + eps)`. Default 1e-6; the E7 oracles use 0. */
  readonly eps?: number;
  /** Only subtract the group mean, without dividing by the std (Dr.GRPO-style, CCPO). Default false. */
  readonly centerOnly?: boolean;
  /**
   * Where `eps` goes: `'outside'` (default) `(x − mean)/(std + eps)`; `'inside'` the square root,
   * `(x − mean)/sqrt(var + eps)` (C3's MAGRPO).
   */
  readonly epsPlacement?: 'outside' | 'inside';
  /**
   * A group of one value: `'zero'` (default) gives advantage 0; `'unit'` uses mean 0 and std 1
   * as verl does, so the advantage is `x/(1 + eps)` (`x` with `centerOnly`).
   */
  readonly singleton?: 'zero' | 'unit';
}

/**
 * GRPO group-relative advantages over the `G` rollouts of one prompt (credit-methods.md §3.15;
 * oracle E7): `A_g = (x_g − mean(x)) / (std(x) + eps)`, or `x_g − mean(x)` with `centerOnly`.
 * `values` is the per-rollout signal of one (prompt, agent) group: the shared reward `R` (MAGRPO) or
 * the agent's counterfactual signal `D_i` / `MĈ_i` (CoFi-PGMA). Advantages are in std units
 * (reward units with `centerOnly`).
 *
 * NaN values are skipped when computing the group statistics and get a NaN advantage. A group whose
 * remaining values are all equal (std = 0, including a group of one) gets 0 for every rollout, for
 * any `eps`, including `eps = 0` where the formula would give 0/0 (§3.15: "groups with std = 0 get
 * A = 0"). With `ddof = 1` a group of one value also gets 0, unless `singleton: 'unit'` (verl).
 * The trainers' named conventions are in `advantageConventions.ts`. Empty input gives an empty array.
 */
export function grpoAdvantages(values: ArrayLike<number>, options: GrpoAdvantageOptions = {}): Float64Array {
  const n = values.length;
  const advantages = new Float64Array(n);
  const moments = groupMoments(values);
  const unitSingleton = moments.count === 1 && options.singleton === 'unit';
  const mean = unitSingleton ? 0 : moments.mean;
  const scale = unitSingleton ? (options.centerOnly ? 1 : 1 + (options.eps ?? 1e-6)) : groupScale(moments, options);
  for (let g = 0; g < n; g++) {
    const x = values[g] ?? NaN;
    if (Number.isNaN(x)) advantages[g] = NaN;
    else if (unitSingleton || !moments.allEqual) advantages[g] = (x - mean) / scale;
  }
  return advantages;
}

/** The divisor of a group with at least two distinct values: 1, `std + eps` or `sqrt(var + eps)`. */
function groupScale(moments: Moments, options: GrpoAdvantageOptions): number {
  const { ddof = 0, eps = 1e-6, centerOnly = false, epsPlacement = 'outside' } = options;
  if (centerOnly) return 1;
  const variance = moments.sumSquares / (moments.count - ddof);
  return epsPlacement === 'inside' ? Math.sqrt(variance + eps) : Math.sqrt(variance) + eps;
}

interface Moments {
  readonly count: number;
  readonly mean: number;
  readonly sumSquares: number;
  readonly allEqual: boolean;
}

// Two passes (mean, then squared deviations) to avoid the cancellation of Σx² − n·mean².
function groupMoments(values: ArrayLike<number>): Moments {
  let count = 0;
  let sum = 0;
  let first = NaN;
  let allEqual = true;
  for (let g = 0; g < values.length; g++) {
    const x = values[g] ?? NaN;
    if (Number.isNaN(x)) continue;
    if (count === 0) first = x;
    else if (x !== first) allEqual = false;
    count++;
    sum += x;
  }
  const mean = sum / count;
  let sumSquares = 0;
  for (let g = 0; g < values.length; g++) {
    const x = values[g] ?? NaN;
    if (!Number.isNaN(x)) sumSquares += (x - mean) ** 2;
  }
  return { count, mean, sumSquares, allEqual };
}
