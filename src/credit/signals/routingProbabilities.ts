import { err, ok, type Result } from '../../core/result';
import { routingProbabilityTolerance, sumsToOne } from '../../core/routingTolerance';

/**
 * Checks one logged router distribution over `n` experts (credit-methods.md §3.4, §6.1: the
 * probabilities of **all** experts at decision time). Returns a copy as a Float64Array, or an error
 * naming the first problem: an empty distribution, a missing / NaN / infinite entry, an entry outside
 * [0, 1], or a sum farther than {@link routingProbabilityTolerance} from 1 (the indexer's tolerance). `label` names the distribution in the message
 * ("router", "behaviour router"); `experts`, when given, names expert k in it (else its index).
 */
export function routingProbabilities(
  probs: ArrayLike<number>,
  label: string,
  experts?: readonly string[],
): Result<Float64Array> {
  const n = probs.length;
  if (n === 0) return err(`${label} probabilities are missing: no experts`);
  const checked = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) {
    const p = probs[k];
    if (p === undefined || !Number.isFinite(p))
      return err(
        `${label} probability of expert ${expertName(k, experts)} is missing or not a finite number (${String(p)})`,
      );
    if (p < 0 || p > 1) return err(`${label} probability of expert ${expertName(k, experts)} is ${p}, outside [0, 1]`);
    checked[k] = p;
    sum += p;
  }
  if (!sumsToOne(sum))
    return err(
      `${label} probabilities sum to ${Number(sum.toPrecision(12))}, not 1 (tolerance ${routingProbabilityTolerance})`,
    );
  return ok(checked);
}

/** Expert `k` in an error text: its name in quotes when `experts` has one, else its index. */
export function expertName(k: number, experts: readonly string[] | undefined): string {
  const name = experts?.[k];
  return name === undefined ? String(k) : JSON.stringify(name);
}
