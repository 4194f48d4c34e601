import { shuffle } from './shuffle';

/**
 * How permutations are grouped into independent sampling units (credit-methods.md §3.8):
 * - `independent`: each uniform permutation is a unit;
 * - `antithetic`: a uniform permutation and its reverse; the unit is the pair mean;
 * - `rotation`: a uniform permutation and its n − 1 further cyclic shifts (a Latin-square block:
 *   every agent arrives once at every position); the unit is the block mean.
 * Every permutation of every design is uniform on its own, so any unit mean is unbiased for φ.
 */
export type PermutationDesign = 'independent' | 'antithetic' | 'rotation';

/** Permutations per sampling unit of `design` with `n` agents. */
export function unitSize(design: PermutationDesign, n: number): number {
  if (design === 'rotation') return Math.max(1, n);
  return design === 'antithetic' ? 2 : 1;
}

/** Draws the orders of one sampling unit of `design` from `random`; `base` is scratch of length n. */
export function drawUnit(design: PermutationDesign, base: Int32Array, random: () => number): Int32Array[] {
  const first = shuffle(base, random).slice();
  if (design === 'independent') return [first];
  if (design === 'antithetic') return [first, first.slice().reverse()];
  return rotations(first);
}

/** The n cyclic shifts of `order`: shift k starts at `order[k]`. Shift 0 is `order` itself. */
export function rotations(order: Int32Array): Int32Array[] {
  const n = order.length;
  return Array.from({ length: n }, (_, k) => Int32Array.from({ length: n }, (_, j) => order[(j + k) % n] as number));
}
