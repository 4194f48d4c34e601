import {
  withLoggedValues,
  type CreditAgent,
  type CreditEpisode,
  type CreditLabel,
  type LoggedCounterfactual,
} from '../core/creditInput';
import { coalitionEntries, messageAuthors } from '../core/packedEpisodeJson';
import type { BindValue, Db, Statement } from './database';
import { groupByEpisode } from './groupByEpisode';
import { splitCondition, splitParam } from './splitFilter';
import { sqlNullableBoolean } from './sqlValues';
import { splitKind, type SplitChoice } from '../core/split';

/** A logged routing decision as stored: the selected agent's id, the probabilities by agent name as JSON text. */
interface RoutingDecision {
  readonly episodeId: number;
  readonly selectedAgentId: number;
  readonly probsJson: string;
  readonly behaviourProbsJson: string | null;
}

/** A run's episodes in a step range: those of one split, and those of every split kind. */
export interface EpisodeCounts {
  readonly inSplit: number;
  readonly everyKind: number;
}

/** The run a credit pass works on. */
export interface CreditRun {
  readonly runId: number;
  readonly name: string;
  readonly root: string;
  readonly mechanism: string | null;
  readonly evaluatorJson: string | null;
}

const pageColumns = `e.episode_id AS episodeId, e.external_id AS externalId, e.run_id AS runId, e.train_step AS step,
  e.group_id AS "group", e.outcome AS reward, e.ground_truth AS groundTruth, s.uri, s.format, e.byte_offset AS offset,
  e.byte_length AS length, e.line, e.messages_json AS messagesJson, e.split`;

/** Reads what the credit engine needs from the index, a page of episodes at a time. */
export class CreditInputRepository {
  private readonly runsStmt: Statement<CreditRun>;
  // The bulk reads answer column values (allValues), in their select order: the page in
  // pageColumns order; rosters (episode, agent id, messages); coalitions (episode, values JSON);
  // counterfactuals (episode, agent ids, intervention, replayed, value).
  private readonly pageStmt: Statement;
  private readonly rosterStmt: Statement;
  private readonly agentNameStmt: Statement<{ name: string }>;
  /**
   * Agent names by id, read once each: a roster row gives the id alone, and each team's agents are
   * made once a page (a join with `agent` gave every roster row its own copy of the name).
   */
  private readonly agentNames = new Map<number, string>();
  private readonly coalitionStmt: Statement;
  private readonly counterfactualStmt: Statement;
  private readonly routingStmt: Statement<RoutingDecision>;
  private readonly labelStmt: Statement<CreditLabel & { episodeId: number }>;
  private readonly countStmt: Statement<{ n: number; everyKind: number }>;
  private readonly pageInStmt: Statement;
  private readonly countInStmt: Statement<{ n: number }>;

