/**
 * Budget allocation between exact counterfactuals and a learned estimate (credit-methods.md §3.16;
 * oracle E12). Item j (an agent-episode) has a learned prediction `m_j` of its contribution `Δ_j`;
 * it is evaluated exactly with probability `q_j`, and the doubly-robust (control-variate) estimate
 * `Δ̂_j = m_j + (Z_j/q_j)(Δ_j − m_j)` is unbiased for any `m_j`. Spending the expected budget where the
 * learned signal is most wrong per unit cost minimises the added variance `Σ_j e_j²(1/q_j − 1)`.
 */

/** The allocation: evaluation probabilities per item and the added variance they imply. */
export interface BudgetAllocation {
  /** `q_j ∈ [0, 1]`: probability of evaluating item j exactly. */
  readonly q: Float64Array;
  /** `Σ_j e_j²(1/q_j − 1)`, in squared reward units; Infinity when some `e_j > 0` gets `q_j = 0`. */
  readonly variance: number;
}

/**
 * The Neyman / optimal Horvitz–Thompson allocation `q_j = min(1, λ·e_j/√c_j)` with λ chosen so
 * that the expected cost `Σ_j c_j q_j` equals `budget` (water-filling: items that reach `q = 1` are
 * fixed at 1, their cost leaves the budget, and λ is solved again for the rest). Minimal added
 * variance without capping: `(Σ_j e_j√c_j)²/B − Σ_j e_j²`.
 *
 * `residualScales[j] = e_j ≥ 0` is the root-mean-square error of the learned estimate
 * (`e_j² = E[(Δ_j − m_j)²]`), `costs[j] = c_j ≥ 0` the cost of one exact evaluation (default 1;
 * cost 0 means free, so `q_j = 1`), `budget ≥ 0` in the same cost units. Items with `e_j = 0` get
 * `q_j = 0` (the learned value is exact). A budget that covers every item gives `q = 1` and
 * variance 0. A floor `q_j ≥ q_min` (0.05 recommended, §3.16) is the caller's choice and spends
 * extra budget. Negative or non-finite inputs and misaligned costs are programmer errors (RangeError).
 */
export function budgetAllocation(
  residualScales: ArrayLike<number>,
  budget: number,
  costs?: ArrayLike<number>,
): BudgetAllocation {
  const n = residualScales.length;
  const e = checkedArray(residualScales, 'residual scale');
  const c = costs === undefined ? new Float64Array(n).fill(1) : checkedArray(costs, 'cost');
  if (c.length !== n) throw new RangeError(`costs (${c.length}) must have one entry per item (${n})`);
  if (!(budget >= 0) || !Number.isFinite(budget))
    throw new RangeError(`budget must be a non-negative finite number, got ${budget}`);
  const q = new Float64Array(n);
  const active: number[] = [];
  for (let j = 0; j < n; j++) {
    if ((e[j] ?? 0) === 0) continue;
    if ((c[j] ?? 0) === 0) q[j] = 1;
    else active.push(j);
  }
  waterFill(e, c, q, active, budget);
  return { q, variance: addedVariance(e, q) };
}

function waterFill(e: Float64Array, c: Float64Array, q: Float64Array, active: number[], budget: number): void {
  const ratio = (j: number): number => (e[j] ?? NaN) / Math.sqrt(c[j] ?? NaN);
  const weight = (j: number): number => (e[j] ?? NaN) * Math.sqrt(c[j] ?? NaN);
  active.sort((a, b) => ratio(b) - ratio(a));
  let remaining = budget;
  let weights = active.reduce((sum, j) => sum + weight(j), 0);
  let first = 0;
  // λ only grows as the largest ratios are capped, so capping in descending ratio order is exact.
  for (; first < active.length; first++) {
    const j = active[first] ?? -1;
    if ((remaining / weights) * ratio(j) < 1) break;
    q[j] = 1;
    remaining -= c[j] ?? NaN;
    weights -= weight(j);
  }
  const lambda = Math.max(0, remaining) / weights;
  for (const j of active.slice(first)) q[j] = lambda * ratio(j);
}

/**
 * The variance added by random audit sampling, `Σ_j e_j²(1/q_j − 1)` (§3.16), in squared reward
 * units. Terms with `e_j = 0` contribute 0 whatever `q_j`; `e_j > 0` with `q_j = 0` gives Infinity.
 * Use it to compare an allocation with the uniform one (E12: 0.20 vs 0.30).
 */
export function addedVariance(residualScales: ArrayLike<number>, q: ArrayLike<number>): number {
  if (q.length !== residualScales.length)
    throw new RangeError(`q (${q.length}) must have one entry per item (${residualScales.length})`);
  let variance = 0;
  for (let j = 0; j < q.length; j++) {
    const e = residualScales[j] ?? NaN;
    if (e !== 0) variance += e * e * (1 / (q[j] ?? NaN) - 1);
  }
  return variance;
}

/**
 * The doubly-robust estimate of one item's contribution (§3.16): `Δ̂ = m + 1{sampled}·(Δ − m)/q`,
 * where `learned = m`, `exact = Δ` when the item was drawn for exact evaluation (undefined when it
 * was not) and `q ∈ (0, 1]` its sampling probability. Unbiased: `E[Δ̂] = Δ` for any `m`. A sampled
 * item with `q ∉ (0, 1]` is a programmer error (RangeError).
 */
export function controlVariateEstimate(learned: number, exact: number | undefined, q: number): number {
  if (exact === undefined) return learned;
  checkProbability(q);
  return learned + (exact - learned) / q;
}

/**
 * The conditional variance of {@link controlVariateEstimate} over the sampling coin:
 * `(1/q − 1)·(Δ − m)²` (§3.16), in squared reward units; 0 when `q = 1` or `m = Δ`. E12:
 * `Δ = 1, m = 0.6, q = 0.8` → 0.04. `q ∉ (0, 1]` is a programmer error (RangeError).
 */
export function controlVariateVariance(learned: number, exact: number, q: number): number {
  checkProbability(q);
  return (1 / q - 1) * (exact - learned) ** 2;
}

function checkProbability(q: number): void {
  if (!(q > 0 && q <= 1)) throw new RangeError(`sampling probability q must be in (0, 1], got ${q}`);
}

function checkedArray(values: ArrayLike<number>, label: string): Float64Array {
  const checked = Float64Array.from(values);
  for (const [j, v] of checked.entries()) {
    if (!(v >= 0) || !Number.isFinite(v))
      throw new RangeError(`${label} ${j} must be a non-negative finite number, got ${v}`);
  }
  return checked;
}
