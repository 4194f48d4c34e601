import { createRandom, deriveSeed } from '../random';
import { fadeAt, type ScenarioPlan } from './scenarioPlan';

/**
 * One training step's latent coalition game. Every episode draws one uniform `u_j` per agent and
 * reuses it in every coalition (common random numbers), so a coalition value changes only through
 * the agents it adds or removes:
 *
 * * **pipeline**: `v(S) = Π_{j ∈ C} [u_j < (j ∈ S ? present_j : absent_j)]`: each contributor's stage
 *   must come out right; without the agent its stage is still right with probability `absent_j`
 *   (0: necessary, > 0: helpful). At least one contributor is necessary, so `v(∅) = 0`.
 * * **vote**: `v(S) = [#{j ∈ S ∩ C : u_j < present_j} ≥ quorum]`: a quorum of independent right
 *   votes. Echoed and content-free votes are not independent, so only contributors' votes count.
 *
 * Agents outside `C` (idle, free-rider, silent) never appear in `v`: they are null players.
 */
export interface LatentGame {
  readonly mechanism: 'pipeline' | 'vote';
  /** Contributor indices `C`. */
  readonly contributors: readonly number[];
  /** Per agent: P(its work is right) when it takes part; 0 for non-contributors. */
  readonly present: readonly number[];
  /** Per agent (pipeline): P(its stage is still right when it is removed). */
  readonly absent: readonly number[];
  /** Right votes needed (vote). */
  readonly quorum: number;
}

/** Success rate of a team with idle agents (mostly fails) and of a succeeding team. */
const failingTarget = 0.035;
const succeedingTarget = 0.82;
/** How much a helpful (not necessary) pipeline agent raises its stage's success. */
const helpfulLift = 0.5;
/** Decoupling: team success of the other contributors before and after they learn the fading agent's job. */
const decoupling = {
  pipelineEarly: 0.6,
  pipelineLate: 0.92,
  fadingPresent: 0.95,
  voteEarly: 0.5,
  voteLate: 0.88,
  fadingVote: 0.8,
};
const helpfulStream = 21;

/** The latent game of `step` (see {@link LatentGame}); only decoupling scenarios change with the step. */
export function stepGame(plan: ScenarioPlan, step: number): LatentGame {
  const n = plan.spec.teamSize;
  const base = {
    mechanism: plan.spec.mechanism,
    contributors: plan.contributors,
    present: new Array<number>(n).fill(0),
    absent: new Array<number>(n).fill(0),
  };
  const h = plan.contributors.length;
  if (h === 0) return { ...base, quorum: 1 };
  if (plan.fade) return fadingGame(plan, base, step);
  const target = plan.failing ? failingTarget : succeedingTarget;
  if (base.mechanism === 'vote') {
    // A failing team needs every vote, so each contributor's removal costs the whole (small) reward.
    const quorum = plan.failing || h < 3 ? h : h - 1;
    const p = solveIncreasing((c) => quorumProbability(new Array<number>(h).fill(c), quorum), target);
    for (const j of plan.contributors) base.present[j] = p;
    return { ...base, quorum };
  }
  const p = target ** (1 / h);
  for (const j of plan.contributors) base.present[j] = p;
  const last = plan.contributors[h - 1] ?? 0;
  if (!plan.failing && h >= 2 && createRandom(deriveSeed(plan.spec.seed, helpfulStream)).next() < 0.5)
    base.absent[last] = p - helpfulLift;
  return { ...base, quorum: 1 };
}

type GameBase = Omit<LatentGame, 'quorum' | 'present' | 'absent'> & { present: number[]; absent: number[] };

/** Decoupling: the fading agent's lift shrinks with {@link fadeAt} while the others' success rises. */
function fadingGame(plan: ScenarioPlan, base: GameBase, step: number): LatentGame {
  const agent = plan.fade?.agent ?? -1;
  const fade = fadeAt(plan, step);
  const others = plan.contributors.filter((j) => j !== agent);
  const o = others.length;
  if (base.mechanism === 'pipeline') {
    const team = decoupling.pipelineEarly + (decoupling.pipelineLate - decoupling.pipelineEarly) * (1 - fade);
    for (const j of others) base.present[j] = team ** (1 / o);
    base.present[agent] = decoupling.fadingPresent;
    base.absent[agent] = decoupling.fadingPresent - helpfulLift * fade;
    return { ...base, quorum: 1 };
  }
  const fading = decoupling.fadingVote;
  const early = solveIncreasing(
    (c) => quorumProbability([...new Array<number>(o).fill(c), fading], o),
    decoupling.voteEarly,
  );
  const late = decoupling.voteLate ** (1 / o);
  for (const j of others) base.present[j] = early + (late - early) * (1 - fade);
  base.present[agent] = fading * fade;
  return { ...base, quorum: o };
}

/** The latent value v(S) ∈ {0, 1} of coalition `mask` (bit j = agent j) for one episode's uniforms. */
export function latentValue(game: LatentGame, uniforms: readonly number[], mask: number): number {
  if (game.mechanism === 'vote') {
    let right = 0;
    for (const j of game.contributors)
      if ((mask & (1 << j)) !== 0 && (uniforms[j] ?? 1) < (game.present[j] ?? 0)) right++;
    return right >= game.quorum ? 1 : 0;
  }
  if (!game.contributors.some((j) => (mask & (1 << j)) !== 0)) return 0;
  for (const j of game.contributors) {
    const p = (mask & (1 << j)) !== 0 ? game.present[j] : game.absent[j];
    if ((uniforms[j] ?? 1) >= (p ?? 0)) return 0;
  }
  return 1;
}

/** Bit mask of the agents that are null players in this episode: adding them never changes v. */
export function nullAgents(game: LatentGame, uniforms: readonly number[], teamSize: number): number {
  let nulls = 0;
  for (let i = 0; i < teamSize; i++) {
    const bit = 1 << i;
    let isNull = true;
    for (let mask = 0; mask < 1 << teamSize && isNull; mask++) {
      if ((mask & bit) === 0) isNull = latentValue(game, uniforms, mask | bit) === latentValue(game, uniforms, mask);
    }
    if (isNull) nulls |= bit;
  }
  return nulls;
}

/** P(at least `quorum` successes) of independent events with probabilities `probs` (Poisson binomial). */
export function quorumProbability(probs: readonly number[], quorum: number): number {
  let counts = [1];
  for (const p of probs) {
    const next = new Array<number>(counts.length + 1).fill(0);
    counts.forEach((q, k) => {
      next[k] = (next[k] ?? 0) + q * (1 - p);
      next[k + 1] = (next[k + 1] ?? 0) + q * p;
    });
    counts = next;
  }
  return counts.slice(Math.max(0, quorum)).reduce((sum, q) => sum + q, 0);
}

/** The x in [0, 1] with f(x) = target for an increasing f (bisection; clamps to 0 or 1). */
function solveIncreasing(f: (x: number) => number, target: number): number {
  let [low, high] = [0, 1];
  for (let i = 0; i < 50; i++) {
    const mid = (low + high) / 2;
    if (f(mid) < target) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}