  constructor(db: Db) {
    this.runsStmt = db.prepare(`
      SELECT run_id AS runId, name, root, mechanism, evaluator_json AS evaluatorJson FROM run r
      WHERE EXISTS (SELECT 1 FROM episode e WHERE e.run_id = r.run_id) ORDER BY root`);
    // `+e.run_id`: walk the episodes in id order from the last page's end; an index on run_id would
    // make every page scan and sort the whole run (quadratic in the run's size).
    this.pageStmt = db.prepare(`
      SELECT ${pageColumns}
      FROM episode e JOIN source s ON s.source_id = e.source_id
      WHERE +e.run_id = ? AND e.episode_id > ? AND coalesce(e.train_step, 0) BETWEEN ? AND ? AND ${splitCondition('e')}
      ORDER BY e.episode_id LIMIT ?`);
    const range = 'episode_id BETWEEN ? AND ?';
    this.rosterStmt = db.prepare(`
      SELECT ea.episode_id AS episodeId, ea.agent_id AS agentId, ea.n_messages FROM episode_agent ea
      WHERE ea.${range} ORDER BY ea.episode_id, ea.ordinal`);
    this.agentNameStmt = db.prepare('SELECT name FROM agent WHERE agent_id = ?');
    this.coalitionStmt = db.prepare(
      `SELECT episode_id AS episodeId, values_json AS valuesJson FROM coalition_value WHERE ${range} AND source = 'logged'`,
    );
    // Walked by row id between the page's first and last counterfactual (found in the covering
    // index) rather than looked up row by row through the index: an episode's counterfactuals are
    // written with it, so the range holds the page's rows and few others (filtered out by the
    // episode range). 0.28 s instead of 0.52 s for the 1 GB run (BENCHMARKS.md, issue 15, twenty-first part).
    const cfIds = (bound: 'min' | 'max'): string => `(SELECT ${bound}(cf_id) FROM counterfactual WHERE ${range})`;
    this.counterfactualStmt = db.prepare(`
      SELECT episode_id AS episodeId, agents, intervention, replayed, value FROM counterfactual
      WHERE cf_id BETWEEN ${cfIds('min')} AND ${cfIds('max')} AND ${range} AND source = 'logged' ORDER BY cf_id`);
    this.routingStmt = db.prepare(
      `SELECT episode_id AS episodeId, selected_agent_id AS selectedAgentId, probs_json AS probsJson,
        behaviour_probs_json AS behaviourProbsJson FROM routing WHERE ${range}`,
    );
    this.labelStmt = db.prepare(`
      SELECT l.episode_id AS episodeId, l.kind, a.name AS agent, l.message_seq AS messageSeq, l.value, l.reason FROM label l LEFT JOIN agent a ON a.agent_id = l.agent_id
      WHERE l.${range} ORDER BY l.label_id`);
    // Both counts in one walk of the covering index: a first whole pass needs both (runCredit.ts),
    // and each walk takes about 0.2 s at 10 GB.
    this.countStmt = db.prepare(`
      SELECT coalesce(sum(${splitCondition('e')}), 0) AS n, count(*) AS everyKind FROM episode e
      WHERE run_id = ? AND coalesce(train_step, 0) BETWEEN ? AND ?`);
    // The same two over a set of episode ids (a JSON array), for recomputing chosen episodes.
    this.pageInStmt = db.prepare(`
      SELECT ${pageColumns}
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
    if (ids) return this.countInStmt.get(JSON.stringify(ids), runId, ...steps)?.n ?? 0;
    return this.episodeCounts(runId, fromStep, toStep, split).inSplit;
  }

  /**
   * The run's episodes with `train_step` in [fromStep, toStep] (no step counts as 0): those of
   * `split` (what {@link episodes} yields) and those of every split kind, in one read.
   */
  episodeCounts(runId: number, fromStep = -Infinity, toStep = Infinity, split: SplitChoice = 'all'): EpisodeCounts {
    const row = this.countStmt.get(splitParam(split), runId, clampStep(fromStep), clampStep(toStep));
    return { inSplit: row?.n ?? 0, everyKind: row?.everyKind ?? 0 };
  }

  runs(): CreditRun[] {
    return this.runsStmt.all();
  }

  /**
   * Episodes of a run with `train_step` in [fromStep, toStep] (no step counts as 0), in id order.
   * With `ids`, only those episodes (row ids; ids of other runs are left out); `split` (default all)
   * keeps training or validation episodes (core/split.ts); `afterId`: only episodes with a larger
   * row id (what a reader that already read up to it has not seen). Pages are small (250, a credit
   * pass's write batch): a page's episodes outlive many young-generation collections, and larger
   * pages only grew the old generation (peak RSS of a pass over the 1 GB run: 270 MB at 2,000, 238
   * at 250, same CPU).
   */
  *episodes(
    runId: number,
    fromStep = -Infinity,
    toStep = Infinity,
    pageSize = 250,
    ids?: readonly number[],
    split: SplitChoice = 'all',
    afterId = 0,
  ): Generator<CreditEpisode> {
    const idsJson = ids ? JSON.stringify(ids) : undefined;
    const steps = [clampStep(fromStep), clampStep(toStep), splitParam(split)] as const;
    let after = afterId;
    for (;;) {
      // Chosen episodes are read one at a time: assemble() reads rosters and values by id range,
      // which for scattered ids would span the episodes between them.
      const page =
        idsJson === undefined
          ? this.pageStmt.allValues(runId, after, ...steps, pageSize)
          : this.pageInStmt.allValues(idsJson, runId, after, ...steps, 1);
      if (page.length === 0) return;
      yield* this.assemble(page);
      after = Number(page[page.length - 1]?.[0] ?? after);
    }
  }

  private assemble(page: readonly BindValue[][]): CreditEpisode[] {
    const first = Number(page[0]?.[0] ?? 0);
    const last = Number(page[page.length - 1]?.[0] ?? 0);
    const rosters = rostersByEpisode(this.rosterStmt.allValues(first, last));
    const coalitions = new Map(this.coalitionStmt.allValues(first, last).map((r) => [r[0], r[1] as string]));
    const removals = valuesByEpisode(this.counterfactualStmt.allValues(first, last, first, last, first, last));
    const routing = new Map(this.routingStmt.all(first, last).map((r) => [r.episodeId, r]));
    const labels = groupByEpisode(this.labelStmt.all(first, last));
    const teams = new TeamMasks((agentId) => this.agentName(agentId));
    return page.map((row) => {
      const episodeId = row[0] as number;
      const roster = rosters.get(episodeId);
      const team = teams.of(roster?.agentIds);
      const { agents, full } = team;
      const logged = coalitionMasks(coalitions.get(episodeId), team);
      const counterfactuals: LoggedCounterfactual[] = [];
      for (const [, ids, intervention, replayed, value] of removals.get(episodeId) ?? []) {
        const removed = team.mask(ids as string);
        if (removed === undefined) continue;
        counterfactuals.push({
          removed,
          intervention: intervention as string,
          replayed: sqlNullableBoolean(replayed as number | null),
          value: value as number,
        });
      }
      const reward = row[5] as number | null;
      withLoggedValues(logged, counterfactuals, reward, full);
      const decision = routing.get(episodeId);
      const episodeLabels = (labels.get(episodeId) ?? []).map(({ episodeId: _episode, ...label }) => label);
      return {
        episodeId,
        externalId: row[1] as string,
        runId: row[2] as number,
        step: row[3] as number | null,
        group: row[4] as string | null,
        // Classified here, not by the SQL twin in the select: a new 'train' string per row took
        // a third of the page's read (BENCHMARKS.md, issue 15, twenty-third part).
        splitKind: splitKind(row[13] as string | null),
        reward,
        groundTruth: row[6] as string | null,
        uri: row[7] as string,
        format: row[8] as string,
        offset: row[9] as number,
        length: row[10] as number,
        line: row[11] as number,
        agents,
        agentMessages: roster?.messages ?? [],
        loggedCoalitions: logged,
        loggedCounterfactuals: counterfactuals,
        // Read by message-level methods, and by agent-level ones for a pipeline's exactness (§3.1).
        messageAuthors: messageAuthors(row[12] as string),
        labels: episodeLabels,
        ...(decision ? { routing: routingIndices(decision, agents) } : {}),
      };
    });
  }

  /** The name of an agent of a roster (read once). */
  private agentName(agentId: number): string {
    let name = this.agentNames.get(agentId);
    if (name === undefined) {
      name = this.agentNameStmt.get(agentId)?.name;
      if (name === undefined) throw new Error(`agent ${agentId} of a roster is not in the index's agent table`);
      this.agentNames.set(agentId, name);
    }
    return name;
  }
}

