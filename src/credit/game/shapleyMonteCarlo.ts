import { coalitionTable, maxTablePlayers } from './coalitionGame';
import { memoised } from './memoised';
import { mulberry32 } from '../../core/mulberry32';
import { drawUnit, unitSize, type PermutationDesign } from './permutationDesign';
import { checkPlayerCount } from './playerCount';
import { ShapleySampler } from './shapleySampler';
import { shapleyValues } from './shapleyValues';

/** Options of {@link shapleyMonteCarlo}; every field is optional. */
export interface MonteCarloOptions {
  /** Most permutations to walk, an integer ≥ 1 (default 200). Antithetic pairs and rotation blocks are never split. */
  maxPermutations?: number;
  /** Stop once every agent's standard error is below this, ≥ 0 (default 0.02; 0 never stops early). */
  targetStderr?: number;
  /** Two-sided confidence level of the t interval, in (0, 1) (default 0.95). */
  confidence?: number;
  /** Also walk the reverse of each drawn permutation and use pair means as samples (default false). */
  antithetic?: boolean;
  /**
   * Walk rotation blocks (a random permutation and its cyclic shifts) instead of independent draws
   * (default true). Ignored with `antithetic` or `permutations`, and when fewer than two blocks fit
   * in `maxPermutations` (then permutations are independent).
   */
  rotation?: boolean;
  /** Uniform source on [0, 1) (default: `mulberry32(1)`, fresh per call, so results are reproducible). */
  random?: () => number;
  /** Fixed permutations to walk in this order instead of random draws (deterministic oracles, E1). */
  permutations?: readonly (readonly number[])[];
  /** Permutations to walk before the standard-error rule may stop the run, ≥ 0 (default 10; at least two units). */
  minPermutations?: number;
}

/** Estimates, uncertainty and cost of {@link shapleyMonteCarlo}. All arrays are indexed by agent. */
export interface MonteCarloResult {
  /** φ̂: mean marginal contribution, in the units of `v`. */
  values: Float64Array;
  /** Standard error of φ̂ (see {@link ShapleySampler}); 0 only when exact. */
  stderr: Float64Array;
  /** Lower end of the `confidence` t interval `φ̂ − t_{(1+c)/2, units−1} · SE`. */
  ciLow: Float64Array;
  /** Upper end of the interval. */
  ciHigh: Float64Array;
  /** Permutations walked (an antithetic pair counts 2, a rotation block n). */
  permutations: number;
  /** Distinct coalitions evaluated, i.e. calls to `value` (∅ and N included). */
  evaluations: number;
  /** True when the values are exact, or every standard error fell below the target. */
  converged: boolean;
}

/** Validated options, shared with the engine's chunked driver. */
export interface MonteCarloPlan {
  readonly design: PermutationDesign;
  /** Sampling units at most (a unit is 1 permutation, a pair, or a block of n). */
  readonly maxUnits: number;
  /** Units before the standard-error rule may stop, ≥ 2. */
  readonly minUnits: number;
  readonly targetStderr: number;
  readonly confidence: number;
}

/**
 * Monte-Carlo permutation Shapley values with t confidence intervals (credit-methods.md §3.8).
 *
 * Walks random orders of the agents (rotation blocks by default, or the fixed `permutations`),
 * records each agent's marginal `v(Pre_i(π) ∪ {i}) − v(Pre_i(π))`, and averages. `value` is memoised
 * by mask, so `evaluations` ≤ min(2^n, permutations·(n − 1) + 2). Stops at the first of: every SE <
 * `targetStderr` (after at least `minPermutations` and two units), `maxPermutations` walked, the
 * fixed list exhausted, or all `2^n` coalitions evaluated; in the last case the exact Shapley values
 * are returned with SE 0.
 *
 * Each permutation's marginals telescope to `v(N) − v(∅)`, so φ̂ is efficient for any number of
 * permutations (up to float rounding) and a null player gets exactly 0. With one unit the SE and
 * interval are NaN; with none (an empty list) the values are NaN too. A NaN value propagates to the
 * agents whose marginals it enters, and then the SE rule never stops the run.
 *
 * @param n - number of agents, any integer ≥ 0 (masks are `bigint`); `n = 0` gives empty arrays.
 * @param value - the characteristic function `v`, given the coalition bitmask (bit `i` = agent `i`).
 * @throws RangeError for `n` out of range, invalid options, or a listed order that is not a
 *   permutation of `0 .. n−1` (programmer errors).
 */
