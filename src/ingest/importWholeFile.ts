import { basename } from 'node:path';
import type { CompactEpisode, IndexSink, TraceIssue } from '../core/indexing';
import { headHash } from './fileChange';
import { incompleteMtime, type FileContext, type WholeFileWork } from './indexFile';
import { selectionOf, streamRecords } from './importers/containers/container';
import { excerptOf, messageOf, type ContainerRecord } from './importers/containers/containerItem';
import { withLinkedFiles } from './importers/linkedFiles';
import { importRecord } from './importers/mapRecord';
import type { RecordContext, RecordLocator } from './importers/types';

/** Where the episodes of an importer that maps the whole file at once point: the file's start. */
export const wholeFileLocator: RecordLocator = { line: 1, offset: 0, length: 0 };

/**
 * Imports a file whole, in this thread: empties its source, streams its records through the
 * container, maps each with the detected importer (an importer with `wholeFile` gets every record
 * at once) and writes the episodes in batches. A record that cannot be read or mapped is an issue
 * at its line; the records around it are kept. The file's state is marked complete only by the last
 * batch, so a cancelled or failed import is redone by the next pass.
 */
export async function importWholeFile(
  work: WholeFileWork,
  sink: IndexSink,
  ctx: FileContext,
  isCancelled: () => boolean,
): Promise<void> {
  const { file, run, detected } = work;
  const { mapper, container } = detected;
  const empty = { size: file.size, mtimeMs: incompleteMtime, indexedOffset: 0, lines: 0, headHash: '' };
  const sourceId = sink.resetSource(file.uri, run.runId, mapper.format, empty);
  let head = '';
  const fileName = basename(file.uri);
  let episodes: CompactEpisode[] = [];
  let issues: TraceIssue[] = [];
  let records = 0;
  let unwritten = 0;
  const flush = (final: boolean): void => {
    const state = {
      size: file.size,
      mtimeMs: final ? file.mtimeMs : incompleteMtime,
      indexedOffset: final ? file.size : 0,
      lines: records,
      headHash: head,
    };
    const { duplicates, repeats = 0 } = sink.writeBatch({
      uri: file.uri,
      format: mapper.format,
      sourceId,
      runId: run.runId,
      episodes,
      issues,
      state,
    });
    const { tally } = ctx;
    tally.episodesAdded += episodes.length - duplicates.length - repeats;
    tally.repeatsSkipped += repeats;
    tally.issues += issues.length + duplicates.length;
    tally.linesRead += unwritten;
    if (final) {
      tally.bytesRead += file.size;
      tally.bytesDone += file.size;
      tally.filesDone++;
    }
    episodes = [];
    issues = [];
    unwritten = 0;
    ctx.report();
  };
  const context = (item: ContainerRecord): RecordContext => ({
    uri: file.uri,
    fileName,
    index: item.index,
    line: item.locator.line,
    roster: run.roster,
    ...(run.splits ? { splits: run.splits } : {}),
    ...(run.rewardWeights ? { rewardWeights: run.rewardWeights } : {}),
    ...(item.header ? { header: item.header } : {}),
  });
  // The indexed folder (file.path is it joined with file.uri), where linked files are read from.
  const indexedFolder = file.path.slice(0, file.path.length - file.uri.length);
  const whole: ContainerRecord[] = [];
  let cancelled = false;
  let failed = false;
  try {
    head = headHash(file.path, file.size);
    for await (const item of streamRecords(container, file.path, selectionOf(mapper))) {
      if (isCancelled()) {
        cancelled = true;
        break;
      }
      records++;
      unwritten++;
      if (item.kind === 'issue') issues.push(issueOf(file.uri, item.locator, item.reason, item.excerpt));
      else if (mapper.wholeFile) whole.push(item);
      else {
        const imported = importRecord(
          mapper,
          item.record,
          withLinkedFiles(mapper, item.record, context(item), indexedFolder),
          { uri: file.uri, locator: item.locator, ...(item.excerpt !== undefined ? { excerpt: item.excerpt } : {}) },
        );
        episodes.push(...imported.episodes);
        for (const issue of imported.issues)
          issues.push(issue.excerpt === undefined ? { ...issue, excerpt: excerptOfValue(item.record) } : issue);
      }
      if (episodes.length >= ctx.batchSize || issues.length >= ctx.batchSize) flush(false);
    }
  } catch (error) {
    // The file went away or could not be read mid-way: say so; the next pass reads it again.
    failed = true;
    issues.push(
      issueOf(file.uri, { line: 0, offset: 0, length: 0 }, `cannot read the file: ${messageOf(error)}`, undefined),
    );
  }
  if (!cancelled && !failed && mapper.wholeFile) {
    const first = whole[0];
    const wholeContext: RecordContext = {
      uri: file.uri,
      fileName,
      index: 0,
      line: 1,
      roster: run.roster,
      ...(run.splits ? { splits: run.splits } : {}),
      ...(run.rewardWeights ? { rewardWeights: run.rewardWeights } : {}),
      ...(first?.header ? { header: first.header } : {}),
    };
    const imported = importRecord(
      mapper,
      whole.map((r) => r.record),
      wholeContext,
      { uri: file.uri, locator: wholeFileLocator },
    );
    episodes.push(...imported.episodes);
    issues.push(...imported.issues);
  }
  flush(!cancelled && !failed);
}

function issueOf(uri: string, at: RecordLocator, reason: string, excerpt: string | undefined): TraceIssue {
  return { uri, line: at.line, offset: at.offset, reason, ...(excerpt !== undefined ? { excerpt } : {}) };
}

/** The start of a record that has no raw text (a Parquet row), as JSON. */
function excerptOfValue(record: unknown): string {
  try {
    return excerptOf(
      JSON.stringify(record, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)),
    );
  } catch {
    return '';
  }
}