/** Rows as column values (episode id first) grouped by episode id, in row order. */
function valuesByEpisode(rows: readonly BindValue[][]): Map<number, BindValue[][]> {
  const map = new Map<number, BindValue[][]>();
  for (const row of rows) {
    const id = row[0] as number;
    const list = map.get(id);
    if (list) list.push(row);
    else map.set(id, [row]);
  }
  return map;
}

/** Roster rows (episode id, agent id, messages) as each episode's agent ids and their message counts, in row (ordinal) order. */
function rostersByEpisode(rows: readonly BindValue[][]): Map<number, { agentIds: number[]; messages: number[] }> {
  const map = new Map<number, { agentIds: number[]; messages: number[] }>();
  for (const [episodeId, agentId, messages] of rows) {
    const roster = map.get(episodeId as number);
    if (roster) {
      roster.agentIds.push(agentId as number);
      roster.messages.push(messages as number);
    } else map.set(episodeId as number, { agentIds: [agentId as number], messages: [messages as number] });
  }
  return map;
}

/** A step bound as this repository's step filters bind it (±Infinity clamped to ±1e15). */
export function clampStep(step: number): number {
  return Math.max(-1e15, Math.min(1e15, step));
}

/**
 * One roster's agents and the bitmasks of its comma-joined agent id lists, shared by the episodes
 * of a page with the same roster: most runs have one team, so each id list is split once a page.
 */
class Team {
  readonly full: bigint;
  private readonly bit: ReadonlyMap<number, bigint>;
  /** By id list; null: an id not in the roster (one lookup per list, not a `has` and a `get`). */
  private readonly masks = new Map<string, bigint | null>();

  constructor(readonly agents: readonly CreditAgent[]) {
    this.bit = new Map(agents.map((a, i) => [a.agentId, 1n << BigInt(i)]));
    this.full = (1n << BigInt(agents.length)) - 1n;
  }

  /** Bitmask of a comma-joined agent id list; undefined when an id is not in the roster. */
  mask(ids: string): bigint | undefined {
    let mask = this.masks.get(ids);
    if (mask === undefined) {
      mask = maskOf(ids, this.bit) ?? null;
      this.masks.set(ids, mask);
    }
    return mask ?? undefined;
  }
}

/** The {@link Team} of each roster seen, by its agent ids (its agents named by `name`). */
class TeamMasks {
  private readonly teams = new Map<string, Team>();

  constructor(private readonly name: (agentId: number) => string) {}

  of(agentIds: readonly number[] = []): Team {
    const key = agentIds.join(',');
    let team = this.teams.get(key);
    if (!team) {
      team = new Team(agentIds.map((agentId) => ({ agentId, name: this.name(agentId) })));
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
  for (const [ids, value] of coalitionEntries(json)) {
    const mask = team.mask(ids);
    if (mask !== undefined) masks.set(mask, value);
  }
  return masks;
}

function routingIndices(
  decision: RoutingDecision,
  agents: readonly CreditAgent[],
): NonNullable<CreditEpisode['routing']> {
  const byName = (json: string): number[] => {
    const probs = JSON.parse(json) as Record<string, number>;
    return agents.map((a) => probs[a.name] ?? 0);
  };
  const selected = agents.findIndex((a) => a.agentId === decision.selectedAgentId);
  return {
    probs: byName(decision.probsJson),
    selected,
    ...(decision.behaviourProbsJson ? { behaviourProbs: byName(decision.behaviourProbsJson) } : {}),
  };
}
