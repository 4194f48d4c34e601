import { join } from 'node:path';
import { runIndexInWorker } from '../../engine/runIndexInWorker';
import type { CliIo } from '../cliIo';
import { exitCodes } from '../cliIo';
import { formatPass, formatSummary } from '../formatSummary';
import { ProgressBar } from '../progressBar';

export interface IndexCommandOptions {
  readonly root: string;
  readonly db?: string;
  readonly json: boolean;
  readonly search: boolean;
  /** Read every trace file with this importer instead of detecting formats. */
  readonly format?: string;
}

/**
 * `credit-lens index <run-dir>`: brings the run folder's index up to date in a worker thread and
 * prints the summary. Bad lines are listed but do not fail the command; an unusable run manifest
 * or an index that cannot be opened does (exit 1).
 */
export async function indexCommand(options: IndexCommandOptions, io: CliIo): Promise<number> {
  const bar = !options.json && io.tty ? new ProgressBar(io.tty) : undefined;
  const handle = runIndexInWorker(
    {
      root: options.root,
      search: options.search,
      ...(options.db ? { dbPath: options.db } : {}),
      ...(options.format !== undefined ? { format: options.format } : {}),
    },
    join(__dirname, 'indexWorker.js'),
    (progress) => bar?.update(progress),
  );
  const stop = (): void => handle.cancel();
  process.once('SIGINT', stop);
  try {
    const result = await handle.result;
    bar?.clear();
    if (options.json) {
      io.out(
        JSON.stringify(
          {
            root: options.root,
            index: result.index,
            pass: { ...result.tally, maxRssBytes: result.maxRssBytes },
            summary: result.summary,
          },
          null,
          2,
        ),
      );
    } else {
      io.out(`Indexed ${options.root} (index: ${result.index.path})`);
      for (const line of formatSummary(result.summary)) io.out(line);
      io.out(formatPass(result.tally));
    }
    for (const fatal of result.tally.fatal) io.err(`error: ${fatal}`);
    return result.tally.fatal.length > 0 ? exitCodes.fatal : exitCodes.ok;
  } finally {
    bar?.clear();
    process.removeListener('SIGINT', stop);
  }
}
