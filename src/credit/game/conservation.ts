/**
 * Conservation check for per-message credit (credit-methods.md §3.12: "local, signed, and
 * credit-conserving"): does `Σ parts` equal `total` (an agent's Shapley value, or the episode's
 * `R − V(h_0)`) within a tolerance relative to the magnitudes involved?
 *
 * The tolerance is `tolerance · max(1, |total|, Σ |parts|)`, so float rounding in long sums is not
 * flagged. Empty `parts` sum to 0.
 *
 * @param parts - the credits that should add up, e.g. one agent's message credits.
 * @param total - the credit they should add up to.
 * @param tolerance - relative tolerance, default 1e-9.
 * @returns false when any input is NaN (an unknown credit cannot be shown to conserve).
 */
export function isConserved(parts: ArrayLike<number>, total: number, tolerance = 1e-9): boolean {
  let sum = 0;
  let scale = Math.max(1, Math.abs(total));
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as number;
    sum += part;
    scale += Math.abs(part);
  }
  return Math.abs(sum - total) <= tolerance * scale;
}
