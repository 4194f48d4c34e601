import { CompareArgumentError, compareRuns, type CompareJobOptions } from '../../engine/compare/compareJob';
import { parseCompareGates, trippedGates, type CompareGate } from '../../engine/compare/compareGates';
import { comparisonCsv, comparisonJson, formatComparison } from '../../engine/report/formatComparison';
import { exitCodes, UsageError, type CliIo } from '../cliIo';
import { flagsRaisedExitCode } from './auditCommand';

export interface CompareCommandOptions extends CompareJobOptions {
  readonly output: 'text' | 'json' | 'csv';
  /** `share-drop=X,credit-drop=X,flag=KIND`. */
  readonly failOn?: string;
}

/**
 * `credit-lens compare <run-dir> [<run-dir-B>]`: two runs, or two step ranges of one run, paired
 * episode by episode under one stored credit method (docs/credit-methods.md §5.5), as text,
 * `--json` or `--csv`. Nothing is computed: a side without stored credit names the `credit`
 * command to run (exit 1). `--fail-on` exits 3 when a gate trips, naming each on stderr.
 */
export function compareCommand(options: CompareCommandOptions, io: CliIo): number {
  const gates = options.failOn === undefined ? [] : gatesOf(options.failOn);
  const { output: _output, failOn: _failOn, ...job } = options;
  let comparison;
  try {
    comparison = compareRuns(job);
  } catch (error) {
    if (error instanceof CompareArgumentError) throw new UsageError(error.message);
    throw error;
  }
  if (options.output === 'json') io.out(comparisonJson(comparison));
  else if (options.output === 'csv') for (const line of comparisonCsv(comparison)) io.out(line);
  else for (const line of formatComparison(comparison)) io.out(line);
  const tripped = trippedGates(comparison, gates);
  for (const reason of tripped) io.err(`credit-lens: gate tripped (--fail-on ${reason})`);
  return tripped.length > 0 ? flagsRaisedExitCode : exitCodes.ok;
}

function gatesOf(text: string): CompareGate[] {
  const parsed = parseCompareGates(text);
  if (!parsed.ok) throw new UsageError(`--fail-on ${parsed.error}`);
  return parsed.value;
}
