import { explainMismatch } from './rlMappingMismatch';
import type { AgentDecl, AgentKind, Episode, Message } from '../../../../core/episode';
import { err, ok, type Result } from '../../../../core/result';
import type { DetectionSample, FormatMapper, RecordContext } from '../../types';
import { definedFields, idOf, integerOf, isRecord, jsonSafe, scoreOf, textOf } from '../common/rlFields';
import {
  parseMappingSpec,
  type AgentField,
  type FieldSource,
  type MappingSpec,
  type MessageField,
} from './rlMappingSpec';
import { globMatches, selectEntries, selectIn, type JsonPath, type PathEntry, type PathScope } from './rlPath';
import { kindOf } from '../common/rlVerlRecord';

/**
 * A {@link FormatMapper} from a declarative mapping file (docs/mapping.md,
 * schema/mapping.v1.schema.json): which path of a JSON / JSONL record is the episode, its id, step,
 * group, reward, …, which list holds the messages and which field of a message is the agent and the
 * content. `spec` is the parsed file; `source` names it in errors
 * (`mapping.json: episode.id: expected a path like "$.id", got "uid"`).
 *
 * Detection: 0 for another container or a file name outside `fileNames`; else the share of sampled
 * records that map without error (1.0 when all do, so a mapping the user wrote for a folder wins
 * over the built-in guesses).
 */
export function mapperFromSpec(spec: unknown, source = 'mapping.json', mappingUri = source): Result<FormatMapper> {
  const parsed = parseMappingSpec(spec, source);
  if (!parsed.ok) return parsed;
  const s = parsed.value;
  const mapper: FormatMapper = {
    format: s.format,
    label: s.label,
    containers: [s.container],
    ...(s.records !== undefined ? { jsonRecords: s.records } : {}),
    detect: (sample) => detectMapped(s, mapper, sample),
    toEpisodes: (record, context) => mapRecord(s, record, context),
    explainMismatch: (sample, uri) => explainMismatch(spec, mappingUri, uri, sample),
  };
  return ok(mapper);
}

function detectMapped(spec: MappingSpec, mapper: FormatMapper, sample: DetectionSample): number {
  if (sample.container !== spec.container || sample.records.length === 0) return 0;
  if (spec.fileNames && !spec.fileNames.some((p) => globMatches(p, sample.fileName))) return 0;
  const header = isRecord(sample.root) ? sample.root : undefined;
  const context = (index: number): RecordContext => ({
    uri: sample.fileName,
    fileName: sample.fileName,
    index,
    line: index + 1,
    roster: [],
    ...(header ? { header } : {}),
  });
  return sample.records.filter((r, i) => mapper.toEpisodes(r, context(i)).ok).length / sample.records.length;
}

/** Raised while mapping one record; becomes the record's error. */
class MapError extends Error {}

/**
 * A row `[v0, v1, …]` of a table whose column names the root property `spec.columns` lists (a
 * wandb table, `{"columns": [...], "data": [[…], …]}`) as `{column0: v0, …}`; other records as they are.
 */
export function rowObject(spec: MappingSpec, record: unknown, context: RecordContext): Result<unknown> {
  if (spec.columns === undefined) return ok(record);
  const names = context.header?.[spec.columns];
  if (!Array.isArray(names))
    return err(
      `columns: the root property "${spec.columns}" is not a list of column names (it must come before the rows)`,
    );
  if (!Array.isArray(record)) return err(`columns: expected the row to be a list, got ${kindOf(record)}`);
  const row: Record<string, unknown> = {};
  names.forEach((name, i) => {
    if (typeof name === 'string' && i < record.length) row[name] = record[i] as unknown;
  });
  return ok(row);
}

function mapRecord(spec: MappingSpec, raw: unknown, context: RecordContext): Result<Episode[]> {
  const row = rowObject(spec, raw, context);
  if (!row.ok) return row;
  const recordScope: PathScope = { value: row.value, keys: [], file: context.uri };
  const objects = spec.episodes ? selectEntries(spec.episodes, recordScope) : [{ value: row.value, keys: [] }];
  const episodes: Episode[] = [];
  for (let i = 0; i < objects.length; i++) {
    try {
      const scope = childScope(objects[i] as PathEntry, recordScope);
      episodes.push(
        mapEpisode(spec, scope, context, objects.length > 1 || spec.episodes?.multi === true ? i : undefined),
      );
    } catch (error) {
      if (!(error instanceof MapError)) throw error;
      return err(
        spec.episodes?.multi === true ? `episode ${i} (${spec.episodes.text}): ${error.message}` : error.message,
      );
    }
  }
  return ok(episodes);
}

