import type { InjectedRole, ScenarioSpec } from './scenario';

type Row = readonly [
  mechanism: ScenarioSpec['mechanism'],
  noise: number,
  roles: readonly InjectedRole[],
  decoupling?: ScenarioSpec['decoupling'],
];

const h = 'honest';
const i = 'idle';
const f = 'free-rider';
const s = 'silent';
const d = 'dominant';

/**
 * The 24 scenarios: team sizes 2–5, both mechanisms, noise 0 / 0.05 / 0.15; idle in 5, free-riders
 * in 12 (counting a dominant agent's partners), silent in 6, dominant in 4, honest-only controls in
 * 4, decoupling in 4 (one of them a two-agent pipeline, the PA-MAGRPO story).
 */
const rows: readonly Row[] = [
  ['pipeline', 0, [f, h]],
  ['vote', 0.05, [h, h]],
  ['pipeline', 0, [h, h, h]],
  ['vote', 0.15, [h, f, h]],
  ['pipeline', 0.05, [i, h, h]],
  ['vote', 0, [h, i, h]],
  ['pipeline', 0.15, [h, h, s]],
  ['vote', 0.05, [h, s, h, f]],
  ['pipeline', 0, [f, d, f, f]],
  ['vote', 0.15, [d, f]],
  ['pipeline', 0.05, [h, i, h, h, i]],
  ['vote', 0, [h, h, h, h, h]],
  ['pipeline', 0.15, [h, h, f, h]],
  ['vote', 0, [i, h, h, s]],
  ['pipeline', 0.05, [h, s]],
  ['pipeline', 0, [f, h, s, h, f]],
  ['vote', 0.05, [d, f, s]],
  ['pipeline', 0.15, [f, f, d]],
  ['pipeline', 0.05, [h, h, h, h]],
  ['vote', 0.15, [h, h, i, h, h]],
  ['pipeline', 0, [h, h, h], { agent: 2, from: 12 }],
  ['vote', 0.05, [h, h, h, h], { agent: 1, from: 12 }],
  ['pipeline', 0.15, [h, h, f, h, h], { agent: 4, from: 10 }],
  ['pipeline', 0.05, [h, h], { agent: 1, from: 12 }],
];

/**
 * The audit validation suite (about 18,000 episodes): 20 steps × 8 groups × 4 samples per scenario,
 * 40 steps for the decoupling ones. Scenario `k` (0-based) gets seed `1000·seed + k + 1`, so every
 * scenario name is unique and a different `seed` gives different episodes with the same design.
 */
export function validationSuite(seed = 1): ScenarioSpec[] {
  return rows.map(([mechanism, noise, roles, decoupling], k) => ({
    seed: 1000 * seed + k + 1,
    teamSize: roles.length,
    mechanism,
    noise,
    roles,
    steps: decoupling ? 40 : 20,
    groupsPerStep: 8,
    samplesPerGroup: 4,
    ...(decoupling ? { decoupling } : {}),
  }));
}
