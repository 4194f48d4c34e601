import type { CompactEpisode } from '../core/indexing';
import { naturalSortKey, naturalSortKeyOf } from '../core/naturalSortKey';
import type { AgentIds } from './agentIds';
import type { Db, Statement } from './database';
import { MultiInsert } from './multiInsert';
import type { RunTotals } from './runTotals';

/**
 * Inserts one episode and everything hanging off it (roster with activity, routing, logged
 * counterfactuals and coalition values, labels), and counts it in the run's totals (written by the
 * caller's {@link RunTotals.flush}). Runs inside the caller's transaction, which calls
 * {@link EpisodeWriter.flush} before it ends (roster, counterfactual and influence rows, and the
 * ids of episodes inserted unsearched, are queued).
 */
export class EpisodeWriter {
  private readonly episodeStmt: Statement;
  private readonly rosterRows: MultiInsert;
  private readonly routingStmt: Statement;
  private readonly counterfactualRows: MultiInsert;
  private readonly coalitionStmt: Statement;
  private readonly labelStmt: Statement;
  private readonly influenceRows: MultiInsert;
  /** Episodes inserted without their search documents (migration 0022), for the search stage or the side index. */
  private readonly unsearchedRows: MultiInsert;

  constructor(
    db: Db,
    private readonly agents: AgentIds,
    private readonly totals: RunTotals,
  ) {
    this.episodeStmt = db.prepare(`
      INSERT INTO episode (run_id, source_id, line, byte_offset, byte_length, external_id, task_id, group_id, sample_idx,
        train_step, split, ground_truth, outcome, final_answer, final_agent_id, n_messages, n_tokens, messages_json, metadata_json, content_hash,
        external_key, group_key)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (run_id, external_id) DO NOTHING`);
    this.rosterRows = new MultiInsert(db, 'episode_agent', rosterColumns, queuedRows);
    this.routingStmt = db.prepare(
      'INSERT INTO routing (episode_id, selected_agent_id, probs_json, behaviour_probs_json) VALUES (?, ?, ?, ?)',
    );
    this.counterfactualRows = new MultiInsert(db, 'counterfactual', counterfactualColumns, queuedRows);
    this.coalitionStmt = db.prepare(
      "INSERT INTO coalition_value (episode_id, source, values_json, counts_json) VALUES (?, 'logged', ?, ?)",
    );
    this.labelStmt = db.prepare(
      'INSERT INTO label (episode_id, agent_id, message_seq, kind, value, reason, annotator) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.influenceRows = new MultiInsert(db, 'episode_influence', ['episode_id', 'edges_json'], queuedRows);
    this.unsearchedRows = new MultiInsert(db, 'episode_unsearched', ['episode_id'], queuedRows);
  }

  /**
   * Inserts the episode; returns its id, or undefined when the run already has an episode with that
   * id. Every agent reference (final answer, rewards, advantages, routing, counterfactuals,
   * coalitions, labels) is resolved within the episode's roster, never by creating an agent: the
   * parser has already left out, with a warning, what names an agent outside it
   * (ingest/canonical/agentReferences.ts); what still does here is skipped. `searchable`: the
   * caller writes the episode's full-text rows in the same transaction.
   */
  insert(runId: number, sourceId: number, e: CompactEpisode, searchable = false): number | undefined {
    // Roster first, so agent ids follow the declared order.
    const rosterIds = e.roster.map((agent, i) =>
      i < e.declaredCount ? this.agents.declare(runId, agent) : this.agents.idOf(runId, agent.name),
    );
    const roster = new Map<string, number>();
    e.roster.forEach((agent, i) => roster.set(agent.name, rosterIds[i] as number));
    const finalAgent = e.finalAgent !== null ? (roster.get(e.finalAgent) ?? null) : null;
    const result = this.episodeStmt.run(
      runId,
      sourceId,
      e.line,
      e.offset,
      e.length,
      e.id,
      e.task,
      e.group,
      e.sample,
      e.step,
      e.split,
      e.groundTruth,
      e.reward,
      e.finalAnswer,
      finalAgent,
      e.nMessages,
      e.nTokens,
      e.messagesJson,
      e.metadataJson,
      e.contentHash ?? null,
      naturalSortKey(e.id),
      naturalSortKeyOf(e.group),
    );
    if (result.changes === 0) return undefined;
    const episodeId = Number(result.lastInsertRowid);
    if (!searchable) this.unsearchedRows.add(episodeId);
    this.totals.addEpisode(runId, sourceId, e.nMessages, e.reward);
    this.insertRoster(episodeId, e, rosterIds, roster);
    this.insertRouting(episodeId, e, roster);
    this.insertInterventions(episodeId, e, roster);
    this.insertLabels(episodeId, e, roster);
    this.insertConnections(episodeId, e, roster);
    return episodeId;
  }

  /**
   * Writes the roster, counterfactual, influence and unsearched-id rows queued since the last flush (they go in chunks of
   * {@link queuedRows} across episodes). Must run in the inserting transaction, before anything
   * reads them (the views' aggregates).
   */
  flush(): void {
    this.rosterRows.flush();
    this.counterfactualRows.flush();
    this.influenceRows.flush();
    this.unsearchedRows.flush();
  }

  /** Forgets the queued rows (their transaction was rolled back). */
  discard(): void {
    this.rosterRows.discard();
    this.counterfactualRows.discard();
    this.influenceRows.discard();
    this.unsearchedRows.discard();
  }

  /** One roster row per agent that is declared or speaks, with its logged reward and advantage. */
  private insertRoster(episodeId: number, e: CompactEpisode, rosterIds: readonly number[], roster: Roster): void {
    const rewards = byAgentId(e.extras.agentRewards, roster);
    const advantages = byAgentId(e.extras.advantages, roster);
    const seen = new Set<number>();
    rosterIds.forEach((agentId, ordinal) => {
      if (seen.has(agentId)) return; // a name declared twice keeps its first ordinal
      seen.add(agentId);
      const [messages, tokens, chars] = e.activity[ordinal] ?? [0, null, 0];
      const declared = ordinal < e.declaredCount ? 1 : 0;
      this.totals.addRosterRow(agentId, messages);
      const reward = rewards.get(agentId) ?? null;
      const advantage = advantages.get(agentId) ?? null;
      this.rosterRows.add(episodeId, agentId, ordinal, declared, messages, tokens, chars, reward, advantage);
    });
  }

  private insertRouting(episodeId: number, e: CompactEpisode, roster: Roster): void {
    const routing = e.extras.routing;
    if (!routing) return;
    const selected = roster.get(routing.selected);
    const names = [...Object.keys(routing.probs), ...Object.keys(routing.behaviourProbs ?? {})];
    if (selected === undefined || !names.every((name) => roster.has(name))) return;
    const behaviour = routing.behaviourProbs ? JSON.stringify(routing.behaviourProbs) : null;
    this.routingStmt.run(episodeId, selected, JSON.stringify(routing.probs), behaviour);
  }

  private insertInterventions(episodeId: number, e: CompactEpisode, roster: Roster): void {
    for (const cf of e.extras.counterfactuals ?? []) {
      const key = coalitionKey(cf.agents, roster);
      if (key === undefined) continue;
      const replayed = cf.replayed === undefined ? null : cf.replayed ? 1 : 0;
      const returns = cf.rewards ? JSON.stringify(cf.rewards) : null;
      this.counterfactualRows.add(
        episodeId,
        key,
        cf.intervention,
        cf.replacement ?? null,
        replayed,
        cf.rewards?.length ?? 1,
        returns,
        cf.reward,
        cf.evaluator ?? null,
        'logged',
      );
    }
    const values: Record<string, number> = {};
    const counts: Record<string, number> = {};
    for (const c of e.extras.coalitions ?? []) {
      const key = coalitionKey(c.agents, roster);
      if (key === undefined) continue;
      values[key] = c.value;
      if (c.n !== undefined) counts[key] = c.n;
    }
    if (Object.keys(values).length === 0) return;
    this.coalitionStmt.run(
      episodeId,
      JSON.stringify(values),
      Object.keys(counts).length > 0 ? JSON.stringify(counts) : null,
    );
  }

  private insertLabels(episodeId: number, e: CompactEpisode, roster: Roster): void {
    for (const l of e.extras.labels ?? []) {
      const agentId = l.agent !== undefined ? (roster.get(l.agent) ?? null) : null;
      this.labelStmt.run(
        episodeId,
        agentId,
        l.message ?? null,
        l.kind,
        l.value ?? null,
        l.reason ?? null,
        l.annotator ?? null,
      );
    }
  }

  /**
   * The messages' logged connections (AgentChord/GBC-style weights) as `logged` influence edges,
   * one row per episode (migration 0021: `[src, dst, src_seq, dst_seq, kind, weight, provenance]`).
   */
  private insertConnections(episodeId: number, e: CompactEpisode, roster: Roster): void {
    const edges: (string | number | null)[][] = [];
    for (const c of e.extras.connections ?? []) {
      const from = roster.get(c.fromAgent);
      const to = roster.get(c.toAgent);
      if (from === undefined || to === undefined) continue;
      edges.push([from, to, c.fromSeq, c.toSeq, 'logged', c.weight, `messages[${String(c.toSeq)}].weights`]);
    }
    if (edges.length > 0) this.influenceRows.add(episodeId, JSON.stringify(edges));
  }
}

/** Rows per statement of the queued tables (at most 10 columns: 640 parameters). */
const queuedRows = 64;

const rosterColumns = [
  'episode_id',
  'agent_id',
  'ordinal',
  'declared',
  'n_messages',
  'n_tokens',
  'n_chars',
  'reward',
  'advantage',
];

const counterfactualColumns = [
  'episode_id',
  'agents',
  'intervention',
  'replacement',
  'replayed',
  'n',
  'returns_json',
  'value',
  'evaluator',
  'source',
];

/** Agent ids of an episode's roster by name. */
type Roster = ReadonlyMap<string, number>;

function byAgentId(values: Readonly<Record<string, number>> | undefined, roster: Roster): Map<number, number> {
  const map = new Map<number, number>();
  for (const [name, value] of Object.entries(values ?? {})) {
    const agentId = roster.get(name);
    if (agentId !== undefined) map.set(agentId, value);
  }
  return map;
}

/** Agent ids of a coalition, sorted numerically and comma-joined (`''` is the empty coalition); undefined when one is outside the roster. */
function coalitionKey(names: readonly string[], roster: Roster): string | undefined {
  const ids = new Set<number>();
  for (const name of names) {
    const id = roster.get(name);
    if (id === undefined) return undefined;
    ids.add(id);
  }
  return [...ids].sort((a, b) => a - b).join(',');
}
