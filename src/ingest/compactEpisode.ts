import type { AgentDecl, Episode } from '../core/episode';
import type { CompactEpisode, MessageConnection } from '../core/indexing';
import type { TextPacker } from '../core/packedTexts';

/** Where an episode's line sits in its file. */
export interface LineLocation {
  readonly line: number;
  readonly offset: number;
  readonly length: number;
}

type Activity = [number, number | null, number];

/**
 * Remembers the agent details already handed to the writer in this pass, so a roster repeated on
 * every line (kind, policy, description) crosses the thread boundary once; later copies carry only
 * the name, which the writer treats as "no new detail".
 */
export class RosterDetails {
  private readonly sent = new Map<string, string>();

  /** The declaration to send: the full one the first time its details are seen, else the bare name. */
  reduce(agent: AgentDecl): AgentDecl {
    if (
      agent.kind === 'llm' &&
      agent.policy === undefined &&
      agent.trainable === undefined &&
      agent.description === undefined
    )
      return agent;
    const signature = `${agent.kind}\u0000${agent.policy ?? ''}\u0000${agent.trainable ?? ''}\u0000${agent.description ?? ''}`;
    if (this.sent.get(agent.name) === signature) return { name: agent.name, kind: 'llm' };
    this.sent.set(agent.name, signature);
    return agent;
  }
}

/**
 * Reduces a decoded episode to what the index stores (see {@link CompactEpisode}): the roster
 * (declared agents, then undeclared speakers in order of first message), per-agent activity,
 * and the per-message data packed as JSON rows keyed by roster ordinal. With `texts`, the
 * episode's search document is appended to it once the episode is built (the full-text index's
 * row, handed to the writer beside the batch so the files are not read twice).
 */
export function compactEpisode(
  e: Episode,
  at: LineLocation,
  details?: RosterDetails,
  texts?: TextPacker,
): CompactEpisode {
  const roster: AgentDecl[] = [];
  const ordinals = new Map<string, number>();
  for (const agent of e.agents) {
    if (ordinals.has(agent.name)) continue; // a name declared twice keeps its first entry
    ordinals.set(agent.name, roster.length);
    roster.push(details ? details.reduce(agent) : agent);
  }
  const declaredCount = roster.length;
  const activity: Activity[] = roster.map(() => [0, null, 0]);
  const packed: unknown[] = [];
  let nTokens: number | null = null;
  for (const m of e.messages) {
    let ordinal = ordinals.get(m.agent);
    if (ordinal === undefined) {
      ordinal = roster.length;
      ordinals.set(m.agent, ordinal);
      roster.push({ name: m.agent, kind: 'llm' });
      activity.push([0, null, 0]);
    }
    const a = activity[ordinal] as Activity;
    a[0]++;
    a[2] += m.content.length;
    if (m.tokenCount !== undefined) {
      a[1] = (a[1] ?? 0) + m.tokenCount;
      nTokens = (nTokens ?? 0) + m.tokenCount;
    }
    const hasTokens = m.tokens !== undefined || m.logprobs !== undefined || m.attribution !== undefined ? 1 : 0;
    packed.push([
      ordinal,
      m.turn ?? null,
      m.role ?? null,
      m.channel ?? null,
      m.content.length,
      m.tokenCount ?? null,
      hasTokens,
    ]);
  }
  const compact: CompactEpisode = {
    line: at.line,
    offset: at.offset,
    length: at.length,
    id: e.id,
    step: e.step ?? null,
    group: e.group ?? null,
    sample: e.sample ?? null,
    task: e.task ?? null,
    split: e.split ?? null,
    groundTruth: e.groundTruth ?? null,
    reward: e.reward ?? null,
    finalAnswer: e.final?.answer ?? null,
    finalAgent: e.final?.agent ?? null,
    roster,
    declaredCount,
    activity,
    nMessages: e.messages.length,
    nTokens,
    messagesJson: JSON.stringify(packed),
    metadataJson: e.metadata ? JSON.stringify(e.metadata) : null,
    extras: extrasOf(e),
  };
  texts?.pushDocument(e.messages.map((m) => m.content));
  return compact;
}

function extrasOf(e: Episode): CompactEpisode['extras'] {
  const extras: { -readonly [K in keyof CompactEpisode['extras']]: CompactEpisode['extras'][K] } = {};
  if (e.agentRewards) extras.agentRewards = e.agentRewards;
  if (e.advantages) extras.advantages = e.advantages;
  if (e.routing) extras.routing = e.routing;
  if (e.counterfactuals) extras.counterfactuals = e.counterfactuals;
  if (e.coalitions) extras.coalitions = e.coalitions;
  if (e.labels) extras.labels = e.labels;
  const connections = connectionsOf(e);
  if (connections.length > 0) extras.connections = connections;
  return extras;
}

/** The messages' logged `connections` as edges between authored messages (the decoder checked them). */
function connectionsOf(e: Episode): MessageConnection[] {
  const edges: MessageConnection[] = [];
  e.messages.forEach((m, toSeq) => {
    m.connections?.forEach((fromSeq, k) => {
      const from = e.messages[fromSeq];
      const weight = m.weights?.[k];
      if (from === undefined || weight === undefined) return;
      edges.push({ fromSeq, fromAgent: from.agent, toSeq, toAgent: m.agent, weight });
    });
  });
  return edges;
}
