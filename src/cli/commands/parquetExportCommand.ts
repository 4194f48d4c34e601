import { exportParquet } from '../../engine/export/parquetExport';
import type { ShardInputs } from '../../engine/export/shardIndexes';
import { count, megabytes, seconds } from '../../engine/report/format';
import { exitCodes, type CliIo } from '../cliIo';
import { withShards } from './shardInputs';

/**
 * `credit-lens export <run-dir>… [--db PATH]… --parquet OUTDIR`: episodes, messages (without text),
 * credit and flags of one or more indexes as four Parquet files (docs/beyond-one-machine.md). A
 * shard that cannot be read is named on stderr and left out; exits 1 only when none could be read.
 */
export function parquetExportCommand(
  options: { inputs: ShardInputs; outDir: string; json: boolean },
  io: CliIo,
): number {
  const started = Date.now();
  return withShards(options.inputs, io, (shards, problems) => {
    const written = exportParquet(shards, options.outDir);
    const elapsedMs = Date.now() - started;
    if (options.json)
      io.out(JSON.stringify({ shards: shards.paths, skipped: problems, files: written, elapsedMs }, null, 2));
    for (const w of written) io.err(`Wrote ${count(w.rows)} rows (${megabytes(w.bytes)}) to ${w.file}`);
    io.err(`Exported ${count(shards.size)} index(es) in ${seconds(elapsedMs)}`);
    return exitCodes.ok;
  });
}
