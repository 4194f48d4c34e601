import { err, ok, type Result } from '../../core/result';
import { expertName, routingProbabilities } from './routingProbabilities';

/** Per-expert estimates from one logged routing decision, indexed like the router's probabilities. */
export interface RoutingEstimate {
  /** R2, marginal contribution: `MĈ_i = w·R·(1{sel=i} − p_i/(1−p_i)·1{sel≠i})`, unbiased for `MC_i`. */
  readonly mc: Float64Array;
  /** R1, standalone quality: `r̂_i = 1{sel=i}·R/μ_i`; NaN for an expert the logging router never selects (`μ_i = 0`). */
  readonly ipw: Float64Array;
  /** Winner-take-all reference: `1{sel=i}·R` (§3.5). */
  readonly wta: Float64Array;
  /** The off-policy weight `w = p_sel/μ_sel` (1 on-policy). */
  readonly weight: number;
}

const deterministic =
  "deterministic router: positivity fails, the losers' rewards are unidentified; score the logged losing responses instead";

/**
 * Unbiased per-expert credit from a single logged routing decision (credit-methods.md §3.4, §3.5;
 * oracle E5): the router chose expert `selected` (0-based) with probabilities `probs` over **all**
 * experts, and only that response was scored, with reward `reward` (any finite number, e.g. 0/1).
 * When the decision was logged by a different (behaviour) router, pass its probabilities as
 * `behaviourProbs` (μ); otherwise μ = p. `experts`, when given, names the experts (in the order of
 * `probs`) in error texts, which otherwise give their indices.
 *
 * Errors (bad data, not exceptions): probabilities missing, NaN, outside [0, 1] or not summing to 1
 * within `routingProbabilityTolerance` (core/routingTolerance.ts, the indexer's); a behaviour distribution over a different number of experts; `selected` out of
 * range; a non-finite reward; and positivity failures: a deterministic router (some probability
 * exactly 1), `μ_sel = 0`, or `μ_k = 0` where `p_k > 0`. Near-deterministic routers are accepted, but
 * their `p/(1−p)` and `1/μ` factors make the estimates extremely noisy.
 */
export function routingEstimates(
  probs: ArrayLike<number>,
  selected: number,
  reward: number,
  behaviourProbs?: ArrayLike<number>,
  experts?: readonly string[],
): Result<RoutingEstimate> {
  const p = routingProbabilities(probs, 'router', experts);
  if (!p.ok) return p;
  const mu = behaviourProbs === undefined ? p : routingProbabilities(behaviourProbs, 'behaviour router', experts);
  if (!mu.ok) return mu;
  const n = p.value.length;
  if (mu.value.length !== n) return err(`behaviour router has ${mu.value.length} experts, the router ${n}`);
  if (!Number.isInteger(selected) || selected < 0 || selected >= n)
    return err(selectedOutOfRange(selected, n, experts));
  if (!Number.isFinite(reward)) return err(`reward ${reward} is not a finite number`);
  const problem = positivityProblem(p.value, mu.value, selected, experts);
  if (problem !== undefined) return err(problem);
  return ok(estimates(p.value, mu.value, selected, reward));
}

function selectedOutOfRange(selected: number, n: number, experts: readonly string[] | undefined): string {
  if (experts === undefined) return `selected expert ${selected} is not in 0..${n - 1}`;
  return `the selected expert is not one of the episode's agents (${experts.join(', ')})`;
}

function positivityProblem(
  p: Float64Array,
  mu: Float64Array,
  selected: number,
  experts: readonly string[] | undefined,
): string | undefined {
  const name = (k: number): string => expertName(k, experts);
  for (let k = 0; k < p.length; k++) {
    if (p[k] === 1 || mu[k] === 1) return `${deterministic} (expert ${name(k)} has probability 1)`;
  }
  if (mu[selected] === 0) return `positivity fails: the logged expert ${name(selected)} has behaviour probability 0`;
  for (let k = 0; k < p.length; k++) {
    if ((p[k] ?? 0) > 0 && mu[k] === 0) {
      return `positivity fails: expert ${name(k)} has router probability ${String(p[k])} but behaviour probability 0`;
    }
  }
  return undefined;
}

function estimates(p: Float64Array, mu: Float64Array, selected: number, reward: number): RoutingEstimate {
  const n = p.length;
  const weight = (p[selected] ?? NaN) / (mu[selected] ?? NaN);
  const mc = new Float64Array(n);
  const ipw = new Float64Array(n);
  const wta = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const pi = p[i] ?? NaN;
    const won = i === selected;
    // `+ 0` turns −0 into 0 so that the arrays compare equal to hand-written expectations.
    mc[i] = weight * reward * (won ? 1 : -pi / (1 - pi)) + 0;
    ipw[i] = mu[i] === 0 ? NaN : won ? reward / (mu[i] ?? NaN) : 0;
    wta[i] = won ? reward : 0;
  }
  return { mc, ipw, wta, weight };
}
