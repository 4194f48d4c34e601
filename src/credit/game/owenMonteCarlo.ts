import { mulberry32 } from '../../core/mulberry32';
import { memoised } from './memoised';
import { checkPartition } from './owenValues';
import type { PermutationDesign } from './permutationDesign';
import { checkPlayerCount } from './playerCount';
import {
  monteCarloPlan,
  shouldStop,
  type MonteCarloOptions,
  type MonteCarloPlan,
  type MonteCarloResult,
} from './shapleyMonteCarlo';
import { ShapleySampler } from './shapleySampler';
import { shuffle } from './shuffle';

/** Options of {@link owenMonteCarlo}: those of Monte-Carlo Shapley that fit a two-level order. */
export type OwenMonteCarloOptions = Pick<
  MonteCarloOptions,
  'maxPermutations' | 'targetStderr' | 'confidence' | 'antithetic' | 'random' | 'minPermutations'
>;

/**
 * Draws Owen orders of messages grouped into a-priori unions (credit-methods.md §3.12 option 2,
 * Monte Carlo): the unions in a uniform random order, then each union's members in a uniform
 * random order, concatenated, so every union arrives contiguously. The mean marginal of a message
 * over such orders is unbiased for its Owen value.
 */
export class OwenOrders {
  private readonly unions: Int32Array[];
  private readonly unionOrder: Int32Array;

  /** @throws RangeError when `unions` is not a partition of `0 .. nPlayers−1` (programmer error). */
  constructor(
    unions: readonly (readonly number[])[],
    readonly nPlayers: number,
  ) {
    const groups = checkPartition(unions, nPlayers, 'OwenOrders');
    this.unions = groups.map((members) => Int32Array.from(members));
    this.unionOrder = Int32Array.from(groups, (_, k) => k);
  }

  /** One Owen order of all players (the unions' scratch arrays are reshuffled in place). */
  draw(random: () => number): Int32Array {
    const order = new Int32Array(this.nPlayers);
    let at = 0;
    for (const k of shuffle(this.unionOrder, random)) {
      const members = shuffle(this.unions[k] as Int32Array, random);
      order.set(members, at);
      at += members.length;
    }
    return order;
  }

  /** The orders of one sampling unit: an order, and its reverse when antithetic (a reversed Owen order is one too). */
  drawUnit(design: PermutationDesign, random: () => number): Int32Array[] {
    const order = this.draw(random);
    return design === 'antithetic' ? [order, order.slice().reverse()] : [order];
  }
}

/**
 * The sampling plan of Monte-Carlo Owen values: that of Monte-Carlo Shapley (§3.8) without rotation
 * blocks (a cyclic shift of an Owen order splits a union), antithetic pairs by default.
 */
export function owenPlan(nPlayers: number, options: OwenMonteCarloOptions): MonteCarloPlan {
  return monteCarloPlan(nPlayers, { ...options, antithetic: options.antithetic ?? true, rotation: false });
}

/**
 * Monte-Carlo Owen values of message players in a-priori unions (credit-methods.md §3.12 option 2,
 * for episodes too long for the exact {@link owenValues}): walks two-level random orders
 * ({@link OwenOrders}), averages each message's marginal `v(Pre ∪ {i}) − v(Pre)`, and gives t
 * intervals from the same {@link ShapleySampler} as Monte-Carlo Shapley (§3.8), with its stopping
 * rule (every SE below `targetStderr`, or `maxPermutations` walked).
 *
 * Each order's marginals telescope to `v(all) − v(∅)`, so the estimates conserve exactly (up to
 * float rounding) for any number of orders, and a message whose every marginal is 0 gets exactly 0
 * (with a non-zero interval unless `v` looked constant: the sampler's tie rule). `value` is memoised
 * by mask; masks are `bigint`, so any number of messages works.
 *
 * @param unions - a partition of `0 .. nPlayers−1`, one union per agent (empty unions allowed).
 * @param nPlayers - number of messages, any integer ≥ 0; 0 gives empty arrays.
 * @param value - the message-coalition value `v`, given a bitmask over messages.
 * @throws RangeError for invalid options or a `unions` that is not a partition (programmer errors).
 */
export function owenMonteCarlo(
  unions: readonly (readonly number[])[],
  nPlayers: number,
  value: (mask: bigint) => number,
  options: OwenMonteCarloOptions = {},
): MonteCarloResult {
  checkPlayerCount(nPlayers, Number.MAX_SAFE_INTEGER, 'owenMonteCarlo');
  const orders = new OwenOrders(unions, nPlayers);
  const plan = owenPlan(nPlayers, options);
  const { value: cached, cache } = memoised(value);
  const sampler = new ShapleySampler(nPlayers, plan.design);
  const random = options.random ?? mulberry32(1);
  while (nPlayers > 0 && sampler.units < plan.maxUnits && !shouldStop(sampler, plan))
    sampler.addUnit(orders.drawUnit(plan.design, random), cached);
  return {
    ...sampler.estimate(plan.confidence),
    permutations: sampler.permutations,
    evaluations: cache.size,
    converged: nPlayers === 0 || shouldStop(sampler, plan),
  };
}
