/**
 * The GRPO advantages a demo run logs, as verl — the producer the demo's run.json names — computes
 * them (compute_grpo_outcome_advantage: `(r − mean) / (torch.std(r) + 1e-6)`, torch.std being the
 * sample std, n − 1; a group of one gets mean 0 and std 1): the demo is a producer, so it writes
 * what verl's own code would, and the credit engine's `verl` convention (docs/credit-methods.md
 * §3.15) computes the same numbers from the reward. A group whose rewards are all equal gets 0 for
 * every sample. Values are rounded to 6 decimals, which is all a trainer log keeps and saves bytes
 * in gigabyte-size runs.
 */
export function grpoAdvantages(rewards: readonly number[]): number[] {
  if (rewards.length === 0) return [];
  const n = rewards.length;
  const mean = n === 1 ? 0 : rewards.reduce((sum, r) => sum + r, 0) / n;
  const std = n === 1 ? 1 : Math.sqrt(rewards.reduce((sum, r) => sum + (r - mean) ** 2, 0) / (n - 1));
  // `+ 0` turns -0 into 0, so deep-equality checks and re-serialised values agree.
  return rewards.map((r) => Math.round(((r - mean) / (std + 1e-6)) * 1e6) / 1e6 + 0);
}
