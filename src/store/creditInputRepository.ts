import type { CreditAgent, CreditEpisode, LoggedCounterfactual } from '../core/creditInput';
import type { Db, Statement } from './database';
import { groupByEpisode } from './groupByEpisode';
import { splitCondition, splitParam } from './splitFilter';
import type { SplitChoice } from '../core/split';

interface EpisodeRow {
  episode_id: number;
  external_id: string;
  run_id: number;
  train_step: number | null;
  group_id: string | null;
  outcome: number | null;
  ground_truth: string | null;
  uri: string;
  format: string;
  byte_offset: number;
  byte_length: number;
  line: number;
  messages_json: string;
}

interface RosterRow {
  episode_id: number;
  agent_id: number;
  name: string;
}

/** The run a credit pass works on. */
export interface CreditRun {
  readonly runId: number;
  readonly name: string;
  readonly root: string;
  readonly mechanism: string | null;
  readonly evaluatorJson: string | null;
}

/** Reads what the credit engine needs from the index, a page of episodes at a time. */
export class CreditInputRepository {
  private readonly runsStmt: Statement<{
    run_id: number;
    name: string;
    root: string;
    mechanism: string | null;
    evaluator_json: string | null;
  }>;
  private readonly pageStmt: Statement<EpisodeRow>;
  private readonly rosterStmt: Statement<RosterRow>;
  private readonly coalitionStmt: Statement<{ episode_id: number; values_json: string }>;
  private readonly counterfactualStmt: Statement<{
    episode_id: number;
    agents: string;
    intervention: string;
    replayed: number | null;
    value: number;
  }>;
  private readonly routingStmt: Statement<{
    episode_id: number;
    selected_agent_id: number;
    probs_json: string;
    behaviour_probs_json: string | null;
  }>;
  private readonly labelStmt: Statement<{
    episode_id: number;
    kind: string;
    agent: string | null;
    message_seq: number | null;
    value: string | null;
    reason: string | null;
  }>;
  private readonly countStmt: Statement<{ n: number }>;
  private readonly pageInStmt: Statement<EpisodeRow>;
  private readonly countInStmt: Statement<{ n: number }>;

  constructor(db: Db) {
    this.runsStmt = db.prepare(`
      SELECT run_id, name, root, mechanism, evaluator_json FROM run r
      WHERE EXISTS (SELECT 1 FROM episode e WHERE e.run_id = r.run_id) ORDER BY root`);
    // `+e.run_id`: walk the episodes in id order from the last page's end; an index on run_id would
    // make every page scan and sort the whole run (quadratic in the run's size).
    this.pageStmt = db.prepare(`
      SELECT e.episode_id, e.external_id, e.run_id, e.train_step, e.group_id, e.outcome, e.ground_truth, s.uri, s.format, e.byte_offset, e.byte_length, e.line,
        e.messages_json
      FROM episode e JOIN source s ON s.source_id = e.source_id
      WHERE +e.run_id = ? AND e.episode_id > ? AND coalesce(e.train_step, 0) BETWEEN ? AND ? AND ${splitCondition('e')}
      ORDER BY e.episode_id LIMIT ?`);
    const range = 'episode_id BETWEEN ? AND ?';
    this.rosterStmt = db.prepare(`
      SELECT ea.episode_id, ea.agent_id, a.name FROM episode_agent ea JOIN agent a USING (agent_id)
      WHERE ea.${range} ORDER BY ea.episode_id, ea.ordinal`);
    this.coalitionStmt = db.prepare(
      `SELECT episode_id, values_json FROM coalition_value WHERE ${range} AND source = 'logged'`,
    );
    this.counterfactualStmt = db.prepare(`
      SELECT episode_id, agents, intervention, replayed, value FROM counterfactual WHERE ${range} AND source = 'logged' ORDER BY cf_id`);
    this.routingStmt = db.prepare(
      `SELECT episode_id, selected_agent_id, probs_json, behaviour_probs_json FROM routing WHERE ${range}`,
    );
    this.labelStmt = db.prepare(`
      SELECT l.episode_id, l.kind, a.name AS agent, l.message_seq, l.value, l.reason FROM label l LEFT JOIN agent a ON a.agent_id = l.agent_id
      WHERE l.${range} ORDER BY l.label_id`);
    this.countStmt = db.prepare(
      `SELECT count(*) AS n FROM episode e WHERE run_id = ? AND coalesce(train_step, 0) BETWEEN ? AND ? AND ${splitCondition('e')}`,
    );
    // The same two over a set of episode ids (a JSON array), for recomputing chosen episodes.
    this.pageInStmt = db.prepare(`
      SELECT e.episode_id, e.external_id, e.run_id, e.train_step, e.group_id, e.outcome, e.ground_truth, s.uri, s.format, e.byte_offset, e.byte_length, e.line,
        e.messages_json
      FROM episode e JOIN source s ON s.source_id = e.source_id
      WHERE e.episode_id IN (SELECT value FROM json_each(?)) AND e.run_id = ? AND e.episode_id > ? AND coalesce(e.train_step, 0) BETWEEN ? AND ?
        AND ${splitCondition('e')}
      ORDER BY e.episode_id LIMIT ?`);
    this.countInStmt = db.prepare(`
      SELECT count(*) AS n FROM episode e
      WHERE episode_id IN (SELECT value FROM json_each(?)) AND run_id = ? AND coalesce(train_step, 0) BETWEEN ? AND ? AND ${splitCondition('e')}`);
  }

