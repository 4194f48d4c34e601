/**
 * Shuffles `order` in place into a uniform random permutation (Fisher–Yates), drawing from `random`
 * (uniform on [0, 1)). Used for the permutation sampling of credit-methods.md §3.8.
 *
 * @returns `order`, for chaining.
 */
export function shuffle(order: Int32Array, random: () => number): Int32Array {
  for (let i = order.length - 1; i > 0; i--) {
    // Clamp guards against an injected source that returns exactly 1.
    const j = Math.min(i, Math.floor(random() * (i + 1)));
    const swap = order[i] as number;
    order[i] = order[j] as number;
    order[j] = swap;
  }
  return order;
}
