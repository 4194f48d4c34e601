import { coalitionTable, maxTablePlayers } from './coalitionGame';
import { MarginalMoments } from './marginalMoments';
import { mulberry32 } from '../../core/mulberry32';
import { permutationMarginals } from './permutationMarginals';
import { checkPlayerCount } from './playerCount';
import { shapleyValues } from './shapleyValues';
import { shuffle } from './shuffle';
import { studentTQuantile } from './studentTQuantile';

/** Options of {@link shapleyMonteCarlo}; every field is optional. */
export interface MonteCarloOptions {
  /** Most permutations to walk, an integer ≥ 1 (default 200). Antithetic pairs are never split. */
  maxPermutations?: number;
  /** Stop once every agent's standard error is below this, ≥ 0 (default 0.02; 0 never stops early). */
  targetStderr?: number;
  /** Two-sided confidence level of the t interval, in (0, 1) (default 0.95). */
  confidence?: number;
  /** Also walk the reverse of each drawn permutation and use pair means as samples (default false). */
  antithetic?: boolean;
  /** Uniform source on [0, 1) (default: `mulberry32(1)`, fresh per call, so results are reproducible). */
  random?: () => number;
  /** Fixed permutations to walk in this order instead of random draws (deterministic oracles, E1). */
  permutations?: readonly (readonly number[])[];
  /** Permutations to walk before the standard-error rule may stop the run, ≥ 0 (default 10). */
  minPermutations?: number;
}

/** Estimates, uncertainty and cost of {@link shapleyMonteCarlo}. All arrays are indexed by agent. */
export interface MonteCarloResult {
  /** φ̂: mean marginal contribution, in the units of `v`. */
  values: Float64Array;
  /** Standard error of φ̂ (sample sd, ddof = 1, over samples / sqrt(samples)); 0 when exact. */
  stderr: Float64Array;
  /** Lower end of the `confidence` t interval `φ̂ − t_{(1+c)/2, samples−1} · SE`. */
  ciLow: Float64Array;
  /** Upper end of the interval. */
  ciHigh: Float64Array;
  /** Permutations walked (an antithetic pair counts 2). */
  permutations: number;
  /** Distinct coalitions evaluated, i.e. calls to `value` (∅ and N included). */
  evaluations: number;
  /** True when the values are exact, or every standard error fell below the target. */
  converged: boolean;
}

/**
 * Monte-Carlo permutation Shapley values with t confidence intervals (credit-methods.md §3.8).
 *
 * Walks random orders of the agents (or the fixed `permutations`), records each agent's marginal
 * `v(Pre_i(π) ∪ {i}) − v(Pre_i(π))`, and averages. `value` is memoised by mask, so `evaluations`
 * ≤ min(2^n, permutations·(n − 1) + 2). Stops at the first of: every SE < `targetStderr` (after at
 * least `minPermutations`), `maxPermutations` walked, the fixed list exhausted, or all `2^n`
 * coalitions evaluated; in the last case the exact Shapley values are returned with SE 0.
 *
 * Each permutation's marginals telescope to `v(N) − v(∅)`, so φ̂ is efficient for any number of
 * permutations (up to float rounding) and a null player gets exactly 0. With one sample the SE and
 * interval are NaN; with none (an empty list) the values are NaN too. A NaN value propagates to the
 * agents whose marginals it enters, and then the SE rule never stops the run.
 *
 * @param n - number of agents, an integer in `[0, 30]`; `n = 0` gives empty arrays.
 * @param value - the characteristic function `v`, given the coalition bitmask (bit `i` = agent `i`).
 * @throws RangeError for `n` out of range, invalid options, or a listed order that is not a
 *   permutation of `0 .. n−1` (programmer errors).
 */
