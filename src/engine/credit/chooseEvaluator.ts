import type { FinalAnswerOptions } from '../../credit/evaluator/finalAnswerEvaluator';
import { parseFinalAnswerOptions } from '../../credit/evaluator/parseFinalAnswerOptions';
import type { CreditRun } from '../../store/creditInputRepository';
import { builtinEvaluator } from '../evaluators/builtinEvaluator';
import { commandEvaluator } from '../evaluators/commandEvaluator';
import type { Evaluator } from '../evaluators/evaluator';
import { replayEvaluator, type ReplayDeps } from '../evaluators/replay/replayEvaluator';
import { withManifestSettings, type ReplayOptions } from '../evaluators/replay/replayOptions';

/** The evaluator the user asked for; without one, the run manifest's built-in evaluator is used. */
export type EvaluatorChoice =
  | { readonly kind: 'builtin'; readonly name: string; readonly options?: Readonly<Record<string, unknown>> }
  | { readonly kind: 'command'; readonly command: string; readonly timeoutMs?: number; readonly concurrency?: number }
  /** `apiKey`: from VS Code's secret storage, for one pass (in memory only; else `options.apiKeyEnv`). */
  | { readonly kind: 'replay'; readonly options: ReplayOptions; readonly apiKey?: string }
  | { readonly kind: 'none' };

/** What building an evaluator needs besides the choice: the replay's host services, and where warnings go. */
export interface EvaluatorContext {
  readonly replay?: ReplayDeps;
  readonly onWarning?: (message: string) => void;
}

/** Aggregation of the built-in evaluator by run mechanism, when the manifest does not say. */
const aggregationByMechanism: Readonly<Record<string, string>> = {
  pipeline: 'last',
  debate: 'vote',
  vote: 'vote',
  routed: 'selected',
};

interface ManifestEvaluator {
  readonly kind?: string;
  readonly name?: string;
  readonly options?: Record<string, unknown>;
}

/**
 * Builds the evaluator of a run. An explicit choice wins. Otherwise a manifest naming a built-in
 * evaluator is honoured; a manifest naming a *command* is not run (a trace folder is untrusted
 * input), and the built-in final-answer evaluator is used instead. Likewise a manifest never names
 * a replay's endpoint: its replay settings (models, mode, samples, sampling) complete a replay the
 * user chose, a `url` in them is ignored with a warning, and without the user's replay choice the
 * built-in checker is used (with a warning). A replay scores with the checker the built-in would use.
 */
export function chooseEvaluator(
  run: CreditRun,
  root: string,
  choice: EvaluatorChoice | undefined,
  context: EvaluatorContext = {},
): Evaluator | undefined {
  if (choice?.kind === 'none') return undefined;
  if (choice?.kind === 'command') return commandEvaluator({ command: choice.command, root, ...optional(choice) });
  const manifest = run.evaluatorJson ? (JSON.parse(run.evaluatorJson) as ManifestEvaluator) : undefined;
  const warn = (message: string): void => context.onWarning?.(`run "${run.name}": ${message}`);
  if (manifest?.kind === 'replay' && choice?.kind !== 'replay')
    warn(
      'run.json asks for the replay evaluator, which runs only against a model server you configure (--evaluator replay:url=… or the creditLens.evaluator.replay setting); using the built-in final-answer checker',
    );
  // Episode locations are relative to the indexed folder, whichever run they belong to.
  const checker = checkerOptions(run, manifest, choice?.kind === 'builtin' ? choice : undefined);
  if (choice?.kind !== 'replay') return builtinEvaluator(root, checker);
  const setup = replaySetup(choice, manifest, checker, context.replay, warn);
  return replayEvaluator(setup.options, root, setup.checker, setup.deps);
}

/** What a replay of a run is built from: the user's options completed by run.json's replay settings, the checker, the host's deps and the key. */
export interface ReplaySetup {
  readonly options: ReplayOptions;
  readonly checker: FinalAnswerOptions;
  readonly deps: ReplayDeps;
}

/** The replay setup of `run` for the user's replay choice (as {@link chooseEvaluator} builds its replay evaluator). */
export function runReplaySetup(
  run: CreditRun,
  choice: Extract<EvaluatorChoice, { kind: 'replay' }>,
  context: EvaluatorContext = {},
): ReplaySetup {
  const manifest = run.evaluatorJson ? (JSON.parse(run.evaluatorJson) as ManifestEvaluator) : undefined;
  const warn = (message: string): void => context.onWarning?.(`run "${run.name}": ${message}`);
  return replaySetup(choice, manifest, checkerOptions(run, manifest, undefined), context.replay, warn);
}

function replaySetup(
  choice: Extract<EvaluatorChoice, { kind: 'replay' }>,
  manifest: ManifestEvaluator | undefined,
  checker: FinalAnswerOptions,
  replay: ReplayDeps | undefined,
  warn: (message: string) => void,
): ReplaySetup {
  let options = choice.options;
  if (manifest?.kind === 'replay' && manifest.options) {
    const merged = withManifestSettings(options, manifest.options);
    merged.warnings.forEach(warn);
    options = merged.options;
  }
  return { options, checker, deps: { ...replay, ...(choice.apiKey ? { apiKey: choice.apiKey } : {}) } };
}

/** The final-answer checker's options: the mechanism's aggregation, then the manifest's built-in options, then the choice's. */
function checkerOptions(
  run: CreditRun,
  manifest: ManifestEvaluator | undefined,
  choice: { readonly name: string; readonly options?: Readonly<Record<string, unknown>> } | undefined,
): FinalAnswerOptions {
  const name = choice?.name ?? (manifest?.kind === 'builtin' ? manifest.name : undefined) ?? 'final-answer';
  if (name !== 'final-answer') throw new Error(`unknown built-in evaluator "${name}" (available: final-answer)`);
  const options = {
    aggregation: aggregationByMechanism[run.mechanism ?? ''] ?? 'last',
    ...(manifest?.kind === 'builtin' ? manifest.options : undefined),
    ...choice?.options,
  };
  const parsed = parseFinalAnswerOptions(options);
  if (!parsed.ok) throw new Error(`evaluator options of run "${run.name}": ${parsed.error}`);
  return parsed.value;
}

function optional(choice: { timeoutMs?: number; concurrency?: number }): { timeoutMs?: number; concurrency?: number } {
  return {
    ...(choice.timeoutMs !== undefined ? { timeoutMs: choice.timeoutMs } : {}),
    ...(choice.concurrency !== undefined ? { concurrency: choice.concurrency } : {}),
  };
}
