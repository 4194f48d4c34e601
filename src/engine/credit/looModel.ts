import type { CreditEpisode } from '../../core/creditInput';

/** The learned leave-one-out estimate of a budgeted pass, and how wrong it is expected to be, per episode. */
export interface LooModel {
  /** `m_j`: the predicted per-agent credit of an episode (roster order). */
  means(episode: CreditEpisode): readonly number[];
  /** `e_j`: the expected root-sum-square error of `means(episode)` over the agents. */
  residual(episode: CreditEpisode): number;
}

interface Group {
  readonly means: number[];
  /** Undefined when the group has too few exact episodes to tell (fewer than 2). */
  readonly residual: number | undefined;
}

/**
 * Fits the learned estimate from the episodes computed exactly so far (credit-methods.md §3.16):
 * per-agent means within the episode's outcome (its logged reward, known for free before any
 * counterfactual: a failed episode's credit is not a successful one's), and the residual scale of
 * each outcome. An outcome with fewer than two exact episodes borrows the pooled means and scale;
 * with fewer than two exact episodes in all, nothing is known about the error and it is spread
 * evenly (residual 1).
 */
export function fitLooModel(
  known: ReadonlyMap<number, Float64Array>,
  episodes: readonly CreditEpisode[],
  agents: readonly string[],
): LooModel {
  const byOutcome = new Map<string, Float64Array[]>();
  for (const episode of episodes) {
    const values = known.get(episode.episodeId);
    if (!values) continue;
    const list = byOutcome.get(outcomeOf(episode)) ?? [];
    list.push(values);
    byOutcome.set(outcomeOf(episode), list);
  }
  const pooled = group([...known.values()], agents.length);
  const groups = new Map([...byOutcome].map(([outcome, values]) => [outcome, group(values, agents.length)]));
  const of = (episode: CreditEpisode): Group => {
    const own = groups.get(outcomeOf(episode));
    return own?.residual !== undefined ? own : pooled;
  };
  return {
    means: (episode) => of(episode).means,
    residual: (episode) => of(episode).residual ?? pooled.residual ?? 1,
  };
}

function group(values: readonly Float64Array[], agents: number): Group {
  const byAgent = Array.from({ length: agents }, (_, i) =>
    values.map((v) => v[i] ?? Number.NaN).filter(Number.isFinite),
  );
  const means = byAgent.map((list) => (list.length > 0 ? mean(list) : 0));
  if (values.length < 2) return { means, residual: undefined };
  const squares = byAgent.flatMap((list, i) => list.map((v) => (v - (means[i] ?? 0)) ** 2));
  return { means, residual: Math.sqrt(mean(squares) * agents) };
}

function outcomeOf(episode: CreditEpisode): string {
  return episode.reward === null ? 'unknown' : String(episode.reward);
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}