/** The scope of a value a list path selected: its keys, the file, and `^` the scope it was selected in. */
function childScope(entry: PathEntry, parent: PathScope): PathScope {
  return { value: entry.value, keys: entry.keys, ...(parent.file !== undefined ? { file: parent.file } : {}), parent };
}

function mapEpisode(spec: MappingSpec, obj: PathScope, context: RecordContext, index: number | undefined): Episode {
  if (!isRecord(obj.value)) throw new MapError(`expected the episode to be an object, got ${kindOf(obj.value)}`);
  const f = spec.episode;
  const id =
    read(f.id, obj, 'episode.id', idOf) ?? `${context.uri}:${context.line}${index === undefined ? '' : `#${index}`}`;
  const answer = read(f.final, obj, 'episode.final', textOf);
  const finalAgent = read(f.finalAgent, obj, 'episode.finalAgent', idOf);
  return definedFields({
    id,
    step: read(f.step, obj, 'episode.step', integerOf),
    group: read(f.group, obj, 'episode.group', idOf),
    sample: read(f.sample, obj, 'episode.sample', integerOf),
    task: read(f.task, obj, 'episode.task', idOf),
    split: read(f.split, obj, 'episode.split', textOf),
    prompt: read(f.prompt, obj, 'episode.prompt', contentText),
    agents: spec.agents ? roster(spec.agents, obj) : undefined,
    messages: messages(spec.messages, obj),
    final: answer === undefined ? undefined : definedFields({ answer, agent: finalAgent }),
    reward: read(f.reward, obj, 'episode.reward', scoreOf),
    agentRewards: read(f.agentRewards, obj, 'episode.agentRewards', numberRecord),
    advantages: read(f.advantages, obj, 'episode.advantages', numberRecord),
    groundTruth: read(f.groundTruth, obj, 'episode.groundTruth', (v) =>
      typeof v === 'string' ? v : JSON.stringify(jsonSafe(v)),
    ),
    metadata: spec.metadata ? metadata(spec.metadata, obj) : undefined,
  }) as Episode;
}

/**
 * The value of a field: undefined when the spec does not map it, or it is missing or null in the
 * record; else `coerce` of it, an error naming the field and path when `coerce` cannot read it.
 */
function read<T>(
  source: FieldSource | undefined,
  obj: PathScope,
  at: string,
  coerce: (value: unknown) => T | undefined,
): T | undefined {
  if (source === undefined) return undefined;
  const raw = 'path' in source ? matched(source.match, selectIn(source.path, obj)) : source.value;
  if (raw === undefined || raw === null) return undefined;
  const value = coerce(raw);
  if (value === undefined)
    throw new MapError(`${at}: ${'path' in source ? `${source.path.text}: ` : ''}cannot read ${describe(raw)}`);
  return value;
}

/** With `match`: the first capture group (else the whole match) in the value's text; undefined when it does not match. */
function matched(match: RegExp | undefined, raw: unknown): unknown {
  if (match === undefined || raw === undefined || raw === null) return raw;
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  const found = match.exec(String(raw));
  return found ? (found[1] ?? found[0]) : undefined;
}

function required<T>(
  source: FieldSource | undefined,
  obj: PathScope,
  at: string,
  coerce: (value: unknown) => T | undefined,
): T {
  const value = read(source, obj, at, coerce);
  if (value === undefined)
    throw new MapError(`${at}: ${source && 'path' in source ? `${source.path.text} ` : ''}is missing`);
  return value;
}

/**
 * The items a list path selects: the elements of `$.turns`, or every value `$.turns[*]` selects.
 * Undefined when the list is missing (the part before the first wildcard selects nothing).
 */
