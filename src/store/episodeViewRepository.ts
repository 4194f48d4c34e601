import type { CreditLabel } from '../core/creditInput';
import { valuesFor } from './checkedBinding';
import type { BindValue, Db, Statement } from './database';
import { sqlBoolean } from './sqlValues';

/** One episode's index row with its run, trace file and final agent (no message data). */
export interface EpisodeHeader {
  readonly episodeId: number;
  readonly runId: number;
  readonly runName: string;
  readonly mechanism: string | null;
  readonly externalId: string;
  readonly step: number | null;
  readonly group: string | null;
  readonly sample: number | null;
  readonly task: string | null;
  readonly reward: number | null;
  readonly groundTruth: string | null;
  readonly finalAnswer: string | null;
  readonly finalAgent: string | null;
  readonly messages: number;
  readonly tokens: number | null;
  /** Trace file relative to the indexed folder; `line` 1-based; `offset` / `length` in bytes. */
  readonly uri: string;
  readonly line: number;
  readonly offset: number;
  readonly length: number;
  /** The importer of the file (source.format). */
  readonly format: string;
}

/** An agent of the episode's roster, in roster order (`ordinal` indexes the message authors). */
export interface RosterAgent {
  readonly agentId: number;
  readonly name: string;
  readonly kind: string;
  readonly ordinal: number;
  readonly declared: boolean;
  readonly messages: number;
  readonly tokens: number | null;
  readonly reward: number | null;
  readonly advantage: number | null;
}

/** A logged label; `messageSeq` is the 0-based message it points at. */
export type EpisodeLabel = CreditLabel;

/**
 * The index data of every message of an episode, as parallel arrays by seq (from
 * `episode.messages_json`: no message text is read).
 */
export interface StoredMessageIndex {
  /** Roster ordinal of each message's author. */
  readonly ordinals: number[];
  readonly channels: (string | null)[];
  readonly tokens: (number | null)[];
  /** The message logs its tokens (text, log-probabilities or attributions). */
  readonly hasTokens: boolean[];
}

/** A logged routing decision as stored: the selected expert's name and the probabilities as JSON text. */
export interface StoredRouting {
  readonly selected: string;
  /** `{expert name: probability}` over all experts. */
  readonly probsJson: string;
  readonly behaviourProbsJson: string | null;
}

/** A stored credit value of one episode (`messageSeq` null = the agent's value). */
export interface EpisodeCreditRow {
  readonly agentId: number;
  readonly messageSeq: number | null;
  /** Null when the stored value was NaN. */
  readonly value: number | null;
  readonly ciLow: number | null;
  readonly ciHigh: number | null;
  readonly n: number | null;
  readonly advantage: number | null;
  readonly approximate: boolean;
  readonly source: string | null;
  /** exact | estimated | approximate. */
  readonly status: string;
  readonly computedAt: string;
}

/** What the index holds that a coalition method could use without an evaluator (or with its cache). */
export interface CoalitionEvidence {
  readonly coalitions: boolean;
  readonly counterfactuals: boolean;
  /** Cached evaluator results over agent subsets (`agents:…`) and over message subsets (`messages:…`). */
  readonly agentEvaluations: boolean;
  readonly messageEvaluations: boolean;
  readonly routing: boolean;
}

/** A counterfactual row as stored: logged from the trace or computed by a credit pass. */
export interface StoredCounterfactual {
  /** Comma-joined, sorted agent ids removed or replaced (`''` = none). */
  readonly agents: string;
  readonly intervention: string;
  readonly value: number;
  readonly evaluator: string | null;
  readonly n: number | null;
  readonly source: string;
}

/** An episode's coalition values v(S) from one source (logged | computed). */
export interface StoredCoalitions {
  readonly source: string;
  /** `{"<sorted agent ids>": v(S)}` and `{"<sorted agent ids>": rollouts}`, as stored. */
  readonly valuesJson: string;
  readonly countsJson: string | null;
}

/** A cached evaluator result over an agent subset. */
export interface StoredEvaluation {
  readonly evaluator: string;
  /** `agents:<sorted agent ids present>`. */
  readonly intervention: string;
  readonly value: number;
}

