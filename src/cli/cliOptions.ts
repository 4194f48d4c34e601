import type { parseArgs } from 'node:util';
import { UsageError } from './cliIo';
import type { AuditCommandOptions } from './commands/auditCommand';
import type { CompareCommandOptions } from './commands/compareCommand';
import { parseStepRange } from '../core/stepRange';
import { parseSteps, type CreditCommandOptions } from './commands/creditCommand';
import { findAdvantageConvention } from '../credit/signals/advantageConventions';
import { defaultSplit, parseSplitChoice, type SplitChoice } from '../core/split';
import { unknownConventionMessage } from '../engine/credit/advantageConvention';
import type { InfluenceCommandOptions } from './commands/influenceCommand';
import { advantagesOptions } from './commands/advantagesCommand';
import type { ExportCommandOptions } from './commands/exportCommand';
import type { TableCommandOptions } from './commands/tableCommand';
import type { McpCommandOptions } from './commands/mcpCommand';

// The CLI's options: what parseArgs accepts, and each command's options built from them; main.ts
// parses the arguments and runs the commands.

export const optionSpec = {
  db: { type: 'string', multiple: true },
  json: { type: 'boolean', default: false },
  'no-search': { type: 'boolean', default: false },
  'no-text': { type: 'boolean', default: false },
  format: { type: 'string' },
  otlp: { type: 'boolean', default: false },
  parquet: { type: 'string' },
  out: { type: 'string' },
  episodes: { type: 'string' },
  episode: { type: 'string' },
  seed: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
  method: { type: 'string' },
  evaluator: { type: 'string' },
  'evaluator-cmd': { type: 'string' },
  timeout: { type: 'string' },
  concurrency: { type: 'string' },
  step: { type: 'string' },
  run: { type: 'string' },
  budget: { type: 'string' },
  'no-logged': { type: 'boolean', default: false },
  sarif: { type: 'boolean', default: false },
  'fail-on': { type: 'string' },
  threshold: { type: 'string' },
  csv: { type: 'boolean', default: false },
  messages: { type: 'boolean', default: false },
  calibration: { type: 'string' },
  advantage: { type: 'string' },
  split: { type: 'string' },
  port: { type: 'string' },
  'dry-run': { type: 'boolean', default: false },
  replay: { type: 'string' },
  'max-messages': { type: 'string' },
  'allow-compute': { type: 'boolean', default: false },
  steps: { type: 'string' },
  vs: { type: 'string' },
  'vs-run': { type: 'string' },
  signal: { type: 'string' },
} as const;

export function exportOptions(root: string, values: ParsedValues): ExportCommandOptions {
  if (!values.otlp)
    throw new UsageError('export needs --otlp (OpenTelemetry GenAI spans, OTLP/JSON) or --parquet OUTDIR');
  const methods =
    values.method === undefined
      ? []
      : values.method
          .split(',')
          .map((m) => m.trim())
          .filter((m) => m !== '');
  return {
    root,
    methods,
    ...oneDb(values.db),
    ...(values.run ? { run: values.run } : {}),
    ...(values.out ? { out: values.out } : {}),
  };
}

export function mcpOptions(rest: readonly string[], values: ParsedValues): McpCommandOptions {
  return { root: requireDir(rest), allowCompute: values['allow-compute'], ...oneDb(values.db) };
}

export function demoOptions(values: {
  out?: string | undefined;
  episodes?: string | undefined;
  seed?: string | undefined;
  json: boolean;
}) {
  const episodes = values.episodes === undefined ? undefined : positiveInteger(values.episodes, '--episodes');
  const seed = values.seed === undefined ? undefined : positiveInteger(values.seed, '--seed');
  return {
    out: values.out ?? 'demo-run',
    json: values.json,
    ...(episodes !== undefined ? { episodes } : {}),
    ...(seed !== undefined ? { seed } : {}),
  };
}

export type ParsedValues = ReturnType<
  typeof parseArgs<{ options: typeof optionSpec; allowPositionals: true; strict: true }>
>['values'];

export function advantagesFrom(root: string, values: ParsedValues): ReturnType<typeof advantagesOptions> {
  return advantagesOptions(root, {
    ...oneDb(values.db),
    ...(values.signal !== undefined ? { signal: values.signal } : {}),
    ...(values.format !== undefined ? { format: values.format } : {}),
    ...(values.out !== undefined ? { out: values.out } : {}),
    ...(values.run !== undefined ? { run: values.run } : {}),
  });
}

export function creditOptions(root: string, values: ParsedValues): CreditCommandOptions {
  if (values.advantage !== undefined && !findAdvantageConvention(values.advantage))
    throw new UsageError(unknownConventionMessage(values.advantage, '--advantage'));
  if (!values.method)
    throw new UsageError('--method is required (shared, loo, shapley, shapley-mc, routing, prefix, owen)');
  if (values.json && values.csv) throw new UsageError('give --json or --csv, not both');
  const timeout = values.timeout === undefined ? undefined : positiveInteger(values.timeout, '--timeout');
  const concurrency =
    values.concurrency === undefined ? undefined : positiveInteger(values.concurrency, '--concurrency');
  const budget = values.budget === undefined ? undefined : positiveInteger(values.budget, '--budget');
  return {
    root,
    method: values.method,
    output: values.json ? 'json' : values.csv ? 'csv' : 'text',
    messages: values.messages,
    useLogged: !values['no-logged'],
    ...(values['dry-run'] ? { dryRun: true } : {}),
    ...(budget !== undefined ? { budget } : {}),
    ...oneDb(values.db),
    ...(values.evaluator ? { evaluator: values.evaluator } : {}),
    ...(values['evaluator-cmd'] ? { evaluatorCmd: values['evaluator-cmd'] } : {}),
    ...(values.step ? { steps: values.step } : {}),
    ...(values.run ? { run: values.run } : {}),
    ...(timeout ? { timeoutMs: timeout } : {}),
    ...(concurrency ? { concurrency } : {}),
    ...(values.seed !== undefined ? { seed: positiveInteger(values.seed, '--seed') } : {}),
    ...(values.calibration !== undefined ? { calibration: fraction(values.calibration, '--calibration') } : {}),
    ...(values.advantage !== undefined ? { advantage: values.advantage } : {}),
    ...(values.split !== undefined ? { split: splitOption(values.split) } : {}),
  };
}

