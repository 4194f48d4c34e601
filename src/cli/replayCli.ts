import type { ChatClientStats } from '../core/chat';
import type { ReplayCost } from '../credit/replay/replayCost';
import type { CreditJobHooks } from '../engine/credit/creditJob';
import { parseReplayOptions } from '../engine/evaluators/replay/replayOptions';
import type { EvaluatorChoice } from '../engine/credit/chooseEvaluator';
import { count } from '../engine/report/format';
import { replayCostText, replayStatsText } from '../engine/report/formatReplay';
import { UsageError, type CliIo } from './cliIo';
import type { ProgressBar } from './progressBar';

/** Exit code of a command cancelled with Ctrl-C (128 + SIGINT), as shells report it. */
export const cancelledExitCode = 130;

/**
 * `--evaluator NAME[:key=value,…]` split into the name and its settings. Only the first `:` and,
 * in each pair, the first `=` separate, so values keep theirs (`url=http://host:8000/v1`,
 * `models=planner=qwen;solver=llama`).
 */
export function evaluatorSettings(text: string): { name: string; settings: Record<string, string> } {
  const colon = text.indexOf(':');
  const name = colon < 0 ? text : text.slice(0, colon);
  const pairs = colon < 0 ? [] : text.slice(colon + 1).split(',');
  const settings: Record<string, string> = {};
  for (const pair of pairs.filter(Boolean)) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new UsageError(`--evaluator options must look like key=value, got "${pair}"`);
    settings[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  return { name, settings };
}

/** `--evaluator replay:url=…,model=…`: the replay choice, or a usage error naming what is wrong. */
export function replayChoice(settings: Readonly<Record<string, string>>): EvaluatorChoice {
  const parsed = parseReplayOptions(settings);
  if (!parsed.ok) throw new UsageError(`--evaluator ${parsed.error}`);
  return { kind: 'replay', options: parsed.value };
}

/** One line of a run's estimate, printed before any call is made. */
export function estimateLine(run: string, estimate: ReplayCost, budget: number | undefined): string {
  const cap = budget === undefined ? '' : `; --budget ${count(budget)} spends at most ${count(budget)} calls`;
  return `replay estimate for ${run || '(root)'}: ${replayCostText(estimate)}${cap}`;
}

/** Least time between two progress lines on a stream that is not a terminal. */
const lineEveryMs = 2000;

/**
 * The progress hooks of a credit pass: the bar on a terminal (episodes, and a replay's calls,
 * tokens and time), else — for a replay in text output — a line on stderr every two seconds.
 */
export function progressHooks(
  io: CliIo,
  bar: ProgressBar | undefined,
  textOutput: boolean,
): Pick<CreditJobHooks, 'onProgress' | 'onReplayStats'> {
  let stats: ChatClientStats | undefined;
  let episodes = '';
  let fraction = 0;
  let lastLine = 0;
  const show = (): void => {
    const detail = stats ? `${episodes} · ${replayStatsText(stats)}` : episodes;
    if (bar) bar.draw(fraction, detail);
    else if (textOutput && stats && Date.now() - lastLine >= lineEveryMs) {
      lastLine = Date.now();
      io.err(`progress: ${detail}`);
    }
  };
  return {
    onProgress: (done, total, run) => {
      fraction = total > 0 ? done / total : 1;
      episodes = `${run}: ${count(done)} / ${count(total)} episodes`;
      show();
    },
    onReplayStats: (next) => {
      stats = next;
      show();
    },
  };
}

/**
 * Ctrl-C as a signal for the credit job: the first aborts the pass (calls in flight are cancelled,
 * finished episodes stay stored), the second quits at once.
 */
export function ctrlC(io: CliIo): { readonly signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(cancelledExitCode);
    controller.abort();
    io.err('credit-lens: cancelling (Ctrl-C again to quit at once)…');
  };
  process.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => process.removeListener('SIGINT', onSigint) };
}
