import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { err, ok, type Result } from '../../core/result';
import { jsonErrorLine } from '../jsonErrorLine';
import { mapperFromSpec } from './formats/mapping/mapping';
import type { FormatMapper } from './types';

/** A declarative mapping file (docs/mapping.md) read as an importer. */
export interface LoadedMapping {
  /** The mapping file, relative to the indexed folder. */
  readonly uri: string;
  /** Its folder (`''` for the indexed folder): it applies to the trace files in it and below. */
  readonly dir: string;
  /** The parsed file, passed to the parse worker, which builds the same importer from it. */
  readonly spec: unknown;
  readonly mapper: FormatMapper;
}

/** A mapping file that cannot be used, located like a trace issue. */
export interface MappingProblem {
  readonly uri: string;
  readonly line: number;
  readonly reason: string;
}

/** `mapping.json` or `<name>.mapping.json`: a mapping file, never read as a trace. */
export function isMappingFileName(name: string): boolean {
  return name === 'mapping.json' || name.endsWith('.mapping.json');
}

/** Reads and validates one mapping file. */
export function loadMapping(root: string, uri: string): Result<LoadedMapping, MappingProblem> {
  let text: string;
  try {
    text = readFileSync(join(root, uri), 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    return err({ uri, line: 0, reason: `cannot read the mapping file: ${(error as Error).message}` });
  }
  let spec: unknown;
  try {
    spec = JSON.parse(text);
  } catch (error) {
    return err({
      uri,
      line: jsonErrorLine(error, text),
      reason: `the mapping file is not valid JSON: ${(error as Error).message}`,
    });
  }
  const mapper = mapperFromSpec(spec, 'invalid mapping file', uri);
  if (!mapper.ok) return err({ uri, line: 0, reason: mapper.error });
  const dir = posix.dirname(uri);
  return ok({ uri, dir: dir === '.' ? '' : dir, spec, mapper: mapper.value });
}

/** The mappings that apply to a trace file, the nearest folder's first. */
export function mappingsFor(fileUri: string, mappings: readonly LoadedMapping[]): LoadedMapping[] {
  return mappings
    .filter((m) => m.dir === '' || fileUri.startsWith(`${m.dir}/`))
    .sort((a, b) => b.dir.length - a.dir.length);
}

/**
 * The usable mapping files of the folders from a trace file's folder up to the indexed folder,
 * nearest first (readEpisode finds a mapped file's importer with them).
 */
export function mappingsAbove(root: string, fileUri: string): LoadedMapping[] {
  const found: LoadedMapping[] = [];
  for (let dir = posix.dirname(fileUri); ; dir = posix.dirname(dir)) {
    const rel = dir === '.' ? '' : dir;
    let names: string[];
    try {
      names = readdirSync(join(root, rel)).filter(isMappingFileName).sort();
    } catch {
      names = [];
    }
    for (const name of names) {
      const loaded = loadMapping(root, rel ? `${rel}/${name}` : name);
      if (loaded.ok) found.push(loaded.value);
    }
    if (rel === '') return found;
  }
}