export function tableOptions(root: string, values: ParsedValues): TableCommandOptions {
  if (values.json && values.csv) throw new UsageError('give --json or --csv, not both');
  return {
    root,
    method: values.method ?? 'loo',
    split: values.split !== undefined ? splitOption(values.split) : defaultSplit,
    output: values.json ? 'json' : values.csv ? 'csv' : 'text',
    ...(values.step !== undefined ? { steps: parseSteps(values.step) } : {}),
    ...(values.run ? { run: values.run } : {}),
  };
}

/** `--split train|validation|all`. */
export function splitOption(text: string): SplitChoice {
  const parsed = parseSplitChoice(text);
  if (!parsed.ok) throw new UsageError(`--split: ${parsed.error}`);
  return parsed.value;
}

export function fraction(text: string, name: string): number {
  const x = Number(text);
  if (text.trim() === '' || !(x >= 0 && x <= 1))
    throw new UsageError(`${name} must be a number in [0, 1], got "${text}"`);
  return x;
}

export function auditOptions(root: string, values: ParsedValues): AuditCommandOptions {
  if (values.json && values.sarif) throw new UsageError('give --json or --sarif, not both');
  return {
    root,
    output: values.json ? 'json' : values.sarif ? 'sarif' : 'text',
    ...(values.method ? { method: values.method } : {}),
    ...(values.run ? { run: values.run } : {}),
    ...oneDb(values.db),
    ...(values['fail-on'] ? { failOn: values['fail-on'] } : {}),
    ...(values.threshold ? { thresholds: values.threshold } : {}),
    ...(values.evaluator ? { evaluator: values.evaluator } : {}),
    ...(values['evaluator-cmd'] ? { evaluatorCmd: values['evaluator-cmd'] } : {}),
    ...(values.calibration !== undefined ? { calibration: fraction(values.calibration, '--calibration') } : {}),
    ...(values.split !== undefined ? { split: splitOption(values.split) } : {}),
    ...(values['no-text'] ? { readText: false } : {}),
  };
}

export function compareOptions(dirs: readonly string[], values: ParsedValues): CompareCommandOptions {
  const [root, rootB, ...extra] = dirs;
  if (root === undefined) throw new UsageError('missing <run-dir>');
  if (extra.length > 0) throw new UsageError(`compare takes one or two run folders, got ${String(dirs.length)}`);
  if (values.json && values.csv) throw new UsageError('give --json or --csv, not both');
  const range = (text: string, flag: string): readonly [number, number] => {
    const parsed = parseStepRange(text);
    if (!parsed.ok) throw new UsageError(`${flag} ${parsed.error}`);
    return parsed.value;
  };
  const db = oneDb(values.db).db;
  return {
    root,
    method: values.method ?? 'loo',
    output: values.json ? 'json' : values.csv ? 'csv' : 'text',
    ...(rootB !== undefined ? { rootB } : {}),
    ...(db !== undefined ? { dbPath: db } : {}),
    ...(values.run ? { run: values.run } : {}),
    ...(values['vs-run'] ? { vsRun: values['vs-run'] } : {}),
    ...(values.steps !== undefined ? { steps: range(values.steps, '--steps') } : {}),
    ...(values.vs !== undefined ? { vsSteps: range(values.vs, '--vs') } : {}),
    ...(values['fail-on'] !== undefined ? { failOn: values['fail-on'] } : {}),
  };
}

/** `{ db }` of a single-index command's one `--db`, or `{}` (summary and export --parquet take several). */
export function oneDb(dbs: readonly string[] | undefined): { db?: string } {
  if (dbs !== undefined && dbs.length > 1)
    throw new UsageError('--db is given once here; several --db are read together by summary and export --parquet');
  const db = dbs?.[0];
  return db ? { db } : {};
}

export function influenceOptions(root: string, values: ParsedValues): InfluenceCommandOptions {
  return {
    root,
    json: values.json,
    ...oneDb(values.db),
    ...(values.episode !== undefined ? { episode: values.episode } : {}),
    ...(values.run !== undefined ? { run: values.run } : {}),
    ...(values.step !== undefined ? { steps: parseSteps(values.step) } : {}),
    ...(values.replay !== undefined ? { replay: values.replay } : {}),
    ...(values['max-messages'] !== undefined
      ? { maxMessages: positiveInteger(values['max-messages'], '--max-messages') }
      : {}),
  };
}

export function requireDir(rest: readonly string[]): string {
  if (rest.length !== 1 || rest[0] === undefined) throw new UsageError('expected exactly one <run-dir>');
  return rest[0];
}

export function positiveInteger(text: string, name: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${name} must be a non-negative integer, got "${text}"`);
  return n;
}
