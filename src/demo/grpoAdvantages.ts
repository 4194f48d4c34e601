/**
 * GRPO group-relative advantages (credit-methods.md §3.15): `(r − mean) / (std + 1e-6)` with the
 * population standard deviation of the group's rewards. A group whose rewards are all equal gets 0
 * for every sample. Values are rounded to 6 decimals, which is all a trainer log keeps and saves
 * bytes in gigabyte-size runs.
 */
export function grpoAdvantages(rewards: readonly number[]): number[] {
  if (rewards.length === 0) return [];
  const mean = rewards.reduce((sum, r) => sum + r, 0) / rewards.length;
  const variance = rewards.reduce((sum, r) => sum + (r - mean) ** 2, 0) / rewards.length;
  const std = Math.sqrt(variance);
  // `+ 0` turns -0 into 0, so deep-equality checks and re-serialised values agree.
  return rewards.map((r) => Math.round(((r - mean) / (std + 1e-6)) * 1e6) / 1e6 + 0);
}
