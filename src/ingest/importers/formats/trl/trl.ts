import type { AgentDecl, Episode, Message } from '../../../../core/episode';
import { err, ok, type Result } from '../../../../core/result';
import type { DetectionSample, FormatMapper, RecordContext } from '../../types';
import { singlePolicy } from '../common/rlAgents';
import {
  definedFields,
  integerOf,
  isRecord,
  jsonSafe,
  nonEmpty,
  scoreOf,
  shareOf,
  shortHash,
  textOf,
  type JsonRecord,
} from '../common/rlFields';
import { kindOf, optional } from '../common/rlVerlRecord';

/**
 * TRL `GRPOTrainer(log_completions=True)` parquet files, `completions/completions_{step:05d}.parquet`
 * (trace-formats.md §2.9, §6): one episode per row, by the single policy (or the run's only agent).
 *
 * - `prompt` (chat-template-rendered text) is the prompt; `completion` the policy's message (a
 *   conversational completion, a list of `{role, content}`, gives one message per entry);
 * - the reward columns are the numeric columns other than `step` and `advantage`, narrowed to
 *   those whose name contains `reward` when any does (so numeric `log_extra` columns such as token
 *   counts are not summed); `reward` is their sum, as TRL sums its reward functions (skipping
 *   null, i.e. "not applicable"), each times its run.json `rewardWeights` entry (TRL's
 *   `reward_weights`, default 1); each unweighted value is kept in `metadata.rewards`;
 * - `advantage` → `advantages[policy]`; other columns → `metadata.metrics` / `metadata.fields`;
 * - `step` is the `step` column, else the file name's number.
 *
 * TRL stamps every row of its rolling buffer (`_logs`, deques of `generation_batch_size`) with the
 * *current* step, so with `num_iterations` or `steps_per_generation > 1` the same rows recur in
 * consecutive files (§7). The id is the row's place (`trl-completions_00010-3`): equal rows in a
 * file are distinct rollouts (identical short answers are routine in a GRPO group), and
 * `dedupeRepeats` lets the indexer skip, and count, the leading rows of a file that re-dump the
 * previous file's trailing rows. The first file (the lowest step) keeps the row.
 */
export const trlMapper: FormatMapper = {
  format: 'trl',
  label: 'TRL GRPO completions (parquet)',
  containers: ['parquet'],
  dedupeRepeats: true,
  detect: detectTrl,
  toEpisodes: (record, context) => {
    const episode = trlEpisode(record, context);
    return episode.ok ? ok([episode.value]) : episode;
  },
};

const reservedColumns: ReadonlySet<string> = new Set(['step', 'prompt', 'completion', 'advantage', 'image']);

/** 0.9 × the share of rows with `prompt` and `completion` columns, plus 0.05 for a `completions_N.parquet` name. */
function detectTrl(sample: DetectionSample): number {
  if (sample.container !== 'parquet') return 0;
  const share = shareOf(sample.records, (r) => isRecord(r) && 'prompt' in r && 'completion' in r);
  return share === 0 ? 0 : 0.9 * share + (trlStepFromFileName(sample.fileName) !== undefined ? 0.05 : 0);
}

/** The step in a `completions_{step:05d}.parquet` name; undefined for other names. */
export function trlStepFromFileName(fileName: string): number | undefined {
  const match = /^completions_(\d+)\.parquet$/i.exec(fileName);
  return match?.[1] === undefined ? undefined : integerOf(match[1]);
}

function trlEpisode(row: unknown, context: RecordContext): Result<Episode> {
  if (!isRecord(row)) return err(`expected a row object with "prompt" and "completion", got ${kindOf(row)}`);
  const prompt = promptText(row['prompt']);
  if (prompt === undefined)
    return err(row['prompt'] == null ? 'missing "prompt"' : `"prompt": expected text, got ${kindOf(row['prompt'])}`);
  const policy = singlePolicy(context.roster);
  const messages = completionMessages(row['completion'], policy.name);
  if (messages === undefined)
    return err(
      row['completion'] == null
        ? 'missing "completion"'
        : `"completion": expected text, got ${kindOf(row['completion'])}`,
    );
  const step = integerOf(row['step']) ?? trlStepFromFileName(context.fileName);
  const advantage = scoreOf(row['advantage']);
  const columns = rewardColumns(row);
  const unweighable = unknownWeights(row, columns, context.rewardWeights);
  if (unweighable !== undefined) return err(unweighable);
  const task = shortHash(prompt);
  return ok(
    definedFields({
      id: `trl-${context.fileName.replace(/\.parquet$/i, '')}-${context.index}`,
      ...optional('step', step),
      group: step === undefined ? task : `s${step}-${task}`,
      task,
      prompt,
      agents: agentsOf(policy, messages),
      messages,
      reward: sumOf(columns.rewards, context.rewardWeights),
      advantages: advantage === undefined ? undefined : { [policy.name]: advantage },
      metadata: metadataOf(columns),
    }) as Episode,
  );
}

