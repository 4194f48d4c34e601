import type { Episode, Message } from '../core/episode';
import type { EpisodeRecord } from '../core/indexing';
import type { AgentIds } from './agentIds';
import type { Db, Statement } from './database';

interface AgentActivity {
  declared: boolean;
  messages: number;
  tokens: number | null;
  chars: number;
}

const idle = (declared: boolean): AgentActivity => ({ declared, messages: 0, tokens: null, chars: 0 });

/**
 * Inserts one episode and everything hanging off it (roster, messages, rewards, routing, logged
 * counterfactuals and coalition values, labels). Runs inside the caller's transaction.
 */
export class EpisodeWriter {
  private readonly episodeStmt: Statement;
  private readonly messageStmt: Statement;
  private readonly rosterStmt: Statement;
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
        train_step, split, ground_truth, outcome, final_answer, final_agent_id, n_messages, n_tokens, metadata_json)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (run_id, external_id) DO NOTHING`);
    this.messageStmt = db.prepare(`
      INSERT INTO message (episode_id, seq, agent_id, turn_idx, role, channel, n_chars, n_tokens, has_tokens)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.rosterStmt = db.prepare(
      'INSERT INTO episode_agent (episode_id, agent_id, declared, n_messages, n_tokens, n_chars, reward, advantage) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.routingStmt = db.prepare('INSERT INTO routing (episode_id, selected_agent_id, probs_json, behaviour_probs_json) VALUES (?, ?, ?, ?)');
    this.counterfactualStmt = db.prepare(`
      INSERT INTO counterfactual (episode_id, agents, intervention, replacement, replayed, n, returns_json, value, evaluator, source)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'logged')`);
    this.coalitionStmt = db.prepare("INSERT INTO coalition_value (episode_id, source, values_json, counts_json) VALUES (?, 'logged', ?, ?)");
    this.labelStmt = db.prepare('INSERT INTO label (episode_id, agent_id, message_id, kind, value, reason, annotator) VALUES (?, ?, ?, ?, ?, ?, ?)');
  }

  /** Inserts the episode; returns its id, or undefined when the run already has an episode with that id. */
  insert(runId: number, sourceId: number, record: EpisodeRecord): number | undefined {
    const e = record.episode;
    // Roster first, so agent ids follow the declared order.
    const declaredIds = e.agents.map((agent) => this.agents.declare(runId, agent));
    const finalAgent = e.final?.agent !== undefined ? this.agents.idOf(runId, e.final.agent) : null;
    const tokens = totalTokens(e.messages);
    const result = this.episodeStmt.run(
      runId, sourceId, record.line, record.offset, record.length, e.id, e.task ?? null, e.group ?? null, e.sample ?? null,
      e.step ?? null, e.split ?? null, e.groundTruth ?? null, e.reward ?? null, e.final?.answer ?? null, finalAgent,
      e.messages.length, tokens, e.metadata ? JSON.stringify(e.metadata) : null,
    );
    if (result.changes === 0) return undefined;
    const episodeId = Number(result.lastInsertRowid);
    const messageIds = this.insertMessages(runId, episodeId, e, declaredIds);
    this.insertRouting(runId, episodeId, e);
    this.insertInterventions(runId, episodeId, e);
    this.insertLabels(runId, episodeId, e, messageIds);
    return episodeId;
  }

  private insertMessages(runId: number, episodeId: number, e: Episode, declaredIds: readonly number[]): number[] {
    const activity = new Map<number, AgentActivity>();
    for (const id of declaredIds) activity.set(id, idle(true));
    const ids = e.messages.map((m, seq) => {
      const agentId = this.agents.idOf(runId, m.agent);
      const a = activity.get(agentId) ?? idle(false);
      activity.set(agentId, a);
      a.messages++;
      a.chars += m.content.length;
      if (m.tokenCount !== undefined) a.tokens = (a.tokens ?? 0) + m.tokenCount;
      const hasTokens = m.tokens !== undefined || m.logprobs !== undefined || m.attribution !== undefined ? 1 : 0;
      return Number(
        this.messageStmt.run(episodeId, seq, agentId, m.turn ?? null, m.role ?? null, m.channel ?? null, m.content.length, m.tokenCount ?? null, hasTokens)
          .lastInsertRowid,
      );
    });
    this.insertRoster(runId, episodeId, e, activity);
    return ids;
  }

  /** One roster row per agent that is declared, speaks, or has a logged reward or advantage. */
  private insertRoster(runId: number, episodeId: number, e: Episode, activity: Map<number, AgentActivity>): void {
    const rewards = this.byAgentId(runId, e.agentRewards);
    const advantages = this.byAgentId(runId, e.advantages);
    for (const id of [...rewards.keys(), ...advantages.keys()]) if (!activity.has(id)) activity.set(id, idle(false));
    for (const [agentId, a] of activity) {
      this.rosterStmt.run(episodeId, agentId, a.declared ? 1 : 0, a.messages, a.tokens, a.chars, rewards.get(agentId) ?? null, advantages.get(agentId) ?? null);
    }
  }

  private byAgentId(runId: number, values: Readonly<Record<string, number>> | undefined): Map<number, number> {
    const map = new Map<number, number>();
    for (const [name, value] of Object.entries(values ?? {})) map.set(this.agents.idOf(runId, name), value);
    return map;
  }

  private insertRouting(runId: number, episodeId: number, e: Episode): void {
    if (!e.routing) return;
    for (const name of Object.keys(e.routing.probs)) this.agents.idOf(runId, name);
    const behaviour = e.routing.behaviourProbs ? JSON.stringify(e.routing.behaviourProbs) : null;
    this.routingStmt.run(episodeId, this.agents.idOf(runId, e.routing.selected), JSON.stringify(e.routing.probs), behaviour);
  }

  private insertInterventions(runId: number, episodeId: number, e: Episode): void {
    for (const cf of e.counterfactuals ?? []) {
      const replayed = cf.replayed === undefined ? null : cf.replayed ? 1 : 0;
      const returns = cf.rewards ? JSON.stringify(cf.rewards) : null;
      this.counterfactualStmt.run(
        episodeId, this.coalitionKey(runId, cf.agents), cf.intervention, cf.replacement ?? null, replayed, cf.rewards?.length ?? 1, returns, cf.reward, cf.evaluator ?? null,
      );
    }
    if (e.coalitions && e.coalitions.length > 0) {
      const values: Record<string, number> = {};
      const counts: Record<string, number> = {};
      for (const c of e.coalitions) {
        const key = this.coalitionKey(runId, c.agents);
        values[key] = c.value;
        if (c.n !== undefined) counts[key] = c.n;
      }
      this.coalitionStmt.run(episodeId, JSON.stringify(values), Object.keys(counts).length > 0 ? JSON.stringify(counts) : null);
    }
  }

  private insertLabels(runId: number, episodeId: number, e: Episode, messageIds: readonly number[]): void {
    for (const l of e.labels ?? []) {
      const agentId = l.agent !== undefined ? this.agents.idOf(runId, l.agent) : null;
      const messageId = l.message !== undefined ? (messageIds[l.message] ?? null) : null;
      this.labelStmt.run(episodeId, agentId, messageId, l.kind, l.value ?? null, l.reason ?? null, l.annotator ?? null);
    }
  }

  /** Agent ids of a coalition, sorted numerically and comma-joined (`''` is the empty coalition). */
  private coalitionKey(runId: number, names: readonly string[]): string {
    const ids = [...new Set(names.map((name) => this.agents.idOf(runId, name)))];
    return ids.sort((a, b) => a - b).join(',');
  }
}

function totalTokens(messages: readonly Message[]): number | null {
  let total: number | null = null;
  for (const m of messages) if (m.tokenCount !== undefined) total = (total ?? 0) + m.tokenCount;
  return total;
}
