import type { Episode } from '../../core/episode';
import { episodesToOtlp, type OtlpCredit } from '../../ingest/importers/formats/otel/otelExport';
import { readEpisode } from '../../ingest/readEpisode';
import { CreditInputRepository } from '../../store/creditInputRepository';
import { openDatabase } from '../../store/database';
import { EpisodeViewRepository } from '../../store/episodeViewRepository';
import { NoIndexError } from '../indexJob';
import { findIndexLocation } from '../indexLocation';

export interface OtlpExportJobOptions {
  readonly root: string;
  readonly dbPath?: string;
  /** Only the run with this name or folder. */
  readonly run?: string;
  /** Credit methods whose stored values (latest parameters) go along as `rl.credit` events. */
  readonly methods?: readonly string[];
  /** Episodes per OTLP request (one request per output line). */
  readonly batchSize?: number;
}

export interface OtlpExportResult {
  readonly episodes: number;
  readonly lines: number;
  /** `file:line: reason` of episodes whose record could not be read back. */
  readonly failures: readonly string[];
}

/**
 * Exports the indexed episodes (read back from their traces through their importers) with their
 * stored credit as OpenTelemetry GenAI spans, OTLP/JSON (docs/otel.md): one
 * ExportTraceServiceRequest per line, `batchSize` episodes each, so the otel importer reads the
 * file back and a collector can ingest it line by line. Streams: memory is bounded by a batch.
 */
export async function exportOtlp(
  options: OtlpExportJobOptions,
  writeLine: (line: string) => void,
): Promise<OtlpExportResult> {
  const location = findIndexLocation(options.root, options.dbPath);
  if (!location)
    throw new NoIndexError(`no index for ${options.root}; run \`credit-lens index ${options.root}\` first`);
  const db = openDatabase(location.path, { readonly: true });
  try {
    const input = new CreditInputRepository(db);
    const view = new EpisodeViewRepository(db);
    const runs = input
      .runs()
      .filter((r) => options.run === undefined || r.name === options.run || r.root === options.run);
    if (options.run !== undefined && runs.length === 0)
      throw new Error(`no run named "${options.run}" in ${options.root}`);
    const size = options.batchSize ?? 100;
    let batch: Episode[] = [];
    let credit: OtlpCredit[] = [];
    const failures: string[] = [];
    let episodes = 0;
    let lines = 0;
    const flush = (): void => {
      if (batch.length === 0) return;
      writeLine(JSON.stringify(episodesToOtlp(batch, credit)));
      lines++;
      batch = [];
      credit = [];
    };
    for (const run of runs) {
      const names = view.agentNames(run.runId);
      for (const e of input.episodes(run.runId)) {
        const read = await readEpisode(options.root, e);
        if (!read.ok) {
          failures.push(read.error);
          continue;
        }
        batch.push(read.value);
        credit.push(...storedCredit(view, e.episodeId, read.value.id, names, options.methods ?? []));
        episodes++;
        if (batch.length >= size) flush();
      }
    }
    flush();
    return { episodes, lines, failures };
  } finally {
    db.close();
  }
}

function storedCredit(
  view: EpisodeViewRepository,
  episodeId: number,
  externalId: string,
  names: ReadonlyMap<number, string>,
  methods: readonly string[],
): OtlpCredit[] {
  return methods.flatMap((method) =>
    view.credit(episodeId, method).flatMap((row) => {
      const agent = names.get(row.agentId);
      if (agent === undefined || row.value === null) return [];
      return [
        {
          episode: externalId,
          agent,
          method,
          value: row.value,
          ...(row.messageSeq !== null ? { message: row.messageSeq } : {}),
        },
      ];
    }),
  );
}
