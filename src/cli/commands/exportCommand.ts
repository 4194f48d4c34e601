import { closeSync, openSync, writeSync } from 'node:fs';
import { exportOtlp } from '../../engine/report/otlpExportJob';
import { exitCodes, type CliIo } from '../cliIo';

export interface ExportCommandOptions {
  readonly root: string;
  readonly db?: string;
  readonly run?: string;
  /** Credit methods to attach (stored values only; nothing is recomputed). */
  readonly methods: readonly string[];
  /** File to write; standard output when absent. */
  readonly out?: string;
}

/**
 * `credit-lens export <run-dir> --otlp`: the index as OpenTelemetry GenAI spans (OTLP/JSON, one
 * request per line), with stored credit as `rl.credit` events. Exits 1 when no episode could be read.
 */
export async function exportCommand(options: ExportCommandOptions, io: CliIo): Promise<number> {
  // Opened up front and written synchronously: a bad path fails here, as an error naming the file.
  const fd = options.out === undefined ? undefined : openSync(options.out, 'w');
  const write = fd === undefined ? io.out : (line: string): void => void writeSync(fd, `${line}\n`);
  try {
    const result = await exportOtlp(
      {
        root: options.root,
        methods: options.methods,
        ...(options.db ? { dbPath: options.db } : {}),
        ...(options.run ? { run: options.run } : {}),
      },
      write,
    );
    for (const failure of result.failures.slice(0, 20)) io.err(`warning: ${failure}`);
    if (options.out !== undefined)
      io.err(`Wrote ${String(result.episodes)} episodes in ${String(result.lines)} OTLP request(s) to ${options.out}`);
    return result.episodes === 0 && result.failures.length > 0 ? exitCodes.fatal : exitCodes.ok;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
