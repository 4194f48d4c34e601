import { coalitionTable } from '../src/credit/game/coalitionGame';
import { shapleyValues } from '../src/credit/game/shapleyValues';
import {
  defaultMonteCarlo,
  monteCarloCredit,
  type MaskValues,
  type MonteCarloSettings,
} from '../src/engine/credit/monteCarloCredit';

/** A test game with known Shapley values; `value` takes a bigint coalition mask. */
export interface CoverageGame {
  readonly name: string;
  readonly n: number;
  readonly value: (mask: bigint) => number;
  readonly truth: readonly number[];
}

/** Coverage of the engine's 95% intervals on one game over seeded episodes. */
export interface CoverageRow {
  readonly game: string;
  readonly n: number;
  readonly truth: readonly number[];
  readonly episodes: number;
  /** Share of agent values whose interval contains the true Shapley value. */
  readonly coverage: number;
  /** Lowest per-agent coverage. */
  readonly worstAgentCoverage: number;
  readonly meanPermutations: number;
  /** Intervals with ciLow = ciHigh that are not exact (exact: every coalition evaluated). */
  readonly zeroWidth: number;
  /** Largest |Σφ̂ − (v(N) − v(∅))| over episodes. */
  readonly efficiencyGap: number;
}

const agents = (mask: bigint, n: number): number[] =>
  Array.from({ length: n }, (_, i) => i).filter((i) => ((mask >> BigInt(i)) & 1n) === 1n);

/** Unanimity game on N: v(N) = worth, else 0; every agent's Shapley value is worth / n. */
export function unanimityGame(n: number, worth = 0.1): CoverageGame {
  const full = (1n << BigInt(n)) - 1n;
  return {
    name: 'unanimity',
    n,
    value: (mask) => (mask === full ? worth : 0),
    truth: Array.from({ length: n }, () => worth / n),
  };
}

/**
 * Airport game: v(S) = the largest cost in S, costs (i + 1)/n. Closed form (Littlechild–Owen): with
 * costs sorted c₁ ≤ … ≤ cₙ, φ_k = Σ_{j ≤ k} (c_j − c_{j−1}) / (n − j + 1).
 */
export function airportGame(n: number): CoverageGame {
  const cost = Array.from({ length: n }, (_, i) => (i + 1) / n);
  const truth: number[] = [];
  let running = 0;
  for (let k = 0; k < n; k++) truth.push((running += ((cost[k] ?? 0) - (cost[k - 1] ?? 0)) / (n - k)));
  return { name: 'airport', n, value: (mask) => Math.max(0, ...agents(mask, n).map((i) => cost[i] ?? 0)), truth };
}

/** Weighted majority game: v(S) = 1 when the weights in S reach `quota`; exact values by enumeration (n ≤ 16). */
export function votingGame(weights: readonly number[], quota: number): CoverageGame {
  const n = weights.length;
  const value = (mask: bigint): number =>
    agents(mask, n).reduce((total, i) => total + (weights[i] ?? 0), 0) >= quota ? 1 : 0;
  const truth = Array.from(shapleyValues(coalitionTable(n, (mask) => value(BigInt(mask)))));
  return { name: `voting [${weights.join(',')}] q=${quota}`, n, value, truth };
}

/** The issue-11 games at n = 10, and the unanimity and airport games at n = 40. */
export function coverageGames(): CoverageGame[] {
  return [
    unanimityGame(10),
    airportGame(10),
    votingGame([1, 1, 2, 2, 3, 3, 4, 5, 6, 7], 18),
    unanimityGame(40),
    airportGame(40),
  ];
}

/** A memoising {@link MaskValues} over a game function, for episode `episodeId`. */
export function gameValues(game: CoverageGame, episodeId: number): MaskValues {
  const known = new Map<bigint, number>();
  return {
    episode: { episodeId, agents: Array.from({ length: game.n }) },
    require: (masks) => {
      for (const mask of masks) if (!known.has(mask)) known.set(mask, game.value(mask));
      return Promise.resolve();
    },
    value: (mask) => {
      const value = known.get(mask);
      if (value === undefined) throw new Error(`mask ${mask} not required`);
      return value;
    },
  };
}

/**
 * Runs the engine's Monte-Carlo credit (the same code path as `shapley-mc`, default settings) on
 * `episodes` seeded episodes per game and counts how often the 95% interval covers the true value.
 */
export async function monteCarloCoverage(
  games = coverageGames(),
  episodes = 1000,
  settings: MonteCarloSettings = defaultMonteCarlo,
): Promise<CoverageRow[]> {
  const rows: CoverageRow[] = [];
  for (const game of games) rows.push(await gameCoverage(game, episodes, settings));
  return rows;
}

async function gameCoverage(game: CoverageGame, episodes: number, settings: MonteCarloSettings): Promise<CoverageRow> {
  const hits = new Array<number>(game.n).fill(0);
  let permutations = 0;
  let zeroWidth = 0;
  let efficiencyGap = 0;
  const worth = game.value((1n << BigInt(game.n)) - 1n) - game.value(0n);
  for (let e = 0; e < episodes; e++) {
    const estimate = await monteCarloCredit(gameValues(game, e), settings);
    permutations += estimate.permutations;
    efficiencyGap = Math.max(efficiencyGap, Math.abs(estimate.values.reduce((a, b) => a + b, 0) - worth));
    game.truth.forEach((truth, i) => {
      const low = estimate.ciLow[i] ?? NaN;
      const high = estimate.ciHigh[i] ?? NaN;
      if (low - 1e-12 <= truth && truth <= high + 1e-12) hits[i] = (hits[i] ?? 0) + 1;
      if (low === high && estimate.stderr.some((se) => se > 0)) zeroWidth++;
    });
  }
  const coverage = hits.reduce((a, b) => a + b, 0) / (episodes * game.n);
  return {
    game: game.name,
    n: game.n,
    truth: game.truth,
    episodes,
    coverage,
    worstAgentCoverage: Math.min(...hits) / episodes,
    meanPermutations: permutations / episodes,
    zeroWidth,
    efficiencyGap,
  };
}

/** Markdown table of {@link monteCarloCoverage}. */
export function formatCoverage(rows: readonly CoverageRow[]): string {
  const truth = (values: readonly number[]): string =>
    values.length > 10
      ? `${values
          .slice(0, 3)
          .map((v) => v.toFixed(4))
          .join(', ')}, …, ${values[values.length - 1]?.toFixed(4)}`
      : values.map((v) => v.toFixed(4)).join(', ');
  return [
    `Monte-Carlo Shapley 95% interval coverage, engine path with default settings (${rows[0]?.episodes ?? 0} seeded episodes per game):`,
    '',
    '| game | n | true values | coverage | worst agent | mean permutations | zero-width intervals | max efficiency gap |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.game} | ${r.n} | ${truth(r.truth)} | ${(r.coverage * 100).toFixed(1)}% | ${(r.worstAgentCoverage * 100).toFixed(1)}% | ${r.meanPermutations.toFixed(1)} | ${r.zeroWidth} | ${r.efficiencyGap.toExponential(1)} |`,
    ),
  ].join('\n');
}