function optionalItems(path: JsonPath, obj: PathScope, at: string): PathScope[] | undefined {
  if (path.multi) {
    const firstWildcard = path.steps.findIndex((s) => s.kind === 'all');
    const parent = selectIn({ ...path, steps: path.steps.slice(0, firstWildcard), multi: false }, obj);
    return parent === undefined || parent === null
      ? undefined
      : selectEntries(path, obj).map((e) => childScope(e, obj));
  }
  const list = selectIn(path, obj);
  if (list === undefined || list === null) return undefined;
  // `"$"`: the episode object is its own single message (a table row with one sample per agent).
  if (path.steps.length === 0 && !Array.isArray(list)) return [childScope({ value: list, keys: [] }, obj)];
  if (!Array.isArray(list)) throw new MapError(`${at}: ${path.text}: expected a list, got ${kindOf(list)}`);
  return (list as unknown[]).map((value, i) => childScope({ value, keys: [i] }, obj));
}

function items(path: JsonPath, obj: PathScope, at: string): PathScope[] {
  const list = optionalItems(path, obj, at);
  if (list === undefined) throw new MapError(`${at}: ${path.text} is missing`);
  return list;
}

function messages(spec: MappingSpec['messages'], obj: PathScope): Message[] {
  const f: Readonly<Partial<Record<MessageField, FieldSource>>> = spec.fields;
  return items(spec.path, obj, 'messages').map((item, i) => {
    const at = `messages[${i}]`;
    return definedFields({
      agent: required(f.agent, item, `${at}.agent`, idOf),
      turn: read(f.turn, item, `${at}.turn`, integerOf),
      role: read(f.role, item, `${at}.role`, textOf),
      channel: read(f.channel, item, `${at}.channel`, textOf),
      content: read(f.content, item, `${at}.content`, contentText) ?? contentOrMissing(f.content, item, at),
      tokenCount: read(f.tokenCount, item, `${at}.tokenCount`, integerOf),
    });
  });
}

/** A null content is `""`; a missing one is an error (the content path is probably wrong). */
function contentOrMissing(source: FieldSource | undefined, item: PathScope, at: string): string {
  if (source && 'path' in source && selectIn(source.path, item) === null) return '';
  return required(source, item, `${at}.content`, contentText);
}

const agentKinds: readonly AgentKind[] = ['llm', 'tool', 'env', 'human', 'user_sim', 'orchestrator', 'system', 'judge'];

/** The declared roster; undefined (the run.json roster applies) when the record has no roster list. */
function roster(spec: NonNullable<MappingSpec['agents']>, obj: PathScope): AgentDecl[] | undefined {
  if ('names' in spec) return spec.names.map((name) => ({ name, kind: 'llm' }));
  const f: Readonly<Partial<Record<AgentField, FieldSource>>> = spec.fields;
  return optionalItems(spec.path, obj, 'agents')?.map((item, i) =>
    definedFields({
      name: required(f.name, item, `agents[${i}].name`, idOf),
      kind: read(f.kind, item, `agents[${i}].kind`, (v) => agentKinds.find((k) => k === v)) ?? 'llm',
      policy: read(f.policy, item, `agents[${i}].policy`, textOf),
      description: read(f.description, item, `agents[${i}].description`, textOf),
      trainable: read(f.trainable, item, `agents[${i}].trainable`, booleanOf),
    }),
  );
}

function metadata(map: Readonly<Record<string, FieldSource>>, obj: PathScope): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, source] of Object.entries(map)) {
    const value = read(source, obj, `episode.metadata.${key}`, jsonSafe);
    if (value !== undefined) out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Message text: a string (numbers and booleans as text), text parts (`[{type: "text", text}]` or strings) joined by newlines, else JSON. */
function contentText(value: unknown): string | undefined {
  const text = textOf(value);
  if (text !== undefined) return text;
  if (
    Array.isArray(value) &&
    value.every((p) => typeof p === 'string' || (isRecord(p) && typeof p['text'] === 'string'))
  ) {
    return value.map((p) => (typeof p === 'string' ? p : String((p as Record<string, unknown>)['text']))).join('\n');
  }
  const json = jsonSafe(value);
  return json === undefined ? undefined : JSON.stringify(json);
}

function numberRecord(value: unknown): Record<string, number> | undefined {
  if (!isRecord(value)) return undefined;
  const out: Record<string, number> = {};
  for (const [key, v] of Object.entries(value)) {
    const n = scoreOf(v);
    if (n === undefined) return undefined;
    out[key] = n;
  }
  return out;
}

function booleanOf(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

function describe(value: unknown): string {
  const text =
    typeof value === 'string' ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) : kindOf(value);
  return typeof value === 'string' ? text : `a value of type ${text}`;
}
