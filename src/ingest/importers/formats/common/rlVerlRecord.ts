import type { Episode } from '../../../../core/episode';
import { err, ok, type Result } from '../../../../core/result';
import type { RecordContext } from '../../types';
import { declaredSplit, type SplitKind } from '../../../../core/split';
import { extraFields, integerOf, isRecord, jsonTextOf, scoreOf, shortHash, type JsonRecord } from './rlFields';

/** The fields every verl `_dump_generations` line has (trace-formats.md §2.1), read defensively. */
export interface VerlRecord {
  readonly input: string;
  readonly output: string;
  /** `step`, else the `{step}.jsonl` file name. */
  readonly step?: number;
  /** `score` (number, numeric string or boolean). */
  readonly score?: number;
  /** `gts` as text (since verl v0.6.0). */
  readonly groundTruth?: string;
  /** Every other key: `reward_extra_info` keys (`acc`, `pred`, …) and recipe keys (CCPO's §2.2). */
  readonly extras: JsonRecord;
}

const verlKeys: ReadonlySet<string> = new Set(['input', 'output', 'gts', 'score', 'step']);

/** Reads the verl fields of one line; `missing "output"` style errors for a line that is not verl. */
export function readVerlRecord(record: unknown, fileName: string): Result<VerlRecord> {
  if (!isRecord(record)) return err(`expected a JSON object with "input" and "output", got ${kindOf(record)}`);
  for (const key of ['input', 'output'] as const) {
    if (record[key] === undefined || record[key] === null) return err(`missing "${key}"`);
    if (typeof record[key] !== 'string') return err(`"${key}": expected text, got ${kindOf(record[key])}`);
  }
  return ok({
    input: record['input'] as string,
    output: record['output'] as string,
    ...optional('step', integerOf(record['step']) ?? verlStepFromFileName(fileName)),
    ...optional('score', scoreOf(record['score'])),
    ...optional('groundTruth', jsonTextOf(record['gts'])),
    extras: extraFields(record, verlKeys),
  });
}

/**
 * The identity of a verl line's episode (trace-formats.md §6, §7 "GRPO groups"): the id is the
 * record's place (`uri:line`, unique even when two samples are identical); the task is a hash of the
 * prompt; the GRPO group is `s{step}-{task}` (the same step and identical `input`), prefixed with
 * `val-` for validation dumps so they never join training groups. verl logs no sample index; a
 * `rollout_idx` or `sample_index` key (PettingLLMs-style patches) is used when present. The split
 * is run.json's `splits` for the file's folder, else {@link splitFromUri}.
 */
export function verlIdentity(
  v: VerlRecord,
  context: RecordContext,
): Pick<Episode, 'id' | 'step' | 'group' | 'sample' | 'task' | 'split' | 'prompt' | 'groundTruth'> {
  const task = shortHash(v.input);
  const split = verlSplit(context);
  const group = `${split === 'validation' ? 'val-' : ''}${v.step !== undefined ? `s${v.step}-` : ''}${task}`;
  const sample = integerOf(v.extras['rollout_idx']) ?? integerOf(v.extras['sample_index']);
  return {
    id: `${context.uri}:${context.line}`,
    ...optional('step', v.step),
    group,
    ...optional('sample', sample !== undefined && sample >= 0 ? sample : undefined),
    task,
    ...optional('split', split),
    prompt: v.input,
    ...optional('groundTruth', v.groundTruth),
  };
}

/** The split of a verl dump file: run.json's `splits` first, then the name of the folder it sits in. */
export function verlSplit(context: Pick<RecordContext, 'uri' | 'splits'>): SplitKind | undefined {
  return declaredSplit(context.uri, context.splits) ?? splitFromUri(context.uri);
}

// verl writes `trainer.rollout_data_dir` and `trainer.validation_data_dir` dumps with the same
// `{step}.jsonl` names; launch scripts name the folders `rollout`, `rollout_data`, `validation`,
// `val_data`, `validation_data`, `val_generations`, … Only the folder a file sits in is looked at,
// so a run folder such as `search-r1-retrieval-qwen7b/` never makes its `rollout/` a validation dump.
const validationFolder =
  /^(?:val|valid|validation|eval|evaluation|test)(?:[_-]?(?:data|dumps?|generations?|rollouts?|outputs?|samples?|set))?$/;
const trainFolder = /^(?:rollouts?|train|training)(?:[_-]?(?:data|dumps?|generations?|rollouts?|outputs?|samples?))?$/;

/**
 * `validation` for a file directly in a validation-dump folder (`validation/`, `val_data/`,
 * `validation_data/`, `eval/`, …), `train` in a rollout-dump folder (`rollout/`, `rollout_data/`,
 * `rollouts/`, `train/`, …), else undefined (which credit and audit count as training).
 */
export function splitFromUri(uri: string): SplitKind | undefined {
  const folders = uri.split('/');
  const parent = (folders.length > 1 ? folders[folders.length - 2] : undefined)?.toLowerCase();
  if (parent === undefined) return undefined;
  if (validationFolder.test(parent)) return 'validation';
  if (trainFolder.test(parent)) return 'train';
  return undefined;
}

/** True when `record` has verl's shape: text `input` and `output`, and a `score` or `step`. */
export function isVerlShaped(record: unknown): record is JsonRecord {
  return (
    isRecord(record) &&
    typeof record['input'] === 'string' &&
    typeof record['output'] === 'string' &&
    ('score' in record || 'step' in record)
  );
}

/** The step of a verl dump file name, `{global_steps}.jsonl`; undefined for other names. */
export function verlStepFromFileName(fileName: string): number | undefined {
  const match = /^(\d+)\.(?:jsonl|ndjson)$/i.exec(fileName);
  return match?.[1] === undefined ? undefined : integerOf(match[1]);
}

/** `{ [key]: value }`, or nothing when the value is undefined (for spreading into episodes). */
export function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** The JSON kind of a value, for error messages. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