export function shapleyMonteCarlo(n: number, value: (mask: number) => number, options: MonteCarloOptions = {}): MonteCarloResult {
  checkPlayerCount(n, 30, 'shapleyMonteCarlo');
  const settings = resolveOptions(options);
  const orders = orderSource(n, options);
  const cache = new Map<number, number>();
  const cached = (mask: number): number => {
    let result = cache.get(mask);
    if (result === undefined) cache.set(mask, (result = value(mask)));
    return result;
  };
  const moments = new MarginalMoments(n);
  const sample = new Float64Array(n);
  const mirror = new Float64Array(n);
  let walked = 0;
  let exact = n === 0;
  while (!exact && walked < settings.maxPermutations) {
    const order = orders();
    if (order === undefined) break;
    permutationMarginals(order, cached, sample);
    walked++;
    if (settings.antithetic) {
      permutationMarginals(order.slice().reverse(), cached, mirror);
      walked++;
      for (let i = 0; i < n; i++) sample[i] = ((sample[i] as number) + (mirror[i] as number)) / 2;
    }
    moments.add(sample);
    exact = n <= maxTablePlayers && cache.size === 2 ** n;
    if (walked >= settings.minPermutations && moments.maxStderr() < settings.targetStderr) break;
  }
  if (exact) return exactResult(n, cache, walked);
  const converged = walked >= settings.minPermutations && moments.maxStderr() < settings.targetStderr;
  return sampledResult(moments, settings.confidence, walked, cache.size, converged);
}

interface Settings {
  maxPermutations: number;
  targetStderr: number;
  confidence: number;
  antithetic: boolean;
  minPermutations: number;
}

function resolveOptions(options: MonteCarloOptions): Settings {
  const { maxPermutations = 200, targetStderr = 0.02, confidence = 0.95, antithetic = false, minPermutations = 10 } = options;
  if (!Number.isInteger(maxPermutations) || maxPermutations < 1) {
    throw new RangeError(`shapleyMonteCarlo: maxPermutations must be an integer ≥ 1, got ${maxPermutations}`);
  }
  if (!Number.isInteger(minPermutations) || minPermutations < 0) {
    throw new RangeError(`shapleyMonteCarlo: minPermutations must be an integer ≥ 0, got ${minPermutations}`);
  }
  if (!(targetStderr >= 0)) throw new RangeError(`shapleyMonteCarlo: targetStderr must be ≥ 0, got ${targetStderr}`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`shapleyMonteCarlo: confidence must be in (0, 1), got ${confidence}`);
  return { maxPermutations, targetStderr, confidence, antithetic, minPermutations };
}

/** Yields the next order to walk: the next listed permutation, or a fresh uniform shuffle. */
function orderSource(n: number, options: MonteCarloOptions): () => Int32Array | undefined {
  const list = options.permutations;
  if (list !== undefined) {
    const orders = list.map((order) => checkedOrder(order, n));
    let next = 0;
    return () => orders[next++];
  }
  const random = options.random ?? mulberry32(1);
  const order = Int32Array.from({ length: n }, (_, i) => i);
  return () => shuffle(order, random);
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

function exactResult(n: number, cache: Map<number, number>, walked: number): MonteCarloResult {
  const values = n === 0 ? new Float64Array(0) : shapleyValues(coalitionTable(n, (mask) => cache.get(mask) as number));
  return {
    values,
    stderr: new Float64Array(n),
    ciLow: values.slice(),
    ciHigh: values.slice(),
    permutations: walked,
    evaluations: cache.size,
    converged: true,
  };
}

function sampledResult(moments: MarginalMoments, confidence: number, walked: number, evaluations: number, converged: boolean): MonteCarloResult {
  const n = moments.mean.length;
  const values = moments.count === 0 ? new Float64Array(n).fill(NaN) : moments.mean.slice();
  const multiplier = studentTQuantile((1 + confidence) / 2, moments.count - 1);
  const stderr = new Float64Array(n);
  const ciLow = new Float64Array(n);
  const ciHigh = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const se = moments.stderr(i);
    stderr[i] = se;
    ciLow[i] = (values[i] as number) - multiplier * se;
    ciHigh[i] = (values[i] as number) + multiplier * se;
  }
  return { values, stderr, ciLow, ciHigh, permutations: walked, evaluations, converged };
}
