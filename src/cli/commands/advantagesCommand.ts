import {
  advantageSignals,
  exportAdvantages,
  type AdvantageSignal,
  type AdvantagesExportOptions,
} from '../../engine/export/advantagesExport';
import { count } from '../../engine/report/format';
import { exitCodes, UsageError, type CliIo } from '../cliIo';

/** Checks `--signal` (default `loo`) and `--format` (default `jsonl`); a bad value is a usage error. */
export function advantagesOptions(
  root: string,
  values: { signal?: string; format?: string; out?: string; run?: string; db?: string },
): AdvantagesExportOptions {
  const signal = values.signal ?? 'loo';
  if (!(advantageSignals as readonly string[]).includes(signal))
    throw new UsageError(`--signal must be one of ${advantageSignals.join(', ')}, got "${signal}"`);
  const format = values.format ?? 'jsonl';
  if (format !== 'jsonl' && format !== 'parquet')
    throw new UsageError(`--format must be jsonl or parquet, got "${format}"`);
  if (format === 'parquet' && values.out === undefined) throw new UsageError('--format parquet needs --out FILE');
  return {
    root,
    signal: signal as AdvantageSignal,
    format,
    ...(values.out !== undefined ? { out: values.out } : {}),
    ...(values.run !== undefined ? { run: values.run } : {}),
    ...(values.db !== undefined ? { dbPath: values.db } : {}),
  };
}

/**
 * `credit-lens advantages <run-dir>`: the per-sample GRPO advantages under a signal, keyed by the
 * trainer's sample identity, as JSONL (stdout or `--out`) or Parquet (docs/advantages-export.md).
 * What was written goes to stderr, so stdout stays the rows.
 */
export async function advantagesCommand(options: AdvantagesExportOptions, io: CliIo): Promise<number> {
  const result = await exportAdvantages(options, io.out);
  for (const r of result.runs)
    io.err(`${r.run || '(root run)'}: ${count(r.rows)} rows, ${options.signal} advantages (${r.convention})`);
  if (options.out !== undefined) io.err(`Wrote ${count(result.rows)} rows to ${options.out}`);
  return exitCodes.ok;
}
