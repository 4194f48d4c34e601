import { checkPlayerCount } from './playerCount';

/**
 * Shared-reward credit (credit-methods.md §3.2, Standard): every agent gets the team reward `R`, as
 * MAGRPO-style training feeds it; with `split`, each gets `R / n` (efficient, but still violates the
 * null-player axiom: an idle partner gets the same credit, E2).
 *
 * @param reward - the team reward `R` (usually in [0, 1]); NaN gives NaN for every agent.
 * @param n - number of agents, an integer in `[0, 2^30]`; `n = 0` gives an empty array.
 * @param options.split - divide `R` equally instead of repeating it (default false).
 * @throws RangeError when `n` is not a non-negative integer (programmer error).
 */
export function sharedReward(reward: number, n: number, options: { split?: boolean } = {}): Float64Array {
  checkPlayerCount(n, 2 ** 30, 'sharedReward');
  return new Float64Array(n).fill(options.split === true ? reward / n : reward);
}