export function shapleyMonteCarlo(
  n: number,
  value: (mask: bigint) => number,
  options: MonteCarloOptions = {},
): MonteCarloResult {
  checkPlayerCount(n, Number.MAX_SAFE_INTEGER, 'shapleyMonteCarlo');
  const plan = monteCarloPlan(n, options);
  const units = unitSource(n, plan.design, options);
  const { value: cached, cache } = memoised(value);
  const sampler = new ShapleySampler(n, plan.design);
  let exact = n === 0;
  while (!exact && sampler.units < plan.maxUnits) {
    const orders = units();
    if (orders === undefined) break;
    sampler.addUnit(orders, cached);
    exact = isEnumerated(n, cache.size);
    if (shouldStop(sampler, plan)) break;
  }
  if (exact) return exactMonteCarlo(n, (mask) => cache.get(mask) as number, sampler.permutations, cache.size);
  return {
    ...sampler.estimate(plan.confidence),
    permutations: sampler.permutations,
    evaluations: cache.size,
    converged: shouldStop(sampler, plan),
  };
}

/** True when `distinct` masks are all `2^n` coalitions (only checked up to the table size). */
export function isEnumerated(n: number, distinct: number): boolean {
  return n <= maxTablePlayers && distinct === 2 ** n;
}

/** The standard-error stopping rule of §3.8, after the minimum number of units. */
export function shouldStop(sampler: ShapleySampler, plan: MonteCarloPlan): boolean {
  return sampler.units >= plan.minUnits && sampler.maxStderr() < plan.targetStderr;
}

/**
 * Validates `options` and picks the design. Rotation blocks are used when at least two fit in the
 * budget (two units are the fewest with a standard error); antithetic pairs are rounded up.
 */
export function monteCarloPlan(n: number, options: MonteCarloOptions): MonteCarloPlan {
  const {
    maxPermutations = 200,
    targetStderr = 0.02,
    confidence = 0.95,
    antithetic = false,
    rotation = true,
    minPermutations = 10,
  } = options;
  if (!Number.isInteger(maxPermutations) || maxPermutations < 1) {
    throw new RangeError(`shapleyMonteCarlo: maxPermutations must be an integer ≥ 1, got ${maxPermutations}`);
  }
  if (!Number.isInteger(minPermutations) || minPermutations < 0) {
    throw new RangeError(`shapleyMonteCarlo: minPermutations must be an integer ≥ 0, got ${minPermutations}`);
  }
  if (!(targetStderr >= 0)) throw new RangeError(`shapleyMonteCarlo: targetStderr must be ≥ 0, got ${targetStderr}`);
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`shapleyMonteCarlo: confidence must be in (0, 1), got ${confidence}`);
  const listed = options.permutations !== undefined;
  const blocks = rotation && !antithetic && !listed && n > 1 && maxPermutations >= 2 * n;
  const design: PermutationDesign = antithetic ? 'antithetic' : blocks ? 'rotation' : 'independent';
  const size = unitSize(design, n);
  const maxUnits = design === 'rotation' ? Math.floor(maxPermutations / size) : Math.ceil(maxPermutations / size);
  return { design, maxUnits, minUnits: Math.max(2, Math.ceil(minPermutations / size)), targetStderr, confidence };
}

/** Exact Shapley values (SE 0, zero-width intervals: nothing is sampled) from a fully evaluated game. */
export function exactMonteCarlo(
  n: number,
  value: (mask: bigint) => number,
  permutations: number,
  evaluations: number,
): MonteCarloResult {
  const values = n === 0 ? new Float64Array(0) : shapleyValues(coalitionTable(n, (mask) => value(BigInt(mask))));
  return {
    values,
    stderr: new Float64Array(n),
    ciLow: values.slice(),
    ciHigh: values.slice(),
    permutations,
    evaluations,
    converged: true,
  };
}

/** Yields the orders of the next unit: the next listed permutation (a pair when antithetic), or fresh draws. */
function unitSource(n: number, design: PermutationDesign, options: MonteCarloOptions): () => Int32Array[] | undefined {
  const list = options.permutations;
  if (list !== undefined) {
    const orders = list.map((order) => checkedOrder(order, n));
    let next = 0;
    return () => {
      const order = orders[next++];
      if (order === undefined) return undefined;
      return design === 'antithetic' ? [order, order.slice().reverse()] : [order];
    };
  }
  const random = options.random ?? mulberry32(1);
  const base = Int32Array.from({ length: n }, (_, i) => i);
  return () => drawUnit(design, base, random);
}

function checkedOrder(order: readonly number[], n: number): Int32Array {
  const seen = new Uint8Array(n);
  for (const agent of order) {
    if (!Number.isInteger(agent) || agent < 0 || agent >= n || seen[agent] === 1) break;
    seen[agent] = 1;
  }
  if (order.length !== n || !seen.every((flag) => flag === 1)) {
    throw new RangeError(`shapleyMonteCarlo: [${order.join(', ')}] is not a permutation of 0..${n - 1}`);
  }
  return Int32Array.from(order);
}