function promptText(value: unknown): string | undefined {
  if (Array.isArray(value)) return JSON.stringify(jsonSafe(value));
  return textOf(value);
}

/** The completion as messages: one policy message, or one per `{role, content}` of a conversational completion. */
function completionMessages(value: unknown, policy: string): Message[] | undefined {
  const text = textOf(value);
  if (text !== undefined) return [{ agent: policy, role: 'assistant', content: text }];
  if (!Array.isArray(value)) return undefined;
  return value.filter(isRecord).map((m) => {
    const role = typeof m['role'] === 'string' ? m['role'] : 'assistant';
    const content = textOf(m['content']) ?? JSON.stringify(jsonSafe(m['content']) ?? '');
    return definedFields({
      agent: role === 'assistant' ? policy : role,
      role,
      channel: role === 'tool' ? 'tool_result' : undefined,
      content,
    });
  });
}

function agentsOf(policy: AgentDecl, messages: readonly Message[]): AgentDecl[] {
  const tool = messages.some((m) => m.agent === 'tool') ? [{ name: 'tool', kind: 'tool' } as const] : [];
  return [policy, ...tool];
}

interface Columns {
  readonly rewards: Record<string, number>;
  readonly metrics: Record<string, number>;
  readonly fields: Record<string, unknown>;
}

/**
 * Sorts the non-reserved columns into reward functions, other numbers, and other values. TRL's
 * `log()` writes `step, prompt, completion, *rewards, *extra, advantage`: the reward columns are
 * the numeric (or NaN/null: a function that returned None) columns after `completion`, up to the
 * first `log_extra` column that is not a number; numeric columns after it are metrics.
 */
function rewardColumns(row: JsonRecord): Columns {
  const rewards: Record<string, number> = {};
  const metrics: Record<string, number> = {};
  const fields: Record<string, unknown> = {};
  let inRewards = true;
  for (const [key, value] of Object.entries(row)) {
    if (reservedColumns.has(key)) continue;
    const missing = value === null || value === undefined || (typeof value === 'number' && Number.isNaN(value));
    const n = typeof value === 'string' ? undefined : scoreOf(value);
    if (n === undefined && !missing) inRewards = false;
    if (n !== undefined) (inRewards ? rewards : metrics)[key] = n;
    else if (!missing && jsonSafe(value) !== undefined) fields[key] = jsonSafe(value);
  }
  return { rewards, metrics, fields };
}

/**
 * Why the run's `rewardWeights` do not fit this row: a weight names no reward column (TRL itself
 * rejects `reward_weights` that do not match its reward functions). Undefined when they fit. A
 * column that is present but null/NaN (the function returned None) is a reward column.
 */
function unknownWeights(
  row: JsonRecord,
  columns: Columns,
  weights: Readonly<Record<string, number>> | undefined,
): string | undefined {
  if (weights === undefined) return undefined;
  const rewardNames = Object.keys(row).filter(
    (key) => !reservedColumns.has(key) && !(key in columns.metrics) && !(key in columns.fields),
  );
  const unknown = Object.keys(weights).filter((name) => !rewardNames.includes(name));
  if (unknown.length === 0) return undefined;
  const names = unknown.map((n) => `"${n}"`).join(', ');
  return `run.json rewardWeights: ${names} ${unknown.length === 1 ? 'is' : 'are'} not a reward column of this file (reward columns: ${rewardNames.join(', ') || 'none'})`;
}

/** TRL's `(rewards_per_func * reward_weights).nansum()`: weights default to 1; undefined when every function returned None. */
function sumOf(
  values: Readonly<Record<string, number>>,
  weights: Readonly<Record<string, number>> = {},
): number | undefined {
  const entries = Object.entries(values);
  return entries.length === 0 ? undefined : entries.reduce((a, [key, n]) => a + (weights[key] ?? 1) * n, 0);
}

function metadataOf(columns: Columns): Record<string, unknown> | undefined {
  return nonEmpty(
    definedFields({
      rewards: nonEmpty(columns.rewards),
      metrics: nonEmpty(columns.metrics),
      fields: nonEmpty(columns.fields),
    }),
  );
}
