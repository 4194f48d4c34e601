import { maxTablePlayers, popcount } from './coalitionGame';
import { memoised } from './memoised';
import { checkPlayerCount } from './playerCount';
import { shapleyWeights } from './shapleyWeights';

/**
 * Owen values of message players grouped into a-priori unions, one union per agent
 * (credit-methods.md §3.12 option 2, E10). The marginal of message `i` in union `k` is averaged over
 * orders in which every union's messages arrive contiguously:
 *
 *     Ow_i = Σ_{R ⊆ M\{k}} Σ_{T ⊆ U_k\{i}} |R|!(m−|R|−1)!/m! · |T|!(u_k−|T|−1)!/u_k!
 *              · [ v(Q_R ∪ T ∪ {i}) − v(Q_R ∪ T) ]
 *
 * where `m` is the number of unions, `Q_R` the messages of the unions in `R`, `u_k = |U_k|`.
 * Quotient property: the messages of union `k` sum to union `k`'s Shapley value in the agent game
 * `v_Q(R) = v(Q_R)`, so Σ over all messages = `v(all) − v(∅)`. A null message gets exactly 0.
 *
 * `value` is memoised: each distinct mask is evaluated once (so a stochastic `v` still conserves),
 * at most `Σ_k 2^(m−1+u_k)` masks. Cost `O(Σ_k 2^(m−1+u_k) · u_k)`.
 *
 * @param unions - a partition of `0 .. nPlayers−1`: `unions[agent]` lists that agent's message
 *   indices. Empty unions (agents that wrote nothing) are allowed and change nothing.
 * @param nPlayers - number of messages, an integer in `[0, 20]`; 0 gives an empty array.
 * @param value - the message-coalition value `v`, given a bitmask over messages.
 * @returns Owen value per message index, in the units of `v`. A NaN value propagates to NaN credit
 *   (at least for the messages whose marginals it enters).
 * @throws RangeError when `nPlayers` is out of range or `unions` is not a partition (programmer error).
 */
export function owenValues(
  unions: readonly (readonly number[])[],
  nPlayers: number,
  value: (mask: number) => number,
): Float64Array {
  checkPlayerCount(nPlayers, maxTablePlayers, 'owenValues');
  const groups = checkPartition(unions, nPlayers, 'owenValues');
  const cached = memoised(value).value;
  const owen = new Float64Array(nPlayers);
  const quotient = subsetMasks(groups.map(maskOf));
  const outerWeights = shapleyWeights(groups.length);
  groups.forEach((members, k) => {
    const credit = unionOwen(members, k, quotient, outerWeights, cached);
    members.forEach((player, p) => (owen[player] = credit[p] as number));
  });
  return owen;
}

/** Owen values of the members of union `k`, in member order. */
function unionOwen(
  members: readonly number[],
  k: number,
  quotient: Int32Array,
  outerWeights: Float64Array,
  value: (mask: number) => number,
): Float64Array {
  const inner = subsetMasks(members.map((player) => 1 << player));
  const innerWeights = shapleyWeights(members.length);
  const local = new Float64Array(inner.length);
  const credit = new Float64Array(members.length);
  const bitK = 1 << k;
  const lowK = bitK - 1;
  const others = outerWeights.length - 1;
  for (let rest = 0; rest < 2 ** others; rest++) {
    const unionsBefore = ((rest & ~lowK) << 1) | (rest & lowK);
    const base = quotient[unionsBefore] as number;
    const outer = outerWeights[popcount(rest)] as number;
    for (let t = 0; t < local.length; t++) local[t] = value(base | (inner[t] as number));
    for (let p = 0; p < members.length; p++) {
      const bit = 1 << p;
      let sum = 0;
      for (let t = 0; t < local.length; t++) {
        if ((t & bit) === 0)
          sum += (innerWeights[popcount(t)] as number) * ((local[t | bit] as number) - (local[t] as number));
      }
      credit[p] = (credit[p] as number) + outer * sum;
    }
  }
  return credit;
}

/** `result[s]` = OR of `masks[j]` over the bits `j` of `s`, for every `s < 2^masks.length`. */
function subsetMasks(masks: readonly number[]): Int32Array {
  const result = new Int32Array(2 ** masks.length);
  for (let s = 1; s < result.length; s++) {
    const lowest = 31 - Math.clz32(s & -s);
    result[s] = (result[s & (s - 1)] as number) | (masks[lowest] as number);
  }
  return result;
}

function maskOf(members: readonly number[]): number {
  return members.reduce((mask, player) => mask | (1 << player), 0);
}

/**
 * The non-empty unions, after checking that together they cover each player `0 .. nPlayers−1`
 * exactly once (the a-priori unions of credit-methods.md §3.12 option 2).
 *
 * @throws RangeError naming `caller` when `unions` is not such a partition (programmer error).
 */
export function checkPartition(
  unions: readonly (readonly number[])[],
  nPlayers: number,
  caller: string,
): (readonly number[])[] {
  const seen = new Uint8Array(nPlayers);
  for (const union of unions) {
    for (const player of union) {
      if (!Number.isInteger(player) || player < 0 || player >= nPlayers || seen[player] === 1) {
        throw new RangeError(`${caller}: message ${player} is out of 0..${nPlayers - 1} or in two unions`);
      }
      seen[player] = 1;
    }
  }
  const missing = seen.indexOf(0);
  if (missing >= 0) throw new RangeError(`${caller}: message ${missing} belongs to no union`);
  return unions.filter((union) => union.length > 0);
}