  /**
   * How many episodes {@link episodes} will yield for the same arguments. With `ids`, only those
   * episodes (row ids) are counted; `split` (default all) keeps training or validation episodes.
   */
  countEpisodes(
    runId: number,
    fromStep = -Infinity,
    toStep = Infinity,
    ids?: readonly number[],
    split: SplitChoice = 'all',
  ): number {
    const steps = [clampStep(fromStep), clampStep(toStep), splitParam(split)] as const;
    return (
      (ids ? this.countInStmt.get(JSON.stringify(ids), runId, ...steps) : this.countStmt.get(runId, ...steps))?.n ?? 0
    );
  }

  runs(): CreditRun[] {
    return this.runsStmt.all().map((r) => ({
      runId: r.run_id,
      name: r.name,
      root: r.root,
      mechanism: r.mechanism,
      evaluatorJson: r.evaluator_json,
    }));
  }

  /**
   * Episodes of a run with `train_step` in [fromStep, toStep] (no step counts as 0), in id order.
   * With `ids`, only those episodes (row ids; ids of other runs are left out); `split` (default all)
   * keeps training or validation episodes (core/split.ts).
   */
  *episodes(
    runId: number,
    fromStep = -Infinity,
    toStep = Infinity,
    pageSize = 2000,
    ids?: readonly number[],
    split: SplitChoice = 'all',
  ): Generator<CreditEpisode> {
    const idsJson = ids ? JSON.stringify(ids) : undefined;
    const steps = [clampStep(fromStep), clampStep(toStep), splitParam(split)] as const;
    let after = 0;
    for (;;) {
      // Chosen episodes are read one at a time: assemble() reads rosters and values by id range,
      // which for scattered ids would span the episodes between them.
      const page =
        idsJson === undefined
          ? this.pageStmt.all(runId, after, ...steps, pageSize)
          : this.pageInStmt.all(idsJson, runId, after, ...steps, 1);
      if (page.length === 0) return;
      yield* this.assemble(page);
      after = page[page.length - 1]?.episode_id ?? after;
    }
  }

