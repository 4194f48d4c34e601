import type { SplitChoice } from '../../core/split';
import { flagKinds, type FlagKind } from '../../core/auditReport';
import { parseAuditThresholds } from '../../credit/audit/auditThresholds';
import { runAudit } from '../../engine/audit/auditJob';
import { auditSarif } from '../../engine/report/auditSarif';
import { exitCodes, UsageError, type CliIo } from '../cliIo';
import { auditJson, formatAudit } from '../../engine/report/formatAudit';
import { parseEvaluator } from './creditCommand';
import { cancelledExitCode, ctrlC } from '../replayCli';

export interface AuditCommandOptions {
  readonly root: string;
  readonly db?: string;
  readonly method?: string;
  readonly run?: string;
  readonly output: 'text' | 'json' | 'sarif';
  readonly failOn?: string;
  /** `key=value,…` overrides of the thresholds (epsilon, minEpisodesPerWindow, alpha, dominantShare, …). */
  readonly thresholds?: string;
  /** `--evaluator NAME[:k=v]` or `none`; `--evaluator-cmd`: where missing counterfactuals come from. */
  readonly evaluator?: string;
  readonly evaluatorCmd?: string;
  readonly calibration?: number;
  /** Training (default), validation or all episodes. */
  readonly split?: SplitChoice;
  /** False: no message text is read (no emptiness, copying or final-answer evidence). */
  readonly readText?: boolean;
}

/** Exit code when a flag named by `--fail-on` is raised (distinct from fatal errors). */
export const flagsRaisedExitCode = 3;

/**
 * `credit-lens audit <run-dir>`: raises silent / idle / free-rider / dominant / decoupling flags
 * with their evidence; `--json` and `--sarif` for machines; `--fail-on KINDS` exits 3 when one of
 * those kinds is raised, to gate training runs in CI.
 */
export async function auditCommand(options: AuditCommandOptions, io: CliIo): Promise<number> {
  const method = options.method ?? 'loo';
  if (method !== 'loo' && method !== 'shapley')
    throw new UsageError(`--method for audit must be loo or shapley, got "${method}"`);
  const failOn = parseKinds(options.failOn);
  const thresholds = parseAuditThresholds(parseSettings(options.thresholds));
  if (!thresholds.ok) throw new UsageError(`--threshold: ${thresholds.error}`);
  const evaluator = parseEvaluator(options);
  const cancel = ctrlC(io);
  const result = await runAudit({
    root: options.root,
    method,
    thresholds: thresholds.value,
    ...(options.db ? { dbPath: options.db } : {}),
    ...(options.run ? { run: options.run } : {}),
    ...(evaluator ? { evaluator } : {}),
    ...(options.calibration !== undefined ? { calibration: { threshold: options.calibration } } : {}),
    ...(options.split ? { split: options.split } : {}),
    ...(options.readText === false ? { readText: false } : {}),
    signal: cancel.signal,
    onWarning: (message) => io.err(`credit-lens: warning: ${message}`),
  }).finally(() => cancel.dispose());
  if (result.cancelled) {
    io.err('credit-lens: cancelled; no flag was changed');
    return cancelledExitCode;
  }
  if (options.output === 'json') {
    const runs = result.runs.map(auditJson);
    io.out(
      JSON.stringify(
        runs.length === 1 ? runs[0] : { runs },
        (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v),
        2,
      ),
    );
  } else if (options.output === 'sarif') {
    io.out(JSON.stringify(auditSarif(options.root, result.runs, '0.1.0'), null, 2));
  } else {
    for (const report of result.runs) for (const line of formatAudit(report)) io.out(line);
  }
  const raised = result.runs.flatMap((r) => r.flags.filter((f) => failOn.has(f.kind)));
  if (raised.length > 0)
    io.err(
      `credit-lens: ${raised.length} flag(s) of kind ${[...new Set(raised.map((f) => f.kind))].join(', ')} raised (--fail-on)`,
    );
  return raised.length > 0 ? flagsRaisedExitCode : exitCodes.ok;
}

function parseKinds(text: string | undefined): Set<FlagKind> {
  if (!text) return new Set();
  const kinds = text
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  for (const kind of kinds)
    if (!(flagKinds as readonly string[]).includes(kind))
      throw new UsageError(`--fail-on: unknown flag kind "${kind}" (kinds: ${flagKinds.join(', ')})`);
  return new Set(kinds as FlagKind[]);
}

function parseSettings(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  const entries = text
    .split(',')
    .filter(Boolean)
    .map((pair) => {
      const [key, value] = pair.split('=', 2);
      if (!key || value === undefined) throw new UsageError(`--threshold must look like key=value, got "${pair}"`);
      const number = Number(value);
      return [key, Number.isNaN(number) ? value : number] as const;
    });
  return Object.fromEntries(entries);
}