const headerSql = `
  SELECT e.episode_id AS episodeId, e.run_id AS runId, r.name AS runName, r.mechanism, e.external_id AS externalId,
    e.train_step AS step, e.group_id AS "group", e.sample_idx AS sample, e.task_id AS task, e.outcome AS reward,
    e.ground_truth AS groundTruth, e.final_answer AS finalAnswer, fa.name AS finalAgent, e.n_messages AS messages,
    e.n_tokens AS tokens, s.uri, e.line, e.byte_offset AS offset, e.byte_length AS length, s.format
  FROM episode e JOIN run r ON r.run_id = e.run_id JOIN source s ON s.source_id = e.source_id
  LEFT JOIN agent fa ON fa.agent_id = e.final_agent_id
  WHERE e.episode_id = ?`;

// Credit of the parameter set computed last for this episode and method (ties: the row written last).
const creditSql = `
  SELECT agent_id AS agentId, message_seq AS messageSeq, value, ci_low AS ciLow, ci_high AS ciHigh, n, advantage, approximate,
    source, status, computed_at AS computedAt
  FROM credit WHERE episode_id = :episode AND method = :method AND params_hash = (
    SELECT params_hash FROM credit WHERE episode_id = :episode AND method = :method ORDER BY computed_at DESC, credit_id DESC LIMIT 1)
  ORDER BY message_seq IS NOT NULL, message_seq, agent_id`;

const evidenceSql = `
  SELECT EXISTS (SELECT 1 FROM coalition_value WHERE episode_id = :episode) AS coalitions,
    EXISTS (SELECT 1 FROM counterfactual WHERE episode_id = :episode) AS counterfactuals,
    EXISTS (SELECT 1 FROM evaluation WHERE episode_id = :episode AND intervention LIKE 'agents:%') AS agentEvaluations,
    EXISTS (SELECT 1 FROM evaluation WHERE episode_id = :episode AND intervention LIKE 'messages:%') AS messageEvaluations,
    EXISTS (SELECT 1 FROM routing WHERE episode_id = :episode) AS routing`;

// Navigation in (train_step, group_id, sample_idx, episode_id) order, NULLs first, in two index
// range reads: the rest of the current step (its episodes through episode_step), else the nearest
// other step. `after(x)` / `before(x)`: x comes after / before :x in that order.
const after = (x: string): string => `(${x} > :${x} OR (:${x} IS NULL AND ${x} IS NOT NULL))`;
const before = (x: string): string => `(${x} < :${x} OR (${x} IS NULL AND :${x} IS NOT NULL))`;
const inStep = (cmp: (x: string) => string, dir: string): string => `
  SELECT episode_id FROM episode WHERE run_id = :run_id AND train_step IS :train_step
    AND (${cmp('group_id')} OR (group_id IS :group_id AND (${cmp('sample_idx')} OR (sample_idx IS :sample_idx AND ${cmp('episode_id')}))))
  ORDER BY group_id ${dir}, sample_idx ${dir}, episode_id ${dir} LIMIT 1`;
const adjacentSql = {
  nextInStep: inStep(after, 'ASC'),
  previousInStep: inStep(before, 'DESC'),
  nextStep: `
    SELECT episode_id FROM episode WHERE run_id = :run_id AND train_step > ifnull(:train_step, -9223372036854775808)
    ORDER BY train_step, group_id, sample_idx, episode_id LIMIT 1`,
  previousStep: `
    SELECT episode_id FROM episode WHERE run_id = :run_id AND train_step < :train_step
    ORDER BY train_step DESC, group_id DESC, sample_idx DESC, episode_id DESC LIMIT 1`,
  lastWithoutStep: `
    SELECT episode_id FROM episode WHERE run_id = :run_id AND train_step IS NULL
    ORDER BY group_id DESC, sample_idx DESC, episode_id DESC LIMIT 1`,
} as const;

/** The statements above, exported so a test can check their query plans. */
export const episodeViewQueries = {
  header: headerSql,
  credit: creditSql,
  evidence: evidenceSql,
  ...adjacentSql,
} as const;

type AdjacentKey = Record<'run_id' | 'train_step' | 'group_id' | 'sample_idx' | 'episode_id', BindValue> & {
  train_step: number | null;
};

/** A 0/1 column as stored, before sqlBoolean. */
type Stored<T, K extends keyof T> = Omit<T, K> & Record<K, number>;

/**
 * Everything the Episode panel shows about one episode, read by episode id (every statement is a
 * primary-key or `episode_id` index lookup, except the navigation to the adjacent episode).
 */
