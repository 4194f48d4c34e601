import { shardSummary, type ShardSummary } from '../../engine/export/shardSummary';
import type { ShardInputs } from '../../engine/export/shardIndexes';
import { agentTableLines } from '../../engine/report/formatCredit';
import { count } from '../../engine/report/format';
import { exitCodes, type CliIo } from '../cliIo';
import { withShards } from './shardInputs';

export interface SummaryCommandOptions {
  readonly inputs: ShardInputs;
  /** The credit method whose stored values are summarised (default loo). */
  readonly method: string;
  readonly run?: string;
  readonly json: boolean;
}

/**
 * `credit-lens summary <run-dir>… [--db PATH]…`: the stored per-agent credit and audit flags of one
 * or more indexes (one per shard of a run's files) read together through SQLite ATTACH; nothing
 * is computed. A shard that cannot be read is named on stderr and left out; exits 1 only when no
 * shard could be read.
 */
export function summaryCommand(options: SummaryCommandOptions, io: CliIo): number {
  return withShards(options.inputs, io, (shards, problems) => {
    const summary = shardSummary(shards, problems, options.method, options.run);
    if (options.json) io.out(JSON.stringify(summary, nonFiniteAsNull, 2));
    else for (const line of summaryLines(summary)) io.out(line);
    return exitCodes.ok;
  });
}

function summaryLines(summary: ShardSummary): string[] {
  const lines = [
    `Stored ${summary.method} credit of ${count(summary.shards.length)} index(es): ${summary.shards.join(', ')}`,
  ];
  if (summary.runs.length === 0)
    lines.push(
      `  no stored ${summary.method} credit: run \`credit-lens credit <shard> --method ${summary.method}\` on each shard`,
    );
  for (const run of summary.runs) {
    lines.push(`  ${run.run || '(root)'}`);
    if (run.mixedParams.length > 0)
      lines.push(`    warning: other credit parameters in ${run.mixedParams.join(', ')}: these values mix passes`);
    lines.push(...agentTableLines(run.agents));
  }
  lines.push(`Flags (${count(summary.flags.length)}):`);
  for (const f of summary.flags) {
    const scope = f.scope_id === '' ? f.scope_kind : `${f.scope_kind} ${f.scope_id}`;
    lines.push(`  ${f.kind.padEnd(11)} ${(f.agent ?? '—').padEnd(14)} ${f.run || '(root)'} ${scope} [${f.shard}]`);
  }
  return lines;
}

/** NaN (an empty early or late window) as null in JSON. */
function nonFiniteAsNull(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isFinite(value) ? null : value;
}
