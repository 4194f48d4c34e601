import { openShards, type ShardInputs } from '../../engine/export/shardIndexes';
import type { ShardProblem, ShardSet } from '../../store/shardSet';
import { exitCodes, UsageError, type CliIo } from '../cliIo';

/**
 * The indexes a multi-index command reads: every `<run-dir>` positional (its usual index) and
 * every `--db PATH`. At least one is needed.
 */
export function shardInputs(folders: readonly string[], files: readonly string[]): ShardInputs {
  if (folders.length === 0 && files.length === 0)
    throw new UsageError('expected one or more <run-dir> or --db PATH (one index per shard)');
  return { folders, files };
}

/**
 * Opens the shards of `inputs`, warns about each one left out (naming its file) and runs `read`
 * on the others; exits 1 without running it when no shard can be read. Closes the shards.
 */
export function withShards(
  inputs: ShardInputs,
  io: CliIo,
  read: (shards: ShardSet, problems: readonly ShardProblem[]) => number,
): number {
  const { shards, problems } = openShards(inputs);
  try {
    for (const p of problems) io.err(`credit-lens: warning: shard ${p.path} left out: ${p.reason}`);
    if (shards.size > 0) return read(shards, problems);
    io.err('credit-lens: no index could be read');
    return exitCodes.fatal;
  } finally {
    shards.close();
  }
}
