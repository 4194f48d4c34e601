import type { RewardWeights } from '../../core/runManifest';
import type { RunSplits } from '../../core/split';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, posix } from 'node:path';
import type { AgentDecl, Episode } from '../../core/episode';
import { err, ok, type Result } from '../../core/result';
import { decodeManifest } from '../canonical/decodeManifest';
import { containerOf, recordAt, selectionOf, streamRecords } from './containers/container';
import type { ContainerRecord } from './containers/containerItem';
import { withLinkedFiles } from './linkedFiles';
import { mappingsAbove } from './mappingFiles';
import { mapRecord } from './mapRecord';
import { findImporter } from './registry';
import type { ContainerKind, FormatMapper, RecordContext, RecordLocator } from './types';

/** Where an imported episode is: its record's locator, the file's format, and the episode's id. */
export interface ImportedLocation extends RecordLocator {
  readonly uri: string;
  readonly format: string;
  /** The episode's id; undefined picks the record's first episode. */
  readonly externalId?: string;
}

interface CachedEpisodes {
  readonly key: string;
  readonly episodes: readonly Episode[];
}

/** The records mapped last (several episodes of one record are read one after the other). */
const recent: CachedEpisodes[] = [];
const recentSize = 4;

/**
 * Reads an imported episode back: the record is read through its container by locator and mapped
 * again by its importer (a registered one, or a mapping file in the trace's folder or above; with
 * the run's roster, as when it was indexed), and the episode with the
 * stored id is picked. An importer with `wholeFile` re-reads and maps the whole file. Fails with
 * `file:line: reason` when the file is gone or changed since it was indexed.
 */
export async function readImportedEpisode(
  root: string,
  at: ImportedLocation,
  importers: readonly FormatMapper[],
): Promise<Result<Episode>> {
  const fail = (reason: string): Result<never> => err(`${at.uri}:${at.line}: ${reason}`);
  const mapper =
    findImporter(at.format, importers) ??
    mappingsAbove(root, at.uri).find((m) => m.mapper.format === at.format)?.mapper;
  if (!mapper)
    return fail(`no importer named "${at.format}" (in this build or a mapping file above the trace); re-index the run`);
  const container = containerOf(at.uri);
  if (!container) return fail('not a trace file');
  const path = join(root, at.uri);
  let stamp: string;
  try {
    const stat = statSync(path);
    stamp = `${path}\u0000${stat.size}\u0000${stat.mtimeMs}\u0000${mapper.format}`;
  } catch (error) {
    return fail(`cannot read the trace file: ${(error as Error).message}`);
  }
  const key = mapper.wholeFile ? stamp : `${stamp}\u0000${at.offset}\u0000${at.length}`;
  let episodes = recent.find((c) => c.key === key)?.episodes;
  if (!episodes) {
    const mapped = await mapAgain({ root, path, at, mapper, container });
    if (!mapped.ok) return fail(mapped.error);
    episodes = mapped.value;
    recent.unshift({ key, episodes });
    recent.length = Math.min(recent.length, recentSize);
  }
  const found = at.externalId === undefined ? episodes[0] : episodes.find((e) => e.id === at.externalId);
  if (found) return ok(structuredClone(found));
  return fail(
    at.externalId === undefined
      ? 'the record holds no episode any more; re-index the run'
      : `episode "${at.externalId}" is no longer in this record; re-index the run`,
  );
}

interface Reading {
  readonly root: string;
  readonly path: string;
  readonly at: ImportedLocation;
  readonly mapper: FormatMapper;
  readonly container: ContainerKind;
}

async function mapAgain({ root, path, at, mapper, container }: Reading): Promise<Result<Episode[]>> {
  const { roster, splits, rewardWeights } = runManifestOf(root, at.uri);
  const base = {
    uri: at.uri,
    fileName: basename(at.uri),
    roster,
    ...(splits ? { splits } : {}),
    ...(rewardWeights ? { rewardWeights } : {}),
  };
  if (mapper.wholeFile) {
    const records: ContainerRecord[] = [];
    for await (const item of streamRecords(container, path, selectionOf(mapper)))
      if (item.kind === 'record') records.push(item);
    const header = records[0]?.header;
    const context: RecordContext = { ...base, index: 0, line: 1, ...(header ? { header } : {}) };
    return episodesOf(
      mapRecord(
        mapper,
        records.map((r) => r.record),
        context,
      ),
    );
  }
  const read = await recordAt(container, path, selectionOf(mapper), at);
  if (!read.ok) return read;
  const { record, index, header } = read.value;
  const context: RecordContext = { ...base, index, line: at.line, ...(header ? { header } : {}) };
  return episodesOf(mapRecord(mapper, record, withLinkedFiles(mapper, record, context, root)));
}

function episodesOf(mapped: { episodes: Episode[]; errors: string[] }): Result<Episode[]> {
  if (mapped.episodes.length > 0) return ok(mapped.episodes);
  return err(`${mapped.errors[0] ?? 'the record holds no episode'}; re-index the run`);
}

/**
 * The declared roster, `splits` and `rewardWeights` of the run a trace file belongs to: those of the nearest
 * run.json above it (as the indexer assigns runs), or none.
 */
function runManifestOf(
  root: string,
  uri: string,
): { readonly roster: readonly AgentDecl[]; readonly splits?: RunSplits; readonly rewardWeights?: RewardWeights } {
  for (let dir = posix.dirname(uri); ; dir = posix.dirname(dir)) {
    const rel = dir === '.' ? '' : dir;
    const manifest = join(root, rel, 'run.json');
    if (existsSync(manifest)) {
      try {
        const decoded = decodeManifest(
          JSON.parse(readFileSync(manifest, 'utf8').replace(/^\uFEFF/, '')),
          basename(rel),
        );
        if (!decoded.ok) return { roster: [] };
        const { agents, splits, rewardWeights } = decoded.value;
        return { roster: agents ?? [], ...(splits ? { splits } : {}), ...(rewardWeights ? { rewardWeights } : {}) };
      } catch {
        return { roster: [] };
      }
    }
    if (rel === '') return { roster: [] };
  }
}
