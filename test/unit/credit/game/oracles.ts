// The agent-level oracles of credit-methods.md §8 (E1, E2, E3, E4, E14), written once for every test file.
import type { CoalitionTable } from '../../../../src/credit/game/coalitionGame';
import { namedGame } from './games';

export interface AgentOracle {
  readonly name: string;
  readonly players: string;
  readonly game: CoalitionTable;
  readonly shapley: readonly number[];
  readonly loo: readonly number[];
  /** Shapley interaction indices by pair name, when the doc gives them. */
  readonly interactions?: Readonly<Record<string, number>>;
}

function oracle(
  name: string,
  players: string,
  named: Record<string, number>,
  expected: Omit<AgentOracle, 'name' | 'players' | 'game'>,
): AgentOracle {
  return { name, players, game: namedGame(players, named), ...expected };
}

/** E1: Planner P, Solver S, Verifier V. */
export const e1 = oracle(
  'E1 planner/solver/verifier',
  'PSV',
  { S: 1 / 5, PS: 3 / 5, SV: 2 / 5, PSV: 1 },
  {
    shapley: [4 / 15, 17 / 30, 1 / 6],
    loo: [3 / 5, 1, 2 / 5],
    interactions: { PS: 1 / 2, PV: 1 / 10, SV: 3 / 10 },
  },
);

export const agentOracles: readonly AgentOracle[] = [
  e1,
  oracle('E2 idle partner (two agents)', 'SP', { S: 1, SP: 1 }, { shapley: [1, 0], loo: [1, 0] }),
  oracle(
    'E2 idle partner (three agents, C null)',
    'ABC',
    { AB: 1, ABC: 1 },
    { shapley: [1 / 2, 1 / 2, 0], loo: [1, 1, 0] },
  ),
  oracle('E3 AND (complements)', 'AB', { AB: 1 }, { shapley: [1 / 2, 1 / 2], loo: [1, 1], interactions: { AB: 1 } }),
  oracle(
    'E3 OR (substitutes)',
    'AB',
    { A: 1, B: 1, AB: 1 },
    { shapley: [1 / 2, 1 / 2], loo: [0, 0], interactions: { AB: -1 } },
  ),
  oracle(
    'E4 majority vote, ties to the earliest agent',
    '123',
    { 1: 1, 2: 1, 12: 1, 13: 1, 23: 1, 123: 1 },
    {
      shapley: [1 / 2, 1 / 2, 0],
      loo: [0, 0, 0],
    },
  ),
  oracle(
    'E4 majority vote, ties give no answer',
    '123',
    { 1: 1, 2: 1, 12: 1, 123: 1 },
    { shapley: [2 / 3, 2 / 3, -1 / 3], loo: [1, 1, 0] },
  ),
  oracle('E14 system A (agent 1 solves alone)', '12', { 1: 1, 12: 1 }, { shapley: [1, 0], loo: [1, 0] }),
  oracle('E14 system B (both halves necessary)', '12', { 12: 1 }, { shapley: [1 / 2, 1 / 2], loo: [1, 1] }),
];

/** E10: plan messages a1, a2 (agent A, duplicates), computation b1 and restatement b2 (agent B). */
export const e10Value = (mask: number): number => {
  const plan = (mask & 0b0011) !== 0;
  const computation = (mask & 0b0100) !== 0;
  if (computation) return plan ? 1 : 1 / 5;
  return 0;
};
export const e10Unions = [
  [0, 1],
  [2, 3],
];

/** E10 non-discriminating variant: messages a1, a2 (agent A) and b1 (agent B). */
export const e10Variant = namedGame('xyb', { b: 1 / 5, xy: 1 / 10, xb: 3 / 5, yb: 1 / 2, xyb: 1 });
export const e10VariantUnions = [[0, 1], [2]];

/** E11: prefix values of a failed episode; authors A (0) wrote m1, m3 and B (1) wrote m2, m4. */
export const e11PrefixValues = [0.4, 0.6, 0.3, 0.5, 0];
export const e11Authors = [0, 1, 0, 1];
