import type { CreditEpisode } from '../../core/creditInput';
import { plural } from '../../core/plural';
import type { InfluenceEdgeView } from '../../protocol/influence';

// Replayed influence (credit-methods.md §3.17) is kept in the index's evaluation cache, under the
// replay evaluator's fingerprint, with these intervention keys (values already differences or distances).

/** `v(M) − v(M ∖ {m})` of message `seq`, replayed. */
export const messageEffectKey = (seq: number): string => `message-effect@1:${String(seq)}`;
/** Mean token-set distance of agent `to`'s replayed output without agent `from` (agent ids). */
export const outputKey = (from: number, to: number): string => `output@1:${String(from)}:${String(to)}`;
/** Share of replays in which agent `to`'s final answer changed without agent `from`. */
export const answerKey = (from: number, to: number): string => `answer@1:${String(from)}:${String(to)}`;

/** True for the keys above (what the Episode view reads back). */
export function isReplayedInfluenceKey(key: string): boolean {
  return /^(message-effect|output|answer)@1:/.test(key);
}

/** A cached value and whether this pass replayed it or found it cached (`cached`, or `cached in the index` in the views). */
export interface SourcedValue {
  readonly value: number;
  readonly source: string;
}

/** Agents whose output influence is looked at only in teams up to this size (n² edges), as for logged pairs. */
export const maxReplayedPairAgents = 32;

/**
 * The replayed edges of `episode` from the values found under the keys above: each message's effect
 * on the outcome (kind `counterfactual`, with `message`), and each (removed agent, other agent)
 * output distance (kind `replayed-output`, with `answerChanged`). Only values present become edges:
 * nothing is filled in. Exact: every value was replayed (a cached value was replayed before).
 */
export function replayedEdges(episode: CreditEpisode, values: ReadonlyMap<string, SourcedValue>): InfluenceEdgeView[] {
  const names = episode.agents.map((a) => a.name);
  const edges: InfluenceEdgeView[] = [];
  episode.messageAuthors.forEach((author, seq) => {
    const found = values.get(messageEffectKey(seq));
    if (!found) return;
    const from = names[author] ?? '';
    const formula = `v(M) − v(M∖{#${String(seq + 1)}})`;
    edges.push({
      ...base(from, null, found),
      kind: 'counterfactual',
      message: seq,
      provenance: `${formula}, ${found.source}`,
    });
  });
  if (episode.agents.length > maxReplayedPairAgents) return edges;
  for (const i of episode.agents)
    for (const j of episode.agents) {
      const distance = values.get(outputKey(i.agentId, j.agentId));
      if (i === j || !distance) continue;
      const changed = values.get(answerKey(i.agentId, j.agentId))?.value;
      const answer = changed === undefined ? '' : `; final answer changed in ${percent(changed)} of the replays`;
      edges.push({
        ...base(i.name, j.name, distance),
        kind: 'replayed-output',
        ...(changed !== undefined ? { answerChanged: changed } : {}),
        provenance: `1 − Jaccard(words of ${j.name}'s output without ${i.name}, with ${i.name}), ${distance.source}${answer}`,
      });
    }
  return edges;
}

function base(from: string, to: string | null, found: SourcedValue) {
  return { from, to, value: found.value, exact: true, connections: 0, episodes: 1 } as const;
}

function percent(share: number): string {
  return `${String(Math.round(share * 100))}%`;
}

/**
 * The message-level line of the `missing` text (§3.17): what a replay of this episode left out, or
 * how to get the edges when none were replayed. `total`: the episode's messages.
 */
export function messageEdgesGap(replayedMessages: number, total: number): string | null {
  if (total === 0 || replayedMessages >= total) return null;
  if (replayedMessages === 0)
    return 'no replayed message → outcome edges (replay with `credit-lens influence <run-dir> --episode ID --replay url=…` to compute v(M) − v(M∖{m}) for each message m)';
  return `message → outcome edges replayed for ${plural(replayedMessages, 'message')} of ${String(total)}; the others were not computed (raise --max-messages to replay them)`;
}
