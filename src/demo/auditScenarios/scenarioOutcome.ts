import type { CoalitionValue, Counterfactual } from '../../core/episode';
import { createRandom, deriveSeed } from '../random';
import { latentValue, nullAgents, type LatentGame } from './latentGame';
import type { ScenarioPlan } from './scenarioPlan';

/** Where an episode sits in the run: its seeds derive from these. */
export interface EpisodeKey {
  readonly step: number;
  readonly group: number;
  readonly sample: number;
}

/** The outcome of one episode: team reward, every coalition value and each agent's own result. */
export interface ScenarioOutcome {
  /** The factual team reward v(N) (never flipped by noise). */
  readonly reward: number;
  /** v(S) by bit mask (bit j = agent j), noise applied; `values[0]` = v(∅) = 0. */
  readonly values: readonly number[];
  /** Per agent: its own stage or vote came out right (false for non-contributors). */
  readonly right: readonly boolean[];
  /** Bit mask of this episode's null players (their removal changes no coalition value). */
  readonly nulls: number;
}

const outcomeStream = 22;
const noiseStream = 23;

/**
 * Draws one episode's outcome from the latent game with common random numbers, then applies the
 * spec's `noise`: a counterfactual success is lost (flipped to 0) with probability `noise`, as a
 * replay that times out or breaks the answer format. Replays of an exact-match task fail by accident
 * far more often than they succeed by accident, so flips go one way. A flip is drawn once per
 * *effective* coalition (the coalition without this episode's null players): the replay of a team
 * differing only by an agent nobody listens to is the same replay. That keeps null players exactly
 * null (their LOO and Shapley values are 0 in every episode, whatever the noise), and the factual
 * coalition (and any that differs from it only by null players) is never flipped.
 */
export function scenarioOutcome(plan: ScenarioPlan, game: LatentGame, key: EpisodeKey): ScenarioOutcome {
  const { seed, teamSize, noise } = plan.spec;
  const rng = createRandom(deriveSeed(seed, outcomeStream, key.step, key.group, key.sample));
  const uniforms = Array.from({ length: teamSize }, () => rng.next());
  const full = (1 << teamSize) - 1;
  const nulls = nullAgents(game, uniforms, teamSize);
  const active = full & ~nulls;
  const isFlipped = (effective: number): boolean =>
    noise > 0 &&
    effective !== 0 &&
    effective !== active &&
    createRandom(deriveSeed(seed, noiseStream, key.step, key.group, key.sample, effective)).next() < noise;
  const values: number[] = [];
  for (let mask = 0; mask <= full; mask++) {
    const latent = latentValue(game, uniforms, mask);
    values.push(latent === 1 && isFlipped(mask & active) ? 0 : latent);
  }
  return { reward: values[full] ?? 0, values, right: uniforms.map((u, j) => u < (game.present[j] ?? 0)), nulls };
}

/**
 * The logged coalition table (all 2^n subsets, ∅ first, by bit mask) and one replayed "remove"
 * counterfactual per agent, `reward = v(N \ {i})`.
 */
export function coalitionRecords(
  names: readonly string[],
  values: readonly number[],
): { coalitions: CoalitionValue[]; counterfactuals: Counterfactual[] } {
  const full = (1 << names.length) - 1;
  const coalitions = values.map((value, mask) => ({ agents: names.filter((_, j) => (mask & (1 << j)) !== 0), value }));
  const counterfactuals = names.map((name, j) => ({
    intervention: 'remove' as const,
    agents: [name],
    reward: values[full & ~(1 << j)] ?? 0,
    replayed: true,
  }));
  return { coalitions, counterfactuals };
}
