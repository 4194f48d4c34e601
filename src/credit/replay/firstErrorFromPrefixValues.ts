import type { FirstErrorResult } from '../game/firstError';

/** Prefix values at or below this are "near zero": the continuation (almost) never succeeds. */
export const defaultNearZero = 0.1;

/**
 * First-error localisation of a failed episode from replayed prefix values (docs/replay.md,
 * "Replay plans"): `values[k] = V(h_k)`, the (mean) reward of letting the remaining agents continue
 * after the first k messages, for `k = 0 .. T`. Message j is the first error when the value is
 * above `nearZero` before it and at or below `nearZero` after it and at every later prefix:
 * `V(h_j) > ε` and `V(h_i) ≤ ε` for all `i > j` — the message after which the episode was lost and
 * never recovered. `harmful` lists every message that drops the value to near zero, `repairs`
 * every later message that lifts it back above (so a harmful message that was repaired is not the
 * first error). There is no first error when the value does not end near zero, when it is near zero
 * from the prompt on (no message lost the episode), or when a value after the drop is NaN.
 *
 * Unlike {@link firstError} (the first drop of at least δ, credit-methods.md §3.13), this names the
 * point of no return, which is what a deterministic replay (values 0 or 1) can say exactly.
 *
 * @param values - `V(h_0) .. V(h_T)`, usually in [0, 1].
 * @param nearZero - ε ≥ 0 (default {@link defaultNearZero}); a NaN or negative ε is a programmer error (RangeError).
 */
export function firstErrorFromPrefixValues(values: ArrayLike<number>, nearZero = defaultNearZero): FirstErrorResult {
  if (!(nearZero >= 0)) throw new RangeError(`firstErrorFromPrefixValues: nearZero must be ≥ 0, got ${nearZero}`);
  const low = (k: number): boolean => (values[k] as number) <= nearZero;
  const high = (k: number): boolean => (values[k] as number) > nearZero;
  const harmful: number[] = [];
  const repairs: number[] = [];
  for (let j = 0; j + 1 < values.length; j++) {
    if (high(j) && low(j + 1)) harmful.push(j);
    else if (harmful.length > 0 && low(j) && high(j + 1)) repairs.push(j);
  }
  const last = harmful[harmful.length - 1];
  const lost =
    last !== undefined && Array.from({ length: values.length - last - 1 }, (_, i) => last + 1 + i).every(low);
  return { index: lost ? last : undefined, harmful, repairs };
}
