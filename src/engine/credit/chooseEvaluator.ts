import { parseFinalAnswerOptions } from '../../credit/evaluator/parseFinalAnswerOptions';
import type { CreditRun } from '../../store/creditInputRepository';
import { builtinEvaluator } from '../evaluators/builtinEvaluator';
import { commandEvaluator } from '../evaluators/commandEvaluator';
import type { Evaluator } from '../evaluators/evaluator';
import type { ReplayOptions } from '../evaluators/replay/replayOptions';

/** The evaluator the user asked for; without one, the run manifest's built-in evaluator is used. */
export type EvaluatorChoice =
  | { readonly kind: 'builtin'; readonly name: string; readonly options?: Readonly<Record<string, unknown>> }
  | { readonly kind: 'command'; readonly command: string; readonly timeoutMs?: number; readonly concurrency?: number }
  | { readonly kind: 'replay'; readonly options: ReplayOptions }
  | { readonly kind: 'none' };

/** Aggregation of the built-in evaluator by run mechanism, when the manifest does not say. */
const aggregationByMechanism: Readonly<Record<string, string>> = {
  pipeline: 'last',
  debate: 'vote',
  vote: 'vote',
  routed: 'selected',
};

/**
 * Builds the evaluator of a run. An explicit choice wins. Otherwise a manifest naming a built-in
 * evaluator is honoured; a manifest naming a *command* is not run (a trace folder is untrusted
 * input), and the built-in final-answer evaluator is used instead.
 */
export function chooseEvaluator(
  run: CreditRun,
  root: string,
  choice: EvaluatorChoice | undefined,
): Evaluator | undefined {
  if (choice?.kind === 'none') return undefined;
  if (choice?.kind === 'command') return commandEvaluator({ command: choice.command, root, ...optional(choice) });
  // Wired by the replay evaluator (docs/replay.md); until then a replay choice is refused, not ignored.
  if (choice?.kind === 'replay') throw new Error('the replay evaluator is not available yet');
  const manifest = run.evaluatorJson
    ? (JSON.parse(run.evaluatorJson) as { kind?: string; name?: string; options?: Record<string, unknown> })
    : undefined;
  const name = choice?.name ?? (manifest?.kind === 'builtin' ? manifest.name : undefined) ?? 'final-answer';
  if (name !== 'final-answer') throw new Error(`unknown built-in evaluator "${name}" (available: final-answer)`);
  const fromManifest = manifest?.kind === 'builtin' ? manifest.options : undefined;
  const options = {
    aggregation: aggregationByMechanism[run.mechanism ?? ''] ?? 'last',
    ...fromManifest,
    ...(choice?.kind === 'builtin' ? choice.options : {}),
  };
  const parsed = parseFinalAnswerOptions(options);
  if (!parsed.ok) throw new Error(`evaluator options of run "${run.name}": ${parsed.error}`);
  // Episode locations are relative to the indexed folder, whichever run they belong to.
  return builtinEvaluator(root, parsed.value);
}

function optional(choice: { timeoutMs?: number; concurrency?: number }): { timeoutMs?: number; concurrency?: number } {
  return {
    ...(choice.timeoutMs !== undefined ? { timeoutMs: choice.timeoutMs } : {}),
    ...(choice.concurrency !== undefined ? { concurrency: choice.concurrency } : {}),
  };
}
