/**
 * A seeded uniform generator on [0, 1): Tommy Ettinger's mulberry32, 32 bits of state. Deterministic
 * for a given seed, so Monte-Carlo credit is reproducible (credit-methods.md §3.8: the random source is
 * injectable and seeded). Not for cryptography.
 *
 * @param seed - any number; reduced to an unsigned 32-bit integer.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
