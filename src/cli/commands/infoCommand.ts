import { readIndexSummary } from '../../engine/indexJob';
import { exitCodes, type CliIo } from '../cliIo';
import { formatSummary } from '../formatSummary';

/** `credit-lens info <run-dir>`: the summary of an existing index, without indexing. */
export function infoCommand(options: { root: string; db?: string; json: boolean }, io: CliIo): number {
  const { index, summary } = readIndexSummary(options.root, options.db);
  if (options.json) {
    io.out(JSON.stringify({ root: options.root, index, summary }, null, 2));
  } else {
    io.out(`Index of ${options.root} (${index.path})`);
    for (const line of formatSummary(summary)) io.out(line);
  }
  return exitCodes.ok;
}
