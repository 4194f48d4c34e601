import type { PairingKey, PairingSummary } from '../../core/runComparison';
import type { CompareEpisode } from '../../store/compareRepository';

/** Two episodes, one per side, sharing a pairing key. */
export interface EpisodePair {
  readonly key: string;
  readonly a: CompareEpisode;
  readonly b: CompareEpisode;
}

/** An episode with its pairing key on the chosen key kind (undefined: the episode has none). */
export type KeyOf = (e: CompareEpisode) => string | undefined;

/** The pairs and the summary of how the two sides were paired. */
export interface Pairing {
  readonly pairs: readonly EpisodePair[];
  readonly summary: PairingSummary;
}

/**
 * Pairs the episodes of two sides on one key (credit-methods.md §5.5). A key held once on each side
 * is a pair; a key held several times on a side (GRPO rollouts of one prompt) is ambiguous: its
 * episodes are paired by (rank of their GRPO group within the key, rollout index) when every one of
 * them logs both, else in id order; whatever finds no partner is unpaired. An episode without a key
 * is unpaired. Every unpaired episode is counted, never used. `keyOfB` (default `keyOfA`) reads side
 * B's keys: episode ids of two indexes are not comparable.
 */
export function pairEpisodes(
  a: readonly CompareEpisode[],
  b: readonly CompareEpisode[],
  key: PairingKey,
  keyOfA: KeyOf,
  keyOfB: KeyOf = keyOfA,
): Pairing {
  const byKeyA = groupByKey(a, keyOfA);
  const byKeyB = groupByKey(b, keyOfB);
  const pairs: EpisodePair[] = [];
  let ambiguousKeys = 0;
  for (const [k, episodesA] of byKeyA) {
    const episodesB = byKeyB.get(k);
    if (!episodesB) continue;
    if (episodesA.length > 1 || episodesB.length > 1) ambiguousKeys++;
    for (const [x, y] of pairWithinKey(episodesA, episodesB)) pairs.push({ key: k, a: x, b: y });
  }
  return {
    pairs,
    summary: {
      key: pairs.length === 0 ? 'none' : key,
      pairs: pairs.length,
      episodesA: a.length,
      episodesB: b.length,
      unpairedA: a.length - pairs.length,
      unpairedB: b.length - pairs.length,
      ambiguousKeys,
    },
  };
}

/** How many keys the two sides share (to choose between task and prompt pairing). */
export function sharedKeys(
  a: readonly CompareEpisode[],
  b: readonly CompareEpisode[],
  keyOfA: KeyOf,
  keyOfB: KeyOf = keyOfA,
): number {
  const keysA = new Set(a.map(keyOfA));
  return new Set(b.map(keyOfB).filter((k) => k !== undefined && keysA.has(k))).size;
}

function groupByKey(episodes: readonly CompareEpisode[], keyOf: KeyOf): Map<string, CompareEpisode[]> {
  const byKey = new Map<string, CompareEpisode[]>();
  for (const e of episodes) {
    const k = keyOf(e);
    if (k === undefined) continue;
    const list = byKey.get(k);
    if (list) list.push(e);
    else byKey.set(k, [e]);
  }
  return byKey;
}

function pairWithinKey(a: CompareEpisode[], b: CompareEpisode[]): [CompareEpisode, CompareEpisode][] {
  if (a.length === 1 && b.length === 1) return [[a[0] as CompareEpisode, b[0] as CompareEpisode]];
  if (a.every(hasRollout) && b.every(hasRollout)) {
    const slotsB = new Map(rolloutSlots(b).map(([slot, e]) => [slot, e]));
    return rolloutSlots(a).flatMap(([slot, e]): [CompareEpisode, CompareEpisode][] => {
      const partner = slotsB.get(slot);
      return partner ? [[e, partner]] : [];
    });
  }
  // In id order: the order the trainer logged them.
  return a.slice(0, b.length).map((e, i) => [e, b[i] as CompareEpisode]);
}

const hasRollout = (e: CompareEpisode): boolean => e.group !== null && e.sample !== null;

/** Each episode's slot `<rank of its group among the key's groups>/<rollout index>`; a repeated slot keeps its first episode. */
function rolloutSlots(episodes: CompareEpisode[]): [string, CompareEpisode][] {
  const groupRank = new Map<string, number>();
  const slots = new Map<string, CompareEpisode>();
  for (const e of episodes) {
    const group = e.group ?? '';
    if (!groupRank.has(group)) groupRank.set(group, groupRank.size);
    const slot = `${String(groupRank.get(group))}/${String(e.sample)}`;
    if (!slots.has(slot)) slots.set(slot, e);
  }
  return [...slots];
}
