import { err, ok, type Result } from '../../core/result';

/**
 * Leave-one-out advantages within one sibling group (credit-methods.md §3.10, C3's `reward_only`
 * variant with baseline `loo`): `A_j = r_j − (Σ_k r_k − r_j)/(n − 1) = n/(n−1)·(r_j − mean)`, in
 * reward units. A group of one gets 0 (C3's rule); an empty group gives an empty array; NaN
 * propagates to the whole group (the other rewards are its baseline).
 */
export function leaveOneOutAdvantages(rewards: ArrayLike<number>): Float64Array {
  const n = rewards.length;
  const advantages = new Float64Array(n);
  if (n < 2) return advantages;
  let sum = 0;
  for (let j = 0; j < n; j++) sum += rewards[j] ?? NaN;
  for (let j = 0; j < n; j++) {
    const r = rewards[j] ?? NaN;
    advantages[j] = r - (sum - r) / (n - 1);
  }
  return advantages;
}

/** Per-level (per-role, in topological order) node rewards and sibling LOO advantages of a C3 prefix tree. */
export interface C3Tree {
  /** `nodeRewards[d][j]`: mean leaf reward of node j's subtree at depth d (`Π_{k≤d} fanout[k]` nodes, lexicographic). */
  readonly nodeRewards: readonly Float64Array[];
  /** `advantages[d][j]`: node j's LOO advantage among its `fanout[d]` siblings (same parent, same context). */
  readonly advantages: readonly Float64Array[];
}

/**
 * C3's fixed-context credit over a rollout prefix tree (§3.10, code `EIT-EAST-Lab/C3`
 * `c3/mas/rollout_generator.py` and `c3/credit/c3/provider.py`; oracle E9). Rollouts of one prompt
 * branch per role with `fanout` (e.g. `[2, 4]` for Reasoner → Actor); `leafRewards` lists the task
 * rewards of the `Π fanout` leaves in lexicographic order (the first role's branch varies slowest).
 * Node reward = mean reward of its leaf subtree; advantages are leave-one-out among siblings, which
 * share the exact parent transcript. E9: fanout `[2, 2]`, leaves `[1, 1, 0, 1]` → node rewards
 * `[1, ½]`, Reasoner advantages `(½, −½)`, Actor advantages `(0, 0, −1, 1)`.
 *
 * Errors when `fanout` is empty or has an entry that is not a positive integer, or when the number
 * of leaves differs from the product of the fanouts. NaN leaves propagate to their ancestors.
 */
export function c3Advantages(leafRewards: ArrayLike<number>, fanout: readonly number[]): Result<C3Tree> {
  if (fanout.length === 0) return err('fanout is empty: the prefix tree needs at least one role');
  const bad = fanout.find((f) => !Number.isInteger(f) || f < 1);
  if (bad !== undefined) return err(`fanout ${bad} is not a positive integer (fanout [${fanout.join(', ')}])`);
  const leaves = fanout.reduce((product, f) => product * f, 1);
  if (leafRewards.length !== leaves) {
    return err(`${leafRewards.length} leaf rewards, but fanout [${fanout.join(', ')}] makes ${leaves} rollouts`);
  }
  const nodeRewards: Float64Array[] = [];
  const advantages: Float64Array[] = [];
  let nodes = 1;
  for (const f of fanout) {
    nodes *= f;
    const rewards = subtreeMeans(leafRewards, nodes);
    nodeRewards.push(rewards);
    advantages.push(siblingAdvantages(rewards, f));
  }
  return ok({ nodeRewards, advantages });
}

function subtreeMeans(leafRewards: ArrayLike<number>, nodes: number): Float64Array {
  const span = leafRewards.length / nodes;
  const means = new Float64Array(nodes);
  for (let j = 0; j < nodes; j++) {
    let sum = 0;
    for (let leaf = j * span; leaf < (j + 1) * span; leaf++) sum += leafRewards[leaf] ?? NaN;
    means[j] = sum / span;
  }
  return means;
}

function siblingAdvantages(rewards: Float64Array, fanout: number): Float64Array {
  const advantages = new Float64Array(rewards.length);
  for (let start = 0; start < rewards.length; start += fanout) {
    advantages.set(leaveOneOutAdvantages(rewards.subarray(start, start + fanout)), start);
  }
  return advantages;
}
