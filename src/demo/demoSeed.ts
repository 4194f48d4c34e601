import { deriveSeed } from './random';

/**
 * The demo's sampling seeds. A demo agent's luck — whether its sample lands on the right answer —
 * is a few bits drawn from the request's seed, as a model's sample is a function of its seed. The
 * writer logs, per episode, a seed whose bits are the outcome it drew from the learning curves, so
 * replaying an episode with its logged seed reproduces the logged outcome, and another seed
 * (replay sample j uses seed + j) draws other luck.
 */

/** What a seed decides: bit 0 … bit 3 of {@link seedLuck}. */
export interface DemoLuck {
  /** Team solver given a plan, or the fast expert: right. */
  readonly first: boolean;
  /** Team solver without a plan, or the careful expert: right. */
  readonly second: boolean;
  /** The verifier corrects a wrong solution. */
  readonly catches: boolean;
  /** The verifier writes real checks (else it echoes). */
  readonly engaged: boolean;
}

const luckStream = 0x5eed;

// Enough tries that a seed with the wanted 4 bits is found with certainty in practice ((15/16)^1024 < 1e-28).
const maxTries = 1024;

/** The luck a seed draws. */
export function seedLuck(seed: number): DemoLuck {
  const bits = deriveSeed(seed, luckStream) & 0xf;
  return { first: (bits & 1) !== 0, second: (bits & 2) !== 0, catches: (bits & 4) !== 0, engaged: (bits & 8) !== 0 };
}

/**
 * A seed (a non-negative 31-bit integer, as every server accepts) that draws `luck`, searched from
 * `base` deterministically. Unset luck fields are false.
 */
export function seedFor(base: number, luck: Partial<DemoLuck>): number {
  const wanted = (luck.first ? 1 : 0) | (luck.second ? 2 : 0) | (luck.catches ? 4 : 0) | (luck.engaged ? 8 : 0);
  let seed = 0;
  for (let attempt = 0; attempt < maxTries; attempt++) {
    seed = deriveSeed(base, attempt) >>> 1;
    if ((deriveSeed(seed, luckStream) & 0xf) === wanted) return seed;
  }
  return seed;
}
