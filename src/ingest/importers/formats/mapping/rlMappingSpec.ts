import { err, ok, type Result } from '../../../../core/result';
import { isRecord, type JsonRecord } from '../common/rlFields';
import { parsePath, type JsonPath } from './rlPath';
import { kindOf } from '../common/rlVerlRecord';

// The declarative mapping file, `credit-lens.mapping.json` (docs/mapping.md,
// schema/mapping.v1.schema.json), validated into a typed spec with readable errors.

/** Where a field's value comes from: a path into the episode (or message, agent) object, or a constant. */
/** Where a field's value comes from: a path (with `match`, the first capture group of a regular expression applied to its text) or a constant. */
export type FieldSource =
  { readonly path: JsonPath; readonly match?: RegExp } | { readonly value: string | number | boolean };

export const episodeFields = [
  'id',
  'step',
  'group',
  'sample',
  'task',
  'split',
  'prompt',
  'reward',
  'groundTruth',
  'final',
  'finalAgent',
  'agentRewards',
  'advantages',
] as const;
export const messageFields = ['agent', 'content', 'role', 'turn', 'channel', 'tokenCount'] as const;
export const agentFields = ['name', 'kind', 'policy', 'description', 'trainable'] as const;

export type EpisodeField = (typeof episodeFields)[number];
export type MessageField = (typeof messageFields)[number];
export type AgentField = (typeof agentFields)[number];

/** A validated mapping file. */
export interface MappingSpec {
  readonly format: string;
  readonly label: string;
  readonly container: 'jsonl' | 'json';
  readonly records?: 'root' | 'array' | { readonly property: string };
  readonly fileNames?: readonly string[];
  /** The root property naming the columns of array rows (a wandb table's `columns`): each row `[v0, v1, …]` is read as `{column0: v0, …}`. */
  readonly columns?: string;
  /** Selects the episode objects inside a record (default `$`: the record is the episode). */
  readonly episodes?: JsonPath;
  readonly episode: Readonly<Partial<Record<EpisodeField, FieldSource>>>;
  readonly metadata?: Readonly<Record<string, FieldSource>>;
  readonly messages: { readonly path: JsonPath; readonly fields: Readonly<Partial<Record<MessageField, FieldSource>>> };
  readonly agents?:
    | { readonly names: readonly string[] }
    | { readonly path: JsonPath; readonly fields: Readonly<Partial<Record<AgentField, FieldSource>>> };
}

class SpecError extends Error {
  constructor(
    readonly at: string,
    message: string,
  ) {
    super(message);
  }
}

const topFields = [
  '$schema',
  'version',
  'format',
  'label',
  'container',
  'records',
  'columns',
  'fileNames',
  'episodes',
  'episode',
  'messages',
  'agents',
];

/**
 * Validates a parsed mapping file. Errors name the file and the field:
 * `mapping.json: episode.id: expected a path like "$.id", got "uid"`. Unknown fields are errors
 * (a misspelt field would otherwise be silently ignored).
 */
export function parseMappingSpec(value: unknown, source = 'mapping.json'): Result<MappingSpec> {
  try {
    return ok(readSpec(value));
  } catch (error) {
    if (error instanceof SpecError) return err(`${source}: ${error.at === '' ? '' : `${error.at}: `}${error.message}`);
    throw error;
  }
}

function readSpec(value: unknown): MappingSpec {
  const spec = object(value, '');
  allowOnly(spec, topFields, '');
  if (spec['version'] !== undefined && spec['version'] !== '1' && spec['version'] !== 1)
    throw new SpecError('version', `only version "1" is understood, got ${JSON.stringify(spec['version'])}`);
  const container = spec['container'] ?? 'jsonl';
  if (container !== 'jsonl' && container !== 'json')
    throw new SpecError('container', `expected "jsonl" or "json", got ${JSON.stringify(container)}`);
  const format = formatName(spec['format']);
  const episode = object(spec['episode'] ?? {}, 'episode');
  allowOnly(episode, [...episodeFields, 'metadata'], 'episode');
  return withoutUndefined({
    format,
    label: optionalText(spec['label'], 'label') ?? `${format} (mapping file)`,
    container,
    records: records(spec['records'], container),
    fileNames: fileNames(spec['fileNames']),
    columns: columnsOf(spec['columns'], spec['records']),
    episodes: spec['episodes'] === undefined ? undefined : path(spec['episodes'], 'episodes', true),
    episode: fieldMap(episode, episodeFields, 'episode'),
    metadata: episode['metadata'] === undefined ? undefined : metadataMap(episode['metadata']),
    messages: messagesSpec(spec['messages']),
    agents: spec['agents'] === undefined ? undefined : agentsSpec(spec['agents']),
  });
}

function formatName(value: unknown): string {
  if (typeof value !== 'string' || !/^[a-z0-9][a-z0-9._-]{0,63}$/.test(value)) {
    throw new SpecError(
      'format',
      `expected a format name of lower-case letters, digits, ".", "_" or "-" (e.g. "my-logs"), got ${value === undefined ? 'nothing' : JSON.stringify(value)}`,
    );
  }
  return value;
}

function records(value: unknown, container: string): MappingSpec['records'] {
  if (value === undefined) return container === 'json' ? 'array' : undefined;
  if (container !== 'json')
    throw new SpecError('records', 'applies only to the "json" container (a JSONL line is always one record)');
  if (value === 'root' || value === 'array') return value;
  if (
    isRecord(value) &&
    typeof value['property'] === 'string' &&
    value['property'] !== '' &&
    Object.keys(value).length === 1
  )
    return { property: value['property'] };
  throw new SpecError('records', `expected "root", "array" or {"property": "name"}, got ${JSON.stringify(value)}`);
}

