import type { DetectionSample, RecordContext } from '../../types';
import { isRecord } from '../common/rlFields';
import { mapperFromSpec, rowObject } from './mapping';
import { parseMappingSpec, type FieldSource, type MappingSpec } from './rlMappingSpec';
import { globMatches, selectEntries, type JsonPath, type PathScope } from './rlPath';

// Why a mapping file does not claim a trace file, in words a user can act on:
// `runs/a.json: mapping team-logs.mapping.json: "messages" path "$.turns" found nothing in the
// first 5 records (keys seen: history, meta)`.

const maxKeysShown = 10;

/**
 * Why the mapping `spec` (the file `mappingUri`) does not map the sampled records of `file`:
 * another container, a name outside `fileNames`, the first list or required path that found
 * nothing in any sampled record (with the keys those records have), else the first record's
 * mapping error. Undefined when every sampled record maps.
 */
export function explainMismatch(
  spec: unknown,
  mappingUri: string,
  file: string,
  sample: DetectionSample,
): string | undefined {
  const prefix = `${file}: mapping ${mappingUri}: `;
  const parsed = parseMappingSpec(spec, mappingUri);
  if (!parsed.ok) return `${file}: ${parsed.error}`;
  const reason = reasonOf(parsed.value, spec, sample);
  return reason === undefined ? undefined : prefix + reason;
}

function reasonOf(s: MappingSpec, spec: unknown, sample: DetectionSample): string | undefined {
  if (sample.container !== s.container) return `reads "${s.container}" files, this is a "${sample.container}" file`;
  if (s.fileNames && !s.fileNames.some((p) => globMatches(p, sample.fileName)))
    return `the name ${JSON.stringify(sample.fileName)} matches none of "fileNames" (${s.fileNames.join(', ')})`;
  if (sample.records.length === 0) return 'the file has no records';
  const rows: PathScope[] = [];
  for (let i = 0; i < sample.records.length; i++) {
    const row = rowObject(s, sample.records[i], contextOf(sample, i));
    if (!row.ok) return `record ${i + 1}: ${row.error}`;
    rows.push({ value: row.value, keys: [], file: sample.fileName });
  }
  return missingPath(s, rows, sample.records.length) ?? firstError(spec, sample);
}

function contextOf(sample: DetectionSample, index: number): RecordContext {
  const header = isRecord(sample.root) ? sample.root : undefined;
  return {
    uri: sample.fileName,
    fileName: sample.fileName,
    index,
    line: index + 1,
    roster: [],
    ...(header ? { header } : {}),
  };
}

/** The first of `episodes`, `messages`, `messages.agent`, `messages.content` whose path finds nothing in every sampled record. */
function missingPath(s: MappingSpec, rows: readonly PathScope[], count: number): string | undefined {
  const episodes = s.episodes ? select(s.episodes, rows) : rows;
  if (s.episodes && episodes.length === 0) return nothing('episodes', s.episodes, rows, count);
  const messages = select(s.messages.path, episodes);
  if (messages.length === 0) return nothing('messages', s.messages.path, episodes, count);
  for (const key of ['agent', 'content'] as const) {
    const source: FieldSource | undefined = s.messages.fields[key];
    if (source && 'path' in source && select(source.path, messages).length === 0)
      return nothing(`messages.${key}`, source.path, messages, count);
  }
  return undefined;
}

function select(path: JsonPath, scopes: readonly PathScope[]): PathScope[] {
  return scopes.flatMap((scope) =>
    selectEntries(path, scope)
      .filter((e) => e.value !== undefined && e.value !== null)
      .map((e) => ({
        value: e.value,
        keys: e.keys,
        ...(scope.file !== undefined ? { file: scope.file } : {}),
        parent: scope,
      })),
  );
}

function nothing(field: string, path: JsonPath, scopes: readonly PathScope[], count: number): string {
  const keys = [...new Set(scopes.flatMap((s) => (isRecord(s.value) ? Object.keys(s.value) : [])))];
  const shown =
    keys.length === 0
      ? 'no object keys'
      : `keys seen: ${keys.slice(0, maxKeysShown).join(', ')}${keys.length > maxKeysShown ? ', …' : ''}`;
  return `${JSON.stringify(field)} path ${JSON.stringify(path.text)} found nothing in the first ${count} record${count === 1 ? '' : 's'} (${shown})`;
}

/** The first sampled record's mapping error, with its record number. */
function firstError(spec: unknown, sample: DetectionSample): string | undefined {
  const mapper = mapperFromSpec(spec);
  if (!mapper.ok) return mapper.error;
  for (let i = 0; i < sample.records.length; i++) {
    const result = mapper.value.toEpisodes(sample.records[i], contextOf(sample, i));
    if (!result.ok) return `record ${i + 1}: ${result.error}`;
  }
  return undefined;
}
