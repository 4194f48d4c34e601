import type { CreditStatus, ValueSource } from '../../core/provenance';
import { joinSources, splitSources, weakerStatus } from '../../core/provenance';
import type { AgentComparison, ExamplePair, PairedDifference } from '../../core/runComparison';
import { pairedDifference, pairedRatioDifference } from '../../credit/stats/pairedTest';
import type { CompareCredit } from '../../store/compareRepository';
import type { EpisodePair } from './pairEpisodes';

/** A side's stored credit by episode id, then agent name. */
export type SideCredit = ReadonlyMap<number, ReadonlyMap<string, CompareCredit>>;

/** The stored credit rows of a side grouped by episode and agent. */
export function creditByEpisode(rows: readonly CompareCredit[]): Map<number, Map<string, CompareCredit>> {
  const byEpisode = new Map<number, Map<string, CompareCredit>>();
  for (const row of rows) {
    const episode = byEpisode.get(row.episodeId) ?? new Map<string, CompareCredit>();
    episode.set(row.agent, row);
    byEpisode.set(row.episodeId, episode);
  }
  return byEpisode;
}

/** Examples kept per agent (largest |ΔCredit| first). */
export const examplesPerAgent = 3;

/**
 * Per agent (every agent with stored credit on a side, in order of first sight, A first): the
 * paired credit difference `B − A`, each side's share of the positive credit and the share
 * difference with its interval (credit-methods.md §5.5), the weaker status and the sources of the
 * rows used. `missing` names the side without a value; the caller adds what would answer it.
 */
export function agentComparisons(pairs: readonly EpisodePair[], a: SideCredit, b: SideCredit): AgentComparison[] {
  return agentNames(pairs, a, b).map((agent) => {
    const sideA = sideValues(pairs, (p) => a.get(p.a.episodeId), agent);
    const sideB = sideValues(pairs, (p) => b.get(p.b.episodeId), agent);
    const share = pairedRatioDifference(
      { y: sideA.positive, x: sideA.teamPositive },
      { y: sideB.positive, x: sideB.teamPositive },
    );
    const missing = [sideA.status === undefined ? 'A' : '', sideB.status === undefined ? 'B' : ''].filter(Boolean);
    return {
      agent,
      credit: pairedDifference(sideA.values, sideB.values),
      // Each side's share over its own pairs with a value (the same pairs as `share` when both sides have them).
      shareA: sideShare(sideA),
      shareB: sideShare(sideB),
      statusA: sideA.status ?? 'not-identifiable',
      statusB: sideB.status ?? 'not-identifiable',
      ...(missing.length > 0 ? { missing: `no stored credit for ${agent} on ${missing.join(' and ')}` } : {}),
      share,
      sourceA: sideA.sources,
      sourceB: sideB.sources,
    };
  });
}

/** Up to {@link examplesPerAgent} pairs per agent with the largest |credit B − credit A|, largest first. */
export function examplePairs(pairs: readonly EpisodePair[], a: SideCredit, b: SideCredit): ExamplePair[] {
  return agentNames(pairs, a, b).flatMap((agent) =>
    pairs
      .flatMap((p): ExamplePair[] => {
        const creditA = a.get(p.a.episodeId)?.get(agent)?.value;
        const creditB = b.get(p.b.episodeId)?.get(agent)?.value;
        if (creditA === undefined || creditB === undefined) return [];
        return [{ key: p.key, episodeA: p.a.externalId, episodeB: p.b.externalId, agent, creditA, creditB }];
      })
      .sort((x, y) => Math.abs(y.creditB - y.creditA) - Math.abs(x.creditB - x.creditA))
      .slice(0, examplesPerAgent),
  );
}

/** The team reward of each pair, paired `B − A` (an episode that logs none is skipped). */
export function rewardDifference(pairs: readonly EpisodePair[]): PairedDifference {
  return pairedDifference(
    pairs.map((p) => p.a.reward ?? NaN),
    pairs.map((p) => p.b.reward ?? NaN),
  );
}

interface SideValues {
  /** Per pair: the agent's credit, NaN when its episode has none for the agent. */
  readonly values: Float64Array;
  /** Per pair: max(0, credit) and the team's summed positive credit (NaN when the episode has no credit). */
  readonly positive: Float64Array;
  readonly teamPositive: Float64Array;
  /** The weaker status of the rows used; undefined when no pair has a value for the agent. */
  readonly status: CreditStatus | undefined;
  readonly sources: string;
}

function sideValues(
  pairs: readonly EpisodePair[],
  creditOf: (p: EpisodePair) => ReadonlyMap<string, CompareCredit> | undefined,
  agent: string,
): SideValues {
  const values = new Float64Array(pairs.length).fill(NaN);
  const positive = new Float64Array(pairs.length).fill(NaN);
  const teamPositive = new Float64Array(pairs.length).fill(NaN);
  let status: CreditStatus | undefined;
  const sources = new Set<ValueSource>();
  pairs.forEach((p, k) => {
    const episode = creditOf(p);
    const row = episode?.get(agent);
    if (!episode || !row) return;
    values[k] = row.value;
    positive[k] = Math.max(0, row.value);
    teamPositive[k] = [...episode.values()].reduce((sum, c) => sum + Math.max(0, c.value), 0);
    status = weakerStatus(status ?? 'exact', asStatus(row.status));
    for (const source of splitSources(row.source)) sources.add(source);
  });
  return { values, positive, teamPositive, status, sources: joinSources(sources) };
}

/** `Σ max(0, c) / Σ team positive credit` over the pairs where the side has a value; NaN when that total is not positive. */
function sideShare(side: SideValues): number {
  let own = 0;
  let team = 0;
  side.positive.forEach((y, k) => {
    const x = side.teamPositive[k] ?? NaN;
    if (Number.isNaN(y) || Number.isNaN(x)) return;
    own += y;
    team += x;
  });
  return team > 0 ? own / team : NaN;
}

function asStatus(stored: string): CreditStatus {
  return stored === 'estimated' || stored === 'approximate' || stored === 'exact' ? stored : 'not-identifiable';
}

function agentNames(pairs: readonly EpisodePair[], a: SideCredit, b: SideCredit): string[] {
  const names = new Set<string>();
  for (const p of pairs) for (const agent of a.get(p.a.episodeId)?.keys() ?? []) names.add(agent);
  for (const p of pairs) for (const agent of b.get(p.b.episodeId)?.keys() ?? []) names.add(agent);
  return [...names];
}
