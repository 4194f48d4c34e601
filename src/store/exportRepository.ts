import type { CreditOutputRow } from './creditRepository';
import { newestSetsSql } from './creditSets';
import type { ShardSet } from './shardSet';
import { standingParamsSql } from './standingParams';

// The export rows stay snake_case on purpose: their names are the Parquet / CSV columns users read.

/** One episode as exported: its identity, outcome and where its record is in its trace file. */
export interface ExportEpisodeRow {
  readonly shard: number;
  readonly run: string;
  readonly run_root: string;
  readonly episode_id: string;
  readonly task_id: string | null;
  readonly group_id: string | null;
  readonly sample_idx: number | null;
  readonly step: number | null;
  readonly split: string | null;
  readonly reward: number | null;
  readonly final_answer: string | null;
  readonly final_agent: string | null;
  readonly n_agents: number;
  readonly n_messages: number;
  readonly n_tokens: number | null;
  readonly source: string;
  readonly format: string;
  readonly line: number;
  readonly byte_offset: number;
  readonly byte_length: number;
}

/** One message as exported, without its text (the index does not hold it: see the episode's source and offset). */
export interface ExportMessageRow {
  readonly shard: number;
  readonly run: string;
  readonly episode_id: string;
  readonly step: number | null;
  readonly seq: number;
  readonly agent: string;
  readonly turn: number | null;
  readonly role: string | null;
  readonly channel: string | null;
  readonly n_chars: number;
  readonly n_tokens: number | null;
  readonly has_token_ids: number | null;
}

/** One stored credit value: episode-, message-, group- or run-level (the credit columns as the CLI prints them). */
export interface ExportCreditRow extends Pick<
  CreditOutputRow,
  'group_id' | 'message_seq' | 'method' | 'value' | 'stderr' | 'ci_low' | 'ci_high' | 'advantage' | 'source'
> {
  readonly shard: number;
  readonly run: string;
  readonly scope_kind: string;
  readonly scope_id: string;
  readonly episode_id: string | null;
  readonly step: number | null;
  readonly reward: number | null;
  readonly agent: string;
  readonly n: number | null;
  readonly status: string;
  readonly intervention: string | null;
  readonly params_hash: string;
  /** 1 when the row is of the run's latest parameter set for its method (what the summaries read). */
  readonly latest: number;
  readonly computed_at: string;
}

/** One stored audit flag with its evidence. */
export interface ExportFlagRow {
  readonly shard: number;
  readonly run: string;
  readonly scope_kind: string;
  readonly scope_id: string;
  readonly agent: string | null;
  readonly kind: string;
  readonly score: number | null;
  readonly evidence_json: string | null;
  readonly computed_at: string;
}

/**
 * `WITH latest AS …`: the parameter set standing for each run's method (standingParams.ts), in one
 * shard, from the set written last (creditSets.ts). MATERIALIZED: found once per query;
 * flattened into a join, SQLite would look it up again for every credit row.
 */
export function withLatestParams(s: string): string {
  return `WITH latest AS MATERIALIZED (SELECT n.run_id, n.method, ${standingParamsSql(s, 'n.run_id', 'n.method', 'n.params_hash')} AS params_hash
    FROM (${newestSetsSql(s)}) n)`;
}

// Only columns a researcher joins or aggregates on: never run.config_json / evaluator_json nor
// credit.params_json, which can hold an evaluator's command line or a model server's settings.
const episodesSql = (s: string): string => `
  SELECT r.name AS run, r.root AS run_root, e.external_id AS episode_id, e.task_id, e.group_id, e.sample_idx,
    e.train_step AS step, e.split, e.outcome AS reward, e.final_answer, fa.name AS final_agent,
    (SELECT count(*) FROM ${s}.episode_agent ea WHERE ea.episode_id = e.episode_id) AS n_agents,
    e.n_messages, e.n_tokens, src.uri AS source, src.format, e.line, e.byte_offset, e.byte_length
  FROM ${s}.episode e JOIN ${s}.run r ON r.run_id = e.run_id JOIN ${s}.source src ON src.source_id = e.source_id
  LEFT JOIN ${s}.agent fa ON fa.agent_id = e.final_agent_id`;

// messages_json holds one [roster ordinal, turn, role, channel, n_chars, n_tokens, has_tokens] per message.
const messagesSql = (s: string): string => `
  SELECT r.name AS run, e.external_id AS episode_id, e.train_step AS step, j.key AS seq, a.name AS agent,
    j.value ->> 1 AS turn, j.value ->> 2 AS role, j.value ->> 3 AS channel, j.value ->> 4 AS n_chars,
    j.value ->> 5 AS n_tokens, j.value ->> 6 AS has_token_ids
  FROM ${s}.episode e JOIN ${s}.run r ON r.run_id = e.run_id, json_each(e.messages_json) j
  JOIN ${s}.episode_agent ea ON ea.episode_id = e.episode_id AND ea.ordinal = j.value ->> 0
  JOIN ${s}.agent a ON a.agent_id = ea.agent_id`;

const creditSql = (s: string): string => `
  SELECT r.name AS run, c.scope_kind, c.scope_id, e.external_id AS episode_id, e.train_step AS step, e.group_id,
    e.outcome AS reward, a.name AS agent, c.message_seq, c.method, c.value, c.stderr, c.ci_low, c.ci_high,
    c.advantage, c.n, c.status, c.source, c.intervention, c.params_hash,
    l.run_id IS NOT NULL AS latest, c.computed_at
  FROM ${s}.credit c JOIN ${s}.run r ON r.run_id = c.run_id JOIN ${s}.agent a ON a.agent_id = c.agent_id
  LEFT JOIN ${s}.episode e ON e.episode_id = c.episode_id
  LEFT JOIN latest l ON l.run_id = c.run_id AND l.method = c.method AND l.params_hash = c.params_hash`;

const flagsSql = (s: string): string => `
  SELECT r.name AS run, f.scope_kind, f.scope_id, a.name AS agent, f.kind, f.score, f.evidence_json, f.computed_at
  FROM ${s}.flag f JOIN ${s}.run r ON r.run_id = f.run_id LEFT JOIN ${s}.agent a ON a.agent_id = f.agent_id`;

/** The four exported tables of a set of indexes, each a stream of rows over every shard in shard order. */
export class ExportRepository {
  constructor(private readonly shards: ShardSet) {}

  episodes(): Generator<ExportEpisodeRow> {
    return this.shards.rows<ExportEpisodeRow>(episodesSql);
  }

  messages(): Generator<ExportMessageRow> {
    return this.shards.rows<ExportMessageRow>(messagesSql);
  }

  credit(): Generator<ExportCreditRow> {
    return this.shards.rows<ExportCreditRow>((s) => `${withLatestParams(s)} ${creditSql(s)}`);
  }

  flags(): Generator<ExportFlagRow> {
    return this.shards.rows<ExportFlagRow>(flagsSql);
  }
}