  private assemble(page: readonly EpisodeRow[]): CreditEpisode[] {
    const first = page[0]?.episode_id ?? 0;
    const last = page[page.length - 1]?.episode_id ?? 0;
    const rosters = groupByEpisode(this.rosterStmt.all(first, last));
    const coalitions = new Map(this.coalitionStmt.all(first, last).map((r) => [r.episode_id, r.values_json]));
    const removals = groupByEpisode(this.counterfactualStmt.all(first, last));
    const routing = new Map(this.routingStmt.all(first, last).map((r) => [r.episode_id, r]));
    const labels = groupByEpisode(this.labelStmt.all(first, last));
    const teams = new TeamMasks();
    return page.map((row) => {
      const team = teams.of(rosters.get(row.episode_id) ?? []);
      const { agents, full } = team;
      const logged = coalitionMasks(coalitions.get(row.episode_id), team);
      const counterfactuals: LoggedCounterfactual[] = [];
      for (const cf of removals.get(row.episode_id) ?? []) {
        const removed = team.mask(cf.agents);
        if (removed === undefined) continue;
        counterfactuals.push({
          removed,
          intervention: cf.intervention,
          replayed: cf.replayed === null ? null : cf.replayed === 1,
          value: cf.value,
        });
        // Only removal (⊥) is the coalition game's default; other interventions are other games.
        if (cf.intervention === 'remove' && !logged.has(full & ~removed)) logged.set(full & ~removed, cf.value);
      }
      if (row.outcome !== null && agents.length > 0 && !logged.has(full)) logged.set(full, row.outcome);
      const decision = routing.get(row.episode_id);
      return {
        episodeId: row.episode_id,
        externalId: row.external_id,
        runId: row.run_id,
        step: row.train_step,
        group: row.group_id,
        reward: row.outcome,
        groundTruth: row.ground_truth,
        agents,
        uri: row.uri,
        format: row.format,
        offset: row.byte_offset,
        length: row.byte_length,
        line: row.line,
        loggedCoalitions: logged,
        loggedCounterfactuals: counterfactuals,
        messageAuthors: (JSON.parse(row.messages_json) as [number][]).map((m) => m[0]),
        labels: (labels.get(row.episode_id) ?? []).map((l) => ({
          kind: l.kind,
          agent: l.agent,
          messageSeq: l.message_seq,
          value: l.value,
          reason: l.reason,
        })),
        ...(decision ? { routing: routingIndices(decision, agents) } : {}),
      };
    });
  }
}

function clampStep(step: number): number {
  return Math.max(-1e15, Math.min(1e15, step));
}

/**
 * One roster's agents and the bitmasks of its comma-joined agent id lists, shared by the episodes
 * of a page with the same roster: most runs have one team, so each id list is split once a page.
 */
class Team {
  readonly full: bigint;
  private readonly bit: ReadonlyMap<number, bigint>;
  private readonly masks = new Map<string, bigint | undefined>();

  constructor(readonly agents: readonly CreditAgent[]) {
    this.bit = new Map(agents.map((a, i) => [a.agentId, 1n << BigInt(i)]));
    this.full = (1n << BigInt(agents.length)) - 1n;
  }

  /** Bitmask of a comma-joined agent id list; undefined when an id is not in the roster. */
  mask(ids: string): bigint | undefined {
    if (this.masks.has(ids)) return this.masks.get(ids);
    const mask = maskOf(ids, this.bit);
    this.masks.set(ids, mask);
    return mask;
  }
}

/** The {@link Team} of each roster seen, by its agent ids. */
class TeamMasks {
  private readonly teams = new Map<string, Team>();

  of(roster: readonly RosterRow[]): Team {
    const key = roster.map((r) => r.agent_id).join(',');
    let team = this.teams.get(key);
    if (!team) {
      team = new Team(roster.map((r) => ({ agentId: r.agent_id, name: r.name })));
      this.teams.set(key, team);
    }
    return team;
  }
}

function maskOf(ids: string, bit: ReadonlyMap<number, bigint>): bigint | undefined {
  if (ids === '') return 0n;
  let mask = 0n;
  for (const id of ids.split(',')) {
    const b = bit.get(Number(id));
    if (b === undefined) return undefined;
    mask |= b;
  }
  return mask;
}

function coalitionMasks(json: string | undefined, team: Team): Map<bigint, number> {
  const masks = new Map<bigint, number>();
  if (json === undefined) return masks;
  for (const [ids, value] of Object.entries(JSON.parse(json) as Record<string, number>)) {
    const mask = team.mask(ids);
    if (mask !== undefined) masks.set(mask, value);
  }
  return masks;
}

function routingIndices(
  decision: { selected_agent_id: number; probs_json: string; behaviour_probs_json: string | null },
  agents: readonly CreditAgent[],
): NonNullable<CreditEpisode['routing']> {
  const byName = (json: string): number[] => {
    const probs = JSON.parse(json) as Record<string, number>;
    return agents.map((a) => probs[a.name] ?? 0);
  };
  const selected = agents.findIndex((a) => a.agentId === decision.selected_agent_id);
  return {
    probs: byName(decision.probs_json),
    selected,
    ...(decision.behaviour_probs_json ? { behaviourProbs: byName(decision.behaviour_probs_json) } : {}),
  };
}
