import type { CompactEpisode } from '../core/indexing';
import type { AgentIds } from './agentIds';
import type { BindValue, Db, Statement } from './database';
import { MultiInsert } from './multiInsert';

/**
 * Inserts one episode and everything hanging off it (roster with activity, routing, logged
 * counterfactuals and coalition values, labels). Runs inside the caller's transaction.
 */
export class EpisodeWriter {
  private readonly episodeStmt: Statement;
  private readonly rosterRows: MultiInsert;
  private readonly routingStmt: Statement;
  private readonly counterfactualStmt: Statement;
  private readonly coalitionStmt: Statement;
  private readonly labelStmt: Statement;

  constructor(
    db: Db,
    private readonly agents: AgentIds,
  ) {
    this.episodeStmt = db.prepare(`
      INSERT INTO episode (run_id, source_id, line, byte_offset, byte_length, external_id, task_id, group_id, sample_idx,
        train_step, split, ground_truth, outcome, final_answer, final_agent_id, n_messages, n_tokens, messages_json, metadata_json, content_hash)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (run_id, external_id) DO NOTHING`);
    this.rosterRows = new MultiInsert(db, 'episode_agent', ['episode_id', 'agent_id', 'ordinal', 'declared', 'n_messages', 'n_tokens', 'n_chars', 'reward', 'advantage']);
    this.routingStmt = db.prepare('INSERT INTO routing (episode_id, selected_agent_id, probs_json, behaviour_probs_json) VALUES (?, ?, ?, ?)');
    this.counterfactualStmt = db.prepare(`
      INSERT INTO counterfactual (episode_id, agents, intervention, replacement, replayed, n, returns_json, value, evaluator, source)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'logged')`);
    this.coalitionStmt = db.prepare("INSERT INTO coalition_value (episode_id, source, values_json, counts_json) VALUES (?, 'logged', ?, ?)");
    this.labelStmt = db.prepare('INSERT INTO label (episode_id, agent_id, message_seq, kind, value, reason, annotator) VALUES (?, ?, ?, ?, ?, ?, ?)');
  }

  /** Inserts the episode; returns its id, or undefined when the run already has an episode with that id. */
  insert(runId: number, sourceId: number, e: CompactEpisode): number | undefined {
    // Roster first, so agent ids follow the declared order.
    const rosterIds = e.roster.map((agent, i) => (i < e.declaredCount ? this.agents.declare(runId, agent) : this.agents.idOf(runId, agent.name)));
    const finalAgent = e.finalAgent !== null ? this.agents.idOf(runId, e.finalAgent) : null;
    const result = this.episodeStmt.run(
      runId, sourceId, e.line, e.offset, e.length, e.id, e.task, e.group, e.sample, e.step, e.split, e.groundTruth, e.reward,
      e.finalAnswer, finalAgent, e.nMessages, e.nTokens, e.messagesJson, e.metadataJson, e.contentHash ?? null,
    );
    if (result.changes === 0) return undefined;
    const episodeId = Number(result.lastInsertRowid);
    this.insertRoster(runId, episodeId, e, rosterIds);
    this.insertRouting(runId, episodeId, e);
    this.insertInterventions(runId, episodeId, e);
    this.insertLabels(runId, episodeId, e);
    return episodeId;
  }

  /** One roster row per agent that is declared, speaks, or has a logged reward or advantage. */
  private insertRoster(runId: number, episodeId: number, e: CompactEpisode, rosterIds: readonly number[]): void {
    const rewards = this.byAgentId(runId, e.extras.agentRewards);
    const advantages = this.byAgentId(runId, e.extras.advantages);
    const values: BindValue[] = [];
    const seen = new Set<number>();
    rosterIds.forEach((agentId, ordinal) => {
      if (seen.has(agentId)) return; // a name declared twice keeps its first ordinal
      seen.add(agentId);
      const [messages, tokens, chars] = e.activity[ordinal] ?? [0, null, 0];
      const declared = ordinal < e.declaredCount ? 1 : 0;
      values.push(episodeId, agentId, ordinal, declared, messages, tokens, chars, rewards.get(agentId) ?? null, advantages.get(agentId) ?? null);
    });
    let ordinal = rosterIds.length;
    for (const agentId of new Set([...rewards.keys(), ...advantages.keys()])) {
      if (seen.has(agentId)) continue;
      values.push(episodeId, agentId, ordinal++, 0, 0, null, 0, rewards.get(agentId) ?? null, advantages.get(agentId) ?? null);
    }
    if (values.length > 0) this.rosterRows.run(values, values.length / 9);
  }

  private byAgentId(runId: number, values: Readonly<Record<string, number>> | undefined): Map<number, number> {
    const map = new Map<number, number>();
    if (values) for (const [name, value] of Object.entries(values)) map.set(this.agents.idOf(runId, name), value);
    return map;
  }

  private insertRouting(runId: number, episodeId: number, e: CompactEpisode): void {
    const routing = e.extras.routing;
    if (!routing) return;
    for (const name of Object.keys(routing.probs)) this.agents.idOf(runId, name);
    const behaviour = routing.behaviourProbs ? JSON.stringify(routing.behaviourProbs) : null;
    this.routingStmt.run(episodeId, this.agents.idOf(runId, routing.selected), JSON.stringify(routing.probs), behaviour);
  }

  private insertInterventions(runId: number, episodeId: number, e: CompactEpisode): void {
    for (const cf of e.extras.counterfactuals ?? []) {
      const replayed = cf.replayed === undefined ? null : cf.replayed ? 1 : 0;
      const returns = cf.rewards ? JSON.stringify(cf.rewards) : null;
      this.counterfactualStmt.run(
        episodeId, this.coalitionKey(runId, cf.agents), cf.intervention, cf.replacement ?? null, replayed, cf.rewards?.length ?? 1, returns, cf.reward, cf.evaluator ?? null,
      );
    }
    const coalitions = e.extras.coalitions;
    if (!coalitions || coalitions.length === 0) return;
    const values: Record<string, number> = {};
    const counts: Record<string, number> = {};
    for (const c of coalitions) {
      const key = this.coalitionKey(runId, c.agents);
      values[key] = c.value;
      if (c.n !== undefined) counts[key] = c.n;
    }
    this.coalitionStmt.run(episodeId, JSON.stringify(values), Object.keys(counts).length > 0 ? JSON.stringify(counts) : null);
  }

  private insertLabels(runId: number, episodeId: number, e: CompactEpisode): void {
    for (const l of e.extras.labels ?? []) {
      const agentId = l.agent !== undefined ? this.agents.idOf(runId, l.agent) : null;
      this.labelStmt.run(episodeId, agentId, l.message ?? null, l.kind, l.value ?? null, l.reason ?? null, l.annotator ?? null);
    }
  }

  /** Agent ids of a coalition, sorted numerically and comma-joined (`''` is the empty coalition). */
  private coalitionKey(runId: number, names: readonly string[]): string {
    const ids = [...new Set(names.map((name) => this.agents.idOf(runId, name)))];
    return ids.sort((a, b) => a - b).join(',');
  }
}
