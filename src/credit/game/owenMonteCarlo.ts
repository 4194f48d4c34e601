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
import { ShapleySampler, type SampledEstimate } from './shapleySampler';
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
 * Each union's total over the Owen orders the messages are sampled by (credit-methods.md §3.12): a
 * union arrives contiguously, so its members' marginals sum to `v(Pre ∪ U) − v(Pre)`, its marginal in
 * the order the unions arrive in, and an agent's Owen total is its Shapley value in the game between
 * agents, estimated by the same permutations. A {@link ShapleySampler} over the speaking unions, fed
 * those union orders unit by unit, gives each total a standard error from its per-unit totals (so the
 * covariance of an agent's messages counts, which the messages' own errors cannot give). A lone
 * speaking union's total is `v(all) − v(∅)` in every order: exact (SE 0); a silent union's is 0.
 */
export class UnionTotals {
  private readonly sampler: ShapleySampler;
  /** Union of each sampler player (the speaking unions, in union order). */
  private readonly speaking: Int32Array;
  /** Sampler player of each message. */
  private readonly playerOf: Int32Array;
  private readonly messageMasks: bigint[];
  private readonly masks = new Map<bigint, bigint>();
  private readonly unionCount: number;

  /** @throws RangeError when `unions` is not a partition of `0 .. nPlayers−1` (programmer error). */
  constructor(unions: readonly (readonly number[])[], nPlayers: number, design: PermutationDesign) {
    checkPartition(unions, nPlayers, 'UnionTotals');
    this.unionCount = unions.length;
    this.speaking = Int32Array.from(unions.flatMap((members, k) => (members.length > 0 ? [k] : [])));
    this.playerOf = new Int32Array(nPlayers);
    this.messageMasks = Array.from(this.speaking, (k, player) =>
      (unions[k] ?? []).reduce((mask, seq) => {
        this.playerOf[seq] = player;
        return mask | (1n << BigInt(seq));
      }, 0n),
    );
    this.sampler = new ShapleySampler(this.speaking.length, design);
  }

  /** Adds the unit whose message orders are `orders` (`value`: the message-coalition value, memoised). */
  addUnit(orders: readonly Int32Array[], value: (mask: bigint) => number): void {
    this.sampler.addUnit(
      orders.map((order) => this.unionOrder(order)),
      (mask) => value(this.messageMask(mask)),
    );
  }

  /** Every union's total with its `confidence` t interval, indexed by union (silent unions 0, SE 0). */
  estimate(confidence: number): SampledEstimate {
    const size = this.unionCount;
    const out: SampledEstimate = {
      values: new Float64Array(size),
      stderr: new Float64Array(size),
      ciLow: new Float64Array(size),
      ciHigh: new Float64Array(size),
    };
    const sampled = this.sampler.estimate(confidence);
    const lone = this.speaking.length === 1;
    this.speaking.forEach((k, player) => {
      const value = sampled.values[player] as number;
      out.values[k] = value;
      out.stderr[k] = lone ? 0 : (sampled.stderr[player] as number);
      out.ciLow[k] = lone ? value : (sampled.ciLow[player] as number);
      out.ciHigh[k] = lone ? value : (sampled.ciHigh[player] as number);
    });
    return out;
  }

  /** The speaking unions in the order they arrive in `order`. */
  private unionOrder(order: Int32Array): Int32Array {
    const players = new Int32Array(this.speaking.length);
    let at = 0;
    let last = -1;
    for (const seq of order) {
      const player = this.playerOf[seq] as number;
      if (player !== last) players[at++] = player;
      last = player;
    }
    return players;
  }

  /** The message mask of a mask over sampler players (memoised: a few unions give few masks). */
  private messageMask(players: bigint): bigint {
    let mask = this.masks.get(players);
    if (mask === undefined) {
      mask = 0n;
      for (let p = 0; p < this.messageMasks.length; p++)
        if ((players >> BigInt(p)) & 1n) mask |= this.messageMasks[p] as bigint;
      this.masks.set(players, mask);
    }
    return mask;
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
