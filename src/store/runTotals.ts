import type { Db, Statement } from './database';

/** What a batch adds to one run's totals. */
interface RunDelta {
  episodes: number;
  messages: number;
  outcomes: number;
  outcomeSum: number;
}

/** What a batch adds to one agent's totals. */
interface AgentDelta {
  episodes: number;
  messages: number;
}

/**
 * The per-run, per-agent and per-source totals the index summary reads (migration 0012; per-step
 * counts are the views' `step_total`: insertedAggregates.ts),
 * kept in step with the episodes: what a batch writes is added up in memory and written by
 * {@link flush} at the end of its transaction; what a source held is subtracted, by
 * {@link subtractSource}, just before its episodes are deleted. So the summary that ends every
 * pass reads O(runs + steps + agents + sources) rows instead of counting the whole index.
 */
export class RunTotals {
  private readonly runs = new Map<number, RunDelta>();
  private readonly agents = new Map<number, AgentDelta>();
  private readonly sources = new Map<number, number>();
  private readonly addRunStmt: Statement;
  private readonly addAgentStmt: Statement;
  private readonly addSourceStmt: Statement;
  private readonly subtractStmts: readonly { readonly statement: Statement; readonly bySource: boolean }[];

  constructor(db: Db) {
    this.addRunStmt = db.prepare(`
      INSERT INTO run_totals (run_id, episodes, messages, outcomes, outcome_sum) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (run_id) DO UPDATE SET episodes = episodes + excluded.episodes, messages = messages + excluded.messages,
        outcomes = outcomes + excluded.outcomes, outcome_sum = outcome_sum + excluded.outcome_sum`);
    this.addAgentStmt = db.prepare(`
      INSERT INTO agent_totals (agent_id, episodes, messages) VALUES (?, ?, ?)
      ON CONFLICT (agent_id) DO UPDATE SET episodes = episodes + excluded.episodes, messages = messages + excluded.messages`);
    this.addSourceStmt = db.prepare('UPDATE source SET episodes = episodes + ? WHERE source_id = ?');
    this.subtractStmts = subtractSql.map((sql) => ({ statement: db.prepare(sql), bySource: sql.includes('@source') }));
  }

  /** Counts a written episode (not yet its roster: {@link addRosterRow}). */
  addEpisode(runId: number, sourceId: number, messages: number, outcome: number | null): void {
    const run = this.runs.get(runId) ?? { episodes: 0, messages: 0, outcomes: 0, outcomeSum: 0 };
    run.episodes++;
    run.messages += messages;
    if (outcome !== null) {
      run.outcomes++;
      run.outcomeSum += outcome;
    }
    this.runs.set(runId, run);
    this.sources.set(sourceId, (this.sources.get(sourceId) ?? 0) + 1);
  }

  /** Counts a written roster row (episode_agent) of an agent. */
  addRosterRow(agentId: number, messages: number): void {
    const agent = this.agents.get(agentId) ?? { episodes: 0, messages: 0 };
    agent.episodes++;
    agent.messages += messages;
    this.agents.set(agentId, agent);
  }

  /** Writes what was counted since the last flush. Must run inside the transaction that wrote the episodes. */
  flush(): void {
    for (const [runId, d] of this.runs) this.addRunStmt.run(runId, d.episodes, d.messages, d.outcomes, d.outcomeSum);
    for (const [agentId, d] of this.agents) this.addAgentStmt.run(agentId, d.episodes, d.messages);
    for (const [sourceId, episodes] of this.sources) this.addSourceStmt.run(episodes, sourceId);
    this.discard();
  }

  /** Forgets what was counted since the last flush (its transaction was rolled back). */
  discard(): void {
    this.runs.clear();
    this.agents.clear();
    this.sources.clear();
  }

  /** Takes a source's episodes out of the totals. Must run inside the caller's transaction, before they are deleted. */
  subtractSource(sourceId: number): void {
    for (const { statement, bySource } of this.subtractStmts) {
      if (bySource) statement.run({ source: sourceId });
      else statement.run();
    }
  }
}

/** The statements of {@link RunTotals.subtractSource}, in order; each reads only the source's episodes. */
const subtractSql = [
  // A run left without outcomes gets an exact 0 back, not the rounding left by the subtractions.
  `UPDATE run_totals AS t SET episodes = t.episodes - d.n, messages = t.messages - d.m, outcomes = t.outcomes - d.o,
     outcome_sum = CASE WHEN t.outcomes = d.o THEN 0 ELSE t.outcome_sum - d.s END
   FROM (SELECT run_id, count(*) AS n, sum(n_messages) AS m, count(outcome) AS o, total(outcome) AS s
         FROM episode WHERE source_id = @source GROUP BY run_id) AS d
   WHERE t.run_id = d.run_id`,
  `UPDATE agent_totals AS t SET episodes = t.episodes - d.n, messages = t.messages - d.m
   FROM (SELECT ea.agent_id, count(*) AS n, sum(ea.n_messages) AS m
         FROM episode e JOIN episode_agent ea ON ea.episode_id = e.episode_id WHERE e.source_id = @source GROUP BY ea.agent_id) AS d
   WHERE t.agent_id = d.agent_id`,
  'UPDATE source SET episodes = 0 WHERE source_id = @source',
];
