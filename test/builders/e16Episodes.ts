import type { Episode } from '../../src/core/episode';
import { episode } from './episodeBuilder';

// credit-methods.md §8 E16 as canonical trace lines: the planner is E7's Reasoner, the solver its
// Solver. Every removal is logged and replayed, so LOO is exact: D_planner = R − R(without planner).

/** One rollout `g` of `group` (undefined: an episode without a GRPO group) with its logged removals. */
export function e16Sample(
  id: string,
  step: number,
  group: string | undefined,
  reward: number,
  withoutPlanner: number,
  withoutSolver: number,
  extra: Partial<Episode> = {},
): Episode {
  return episode(id, {
    step,
    ...(group === undefined ? { group: undefined } : { group }),
    reward,
    counterfactuals: [
      { intervention: 'remove', agents: ['planner'], reward: withoutPlanner, replayed: true },
      { intervention: 'remove', agents: ['solver'], reward: withoutSolver, replayed: true },
    ],
    ...extra,
  });
}

/** E7's group (`<tag>-e7`, verl uid `u-<tag>-e7`) and the always-successful one (`<tag>-win`) at `step`, rollouts indexed 0–3. */
export function e16Groups(step: number, tag = `s${String(step)}`): Episode[] {
  const e7 = [1, 1, 0, 1].map((r, g) =>
    e16Sample(`${tag}-e7-${String(g)}`, step, `${tag}-e7`, r, [1, 0, 0, 0][g] ?? 0, 0, {
      sample: g,
      metadata: { uid: `u-${tag}-e7` },
    }),
  );
  const win = [1, 1, 1, 1].map((r, g) =>
    e16Sample(`${tag}-win-${String(g)}`, step, `${tag}-win`, r, [0, 1, 0, 1][g] ?? 0, 0, { sample: g }),
  );
  return [...e7, ...win];
}