export class EpisodeViewRepository {
  private readonly headerStmt: Statement<EpisodeHeader>;
  private readonly rosterStmt: Statement<Stored<RosterAgent, 'declared'>>;
  private readonly runAgentsStmt: Statement<{ agentId: number; name: string }>;
  private readonly labelsStmt: Statement<EpisodeLabel>;
  private readonly authorsStmt: Statement<{ messagesJson: string }>;
  private readonly metadataStmt: Statement<{ metadataJson: string | null }>;
  private readonly routingStmt: Statement<StoredRouting>;
  private readonly creditStmt: Statement<Stored<EpisodeCreditRow, 'approximate'>>;
  private readonly errorStmt: Statement<{ reason: string; computedAt: string; status: string; remedy: string | null }>;
  private readonly evidenceStmt: Statement<Stored<CoalitionEvidence, keyof CoalitionEvidence>>;
  private readonly counterfactualsStmt: Statement<StoredCounterfactual>;
  private readonly coalitionsStmt: Statement<StoredCoalitions>;
  private readonly evaluationsStmt: Statement<StoredEvaluation>;
  private readonly keyStmt: Statement<AdjacentKey>;
  private readonly adjacentLookups: Readonly<
    Record<keyof typeof adjacentSql, (key: AdjacentKey) => number | undefined>
  >;

  constructor(db: Db) {
    this.headerStmt = db.prepare(headerSql);
    this.rosterStmt = db.prepare(`
      SELECT ea.agent_id AS agentId, a.name, a.kind, ea.ordinal, ea.declared, ea.n_messages AS messages, ea.n_tokens AS tokens,
        ea.reward, ea.advantage
      FROM episode_agent ea JOIN agent a USING (agent_id) WHERE ea.episode_id = ? ORDER BY ea.ordinal`);
    this.runAgentsStmt = db.prepare('SELECT agent_id AS agentId, name FROM agent WHERE run_id = ?');
    this.labelsStmt = db.prepare(`
      SELECT l.kind, a.name AS agent, l.message_seq AS messageSeq, l.value, l.reason FROM label l LEFT JOIN agent a ON a.agent_id = l.agent_id
      WHERE l.episode_id = ? ORDER BY l.message_seq IS NULL, l.message_seq, l.label_id`);
    this.authorsStmt = db.prepare('SELECT messages_json AS messagesJson FROM episode WHERE episode_id = ?');
    this.metadataStmt = db.prepare('SELECT metadata_json AS metadataJson FROM episode WHERE episode_id = ?');
    this.routingStmt = db.prepare(`
      SELECT a.name AS selected, r.probs_json AS probsJson, r.behaviour_probs_json AS behaviourProbsJson
      FROM routing r JOIN agent a ON a.agent_id = r.selected_agent_id WHERE r.episode_id = ?`);
    this.creditStmt = db.prepare(creditSql);
    this.errorStmt = db.prepare(
      'SELECT reason, computed_at AS computedAt, status, remedy FROM credit_error WHERE episode_id = ? AND method = ? ORDER BY computed_at DESC LIMIT 1',
    );
    this.evidenceStmt = db.prepare(evidenceSql);
    this.counterfactualsStmt = db.prepare(
      'SELECT agents, intervention, value, evaluator, n, source FROM counterfactual WHERE episode_id = ? ORDER BY cf_id',
    );
    this.coalitionsStmt = db.prepare(
      'SELECT source, values_json AS valuesJson, counts_json AS countsJson FROM coalition_value WHERE episode_id = ? ORDER BY source',
    );
    this.evaluationsStmt = db.prepare(
      "SELECT evaluator, intervention, value FROM evaluation WHERE episode_id = ? AND intervention LIKE 'agents:%' ORDER BY evaluator, intervention",
    );
    this.keyStmt = db.prepare(
      'SELECT run_id, train_step, group_id, sample_idx, episode_id FROM episode WHERE episode_id = ?',
    );
    // Each navigation statement reads part of the episode's sort key: bind only the names it uses.
    const lookup = (sql: string): ((key: AdjacentKey) => number | undefined) => {
      const statement = db.prepare<{ episode_id: number }>(sql);
      return (key) => statement.get(valuesFor(sql, key))?.episode_id;
    };
    this.adjacentLookups = {
      nextInStep: lookup(adjacentSql.nextInStep),
      previousInStep: lookup(adjacentSql.previousInStep),
      nextStep: lookup(adjacentSql.nextStep),
      previousStep: lookup(adjacentSql.previousStep),
      lastWithoutStep: lookup(adjacentSql.lastWithoutStep),
    };
  }

  /** The episode's index row; undefined when there is no such episode. */
  header(episodeId: number): EpisodeHeader | undefined {
    return this.headerStmt.get(episodeId);
  }

