import { advantagesFor } from '../credit/signals/advantageConventions';

/**
 * The GRPO advantages a demo run logs: verl's group normalisation (docs/credit-methods.md §3.15,
 * the `verl` convention of src/credit/signals/advantageConventions.ts: sample std, eps 1e-6), since
 * the demo's run.json names verl as its producer, so the logged advantages and the ones Credit Lens
 * computes from the reward agree. Values are rounded to 6 decimals, which is all a trainer log
 * keeps and saves bytes in gigabyte-size runs.
 */
export function grpoAdvantages(rewards: readonly number[]): number[] {
  // `+ 0` turns -0 into 0, so deep-equality checks and re-serialised values agree.
  return Array.from(advantagesFor('verl', rewards), (a) => Math.round(a * 1e6) / 1e6 + 0);
}
