import { mulberry32 } from '../core/mulberry32';

/**
 * A small seeded PRNG for the demo generator. The demo must be reproducible (same seed, same run)
 * and `Math.random()` cannot be seeded, so every random draw in `src/demo` goes through here.
 */

/** A stream of seeded pseudo-random draws. */
export interface Random {
  /** A uniform draw in [0, 1). */
  next(): number;
  /** A uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** A uniformly chosen element; `items` must not be empty. */
  pick<T>(items: readonly T[]): T;
  /** A standard normal draw (Box–Muller). */
  normal(): number;
}

/**
 * Creates a mulberry32 generator (Tommy Ettinger's 32-bit generator): tiny, fast and good enough for
 * synthetic data, though not for cryptography. `seed` is reduced to an unsigned 32-bit integer.
 */
export function createRandom(seed: number): Random {
  const next = mulberry32(seed);
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    normal: () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next()),
  };
}

/**
 * Mixes a seed and a path of integers (step, group, sample, purpose) into one 32-bit seed.
 * Each episode gets its own streams this way, so an episode's draws do not depend on how many draws
 * earlier episodes made (changing `verbose` or `rounds` leaves the outcomes unchanged).
 */
export function deriveSeed(seed: number, ...path: readonly number[]): number {
  let hash = Math.imul((seed >>> 0) ^ 0x9e3779b9, 0x85ebca6b);
  for (const part of path) {
    hash = Math.imul(hash ^ (part >>> 0), 0xcc9e2d51);
    hash = (hash << 15) | (hash >>> 17);
    hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  }
  hash ^= hash >>> 16;
  return hash >>> 0;
}