  /** The roster in ordinal order: declared agents, then other speakers. */
  roster(episodeId: number): RosterAgent[] {
    return this.rosterStmt.all(episodeId).map((r) => ({ ...r, declared: sqlBoolean(r.declared) }));
  }

  /** Agent names of a run by agent id (coalition keys may name agents outside an episode's roster). */
  agentNames(runId: number): Map<number, string> {
    return new Map(this.runAgentsStmt.all(runId).map((r) => [r.agentId, r.name]));
  }

  /** Labels by message (labels without a message last), then in trace order. */
  labels(episodeId: number): EpisodeLabel[] {
    return this.labelsStmt.all(episodeId);
  }

  /** The roster ordinal of each message's author, in message order; undefined for an unknown episode. */
  messageAuthors(episodeId: number): number[] | undefined {
    return this.messageIndex(episodeId)?.ordinals;
  }

  /**
   * Author, channel, token count and token detail of every message (one packed column,
   * parsed once); undefined for an unknown episode. Entries that are not arrays read as ordinal -1.
   */
  messageIndex(episodeId: number): StoredMessageIndex | undefined {
    const row = this.authorsStmt.get(episodeId);
    if (!row) return undefined;
    // Each entry: [roster ordinal, turn, role, channel, n_chars, n_tokens, has_tokens] (migration 0001).
    const entries = JSON.parse(row.messagesJson) as unknown[];
    const index: StoredMessageIndex = { ordinals: [], channels: [], tokens: [], hasTokens: [] };
    for (const entry of entries) {
      const m = Array.isArray(entry) ? (entry as unknown[]) : [];
      index.ordinals.push(typeof m[0] === 'number' ? m[0] : -1);
      index.channels.push(typeof m[3] === 'string' ? m[3] : null);
      index.tokens.push(typeof m[5] === 'number' ? m[5] : null);
      index.hasTokens.push(m[6] === 1 || m[6] === true);
    }
    return index;
  }

  /** The episode's metadata as stored (JSON text); null when it has none or there is no such episode. */
  metadataJson(episodeId: number): string | null {
    return this.metadataStmt.get(episodeId)?.metadataJson ?? null;
  }

  /** The episode's logged routing decision; undefined when it logs none. */
  routing(episodeId: number): StoredRouting | undefined {
    return this.routingStmt.get(episodeId);
  }

  /** Rows of the parameter set computed last for this episode and method: agent rows first, then messages by seq. */
  credit(episodeId: number, method: string): EpisodeCreditRow[] {
    return this.creditStmt
      .all({ episode: episodeId, method })
      .map((r) => ({ ...r, approximate: sqlBoolean(r.approximate) }));
  }

  /** The most recent failure of this method on the episode, if any (of any parameter set). */
  latestError(
    episodeId: number,
    method: string,
  ): { reason: string; computedAt: string; status: string; remedy: string | null } | undefined {
    return this.errorStmt.get(episodeId, method);
  }

  evidence(episodeId: number): CoalitionEvidence {
    const r = this.evidenceStmt.get({ episode: episodeId });
    return {
      coalitions: r?.coalitions === 1,
      counterfactuals: r?.counterfactuals === 1,
      agentEvaluations: r?.agentEvaluations === 1,
      messageEvaluations: r?.messageEvaluations === 1,
      routing: r?.routing === 1,
    };
  }

  counterfactuals(episodeId: number): StoredCounterfactual[] {
    return this.counterfactualsStmt.all(episodeId);
  }

  coalitions(episodeId: number): StoredCoalitions[] {
    return this.coalitionsStmt.all(episodeId);
  }

  /** Cached evaluator results over agent subsets. */
  evaluations(episodeId: number): StoredEvaluation[] {
    return this.evaluationsStmt.all(episodeId);
  }

  /**
   * The next or previous episode of the same run in (train_step, group_id, sample_idx, episode_id)
   * order, NULLs first; undefined at either end or for an unknown episode.
   */
  adjacent(episodeId: number, direction: 'next' | 'previous'): number | undefined {
    const key = this.keyStmt.get(episodeId);
    if (!key) return undefined;
    const s = this.adjacentLookups;
    const first = (...lookups: ((key: AdjacentKey) => number | undefined)[]): number | undefined => {
      for (const find of lookups) {
        const id = find(key);
        if (id !== undefined) return id;
      }
      return undefined;
    };
    if (direction === 'next') return first(s.nextInStep, s.nextStep);
    return key.train_step === null
      ? first(s.previousInStep)
      : first(s.previousInStep, s.previousStep, s.lastWithoutStep);
  }
}