function columnsOf(value: unknown, recordsValue: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '')
    throw new SpecError(
      'columns',
      'expected the name of the root property that lists the column names, e.g. "columns"',
    );
  if (!isRecord(recordsValue) || typeof recordsValue['property'] !== 'string')
    throw new SpecError('columns', 'needs "records": {"property": "data"} (the rows) in a "json" container');
  return value;
}

function fileNames(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    !value.every((v) => typeof v === 'string' && v !== '' && v.length <= 200)
  ) {
    throw new SpecError('fileNames', 'expected a non-empty list of file-name patterns such as "*.jsonl"');
  }
  return value as string[];
}

function messagesSpec(value: unknown): MappingSpec['messages'] {
  if (value === undefined)
    throw new SpecError('messages', 'is required: {"path": "$.turns[*]", "agent": "$.speaker", "content": "$.text"}');
  const messages = object(value, 'messages');
  allowOnly(messages, ['path', ...messageFields], 'messages');
  if (messages['path'] === undefined)
    throw new SpecError('messages.path', 'is required (the path of the message list, e.g. "$.turns[*]")');
  for (const key of ['agent', 'content'] as const)
    if (messages[key] === undefined) throw new SpecError(`messages.${key}`, 'is required');
  return { path: path(messages['path'], 'messages.path', true), fields: fieldMap(messages, messageFields, 'messages') };
}

function agentsSpec(value: unknown): MappingSpec['agents'] {
  if (Array.isArray(value)) {
    if (!value.every((v) => typeof v === 'string' && v !== ''))
      throw new SpecError('agents', 'expected a list of agent names or {"path": …, "name": …}');
    return { names: value as string[] };
  }
  const agents = object(value, 'agents');
  allowOnly(agents, ['path', ...agentFields], 'agents');
  if (agents['path'] === undefined || agents['name'] === undefined)
    throw new SpecError('agents', 'needs "path" (the roster list) and "name"');
  return { path: path(agents['path'], 'agents.path', true), fields: fieldMap(agents, agentFields, 'agents') };
}

function metadataMap(value: unknown): Record<string, FieldSource> {
  const map = object(value, 'episode.metadata');
  const out: Record<string, FieldSource> = {};
  for (const [key, v] of Object.entries(map)) out[key] = field(v, `episode.metadata.${key}`);
  return out;
}

function fieldMap<K extends string>(obj: JsonRecord, keys: readonly K[], at: string): Partial<Record<K, FieldSource>> {
  const out: Partial<Record<K, FieldSource>> = {};
  for (const key of keys) if (obj[key] !== undefined) out[key] = field(obj[key], `${at}.${key}`);
  return out;
}

const maxPatternLength = 200;

function field(value: unknown, at: string): FieldSource {
  if (typeof value === 'string') return { path: path(value, at, false) };
  if (isRecord(value) && 'match' in value) return matchField(value, at);
  if (isRecord(value) && Object.keys(value).length === 1 && 'const' in value) {
    const constant = value['const'];
    if (
      typeof constant === 'string' ||
      typeof constant === 'boolean' ||
      (typeof constant === 'number' && Number.isFinite(constant))
    )
      return { value: constant };
  }
  throw new SpecError(
    at,
    `expected a path like "$.id", {"path": "$file", "match": "step_(\\d+)"} or {"const": value}, got ${kindOf(value)}`,
  );
}

/** `{"path": "$file", "match": "step_(\\d+)"}`: the path's text through a regular expression (its first capture group, else the whole match). */
function matchField(value: JsonRecord, at: string): FieldSource {
  allowOnly(value, ['path', 'match'], at);
  const pattern = value['match'];
  if (typeof pattern !== 'string' || pattern === '' || pattern.length > maxPatternLength)
    throw new SpecError(
      `${at}.match`,
      `expected a regular expression of at most ${maxPatternLength} characters, e.g. "step_(\\d+)"`,
    );
  let match: RegExp;
  try {
    match = new RegExp(pattern, 'u');
  } catch (error) {
    throw new SpecError(`${at}.match`, `not a regular expression: ${(error as Error).message}`);
  }
  return { path: path(value['path'], `${at}.path`, false), match };
}

function path(value: unknown, at: string, multiAllowed: boolean): JsonPath {
  if (typeof value !== 'string') throw new SpecError(at, `expected a path like "$.id", got ${kindOf(value)}`);
  const parsed = parsePath(value);
  if (!parsed.ok) throw new SpecError(at, parsed.error);
  if (parsed.value.multi && !multiAllowed) {
    throw new SpecError(
      at,
      `${JSON.stringify(value)} selects several values ("*"); wildcards belong in "episodes", "messages.path" and "agents.path"`,
    );
  }
  return parsed.value;
}

function object(value: unknown, at: string): JsonRecord {
  if (!isRecord(value)) throw new SpecError(at, `expected an object, got ${kindOf(value)}`);
  return value;
}

function optionalText(value: unknown, at: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new SpecError(at, 'expected non-empty text');
  return value;
}

function allowOnly(obj: JsonRecord, allowed: readonly string[], at: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key))
      throw new SpecError(
        at === '' ? key : `${at}.${key}`,
        `unknown field (expected one of ${allowed.filter((k) => k !== '$schema').join(', ')})`,
      );
  }
}

function withoutUndefined<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}
