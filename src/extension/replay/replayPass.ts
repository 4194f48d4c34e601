import * as vscode from 'vscode';
import type { ChatClientStats } from '../../core/chat';
import type { CreditJobHooks, CreditJobOptions } from '../../engine/credit/creditJob';
import { count } from '../indexReport';
import { errorText } from '../panels/webviewSession';
import { replayEndpoint, type ReplayEndpoint } from './replayEndpoint';
import { withReplayKey } from './replayKey';
import { replayEngine, type EstimateReplay, type ReplayEstimate, type ReplayJobHooks } from './replaySeams';
import { confirmationText, formatTokens, replayProgressText } from './replayText';

/** What a replay pass needs besides its options. */
export interface ReplayDeps {
  readonly log: vscode.LogOutputChannel;
  /** Where the API key is kept (`context.secrets`); without it, only the environment variable is used. */
  readonly secrets?: vscode.SecretStorage;
  /** The engine's estimate unless a test injects another. */
  readonly estimateReplay?: EstimateReplay;
}

/** The replay of a confirmed pass: where it goes and what it was estimated to cost. */
export interface PlannedReplay extends ReplayEndpoint {
  /** Undefined when the estimate failed (the user confirmed without one). */
  readonly estimate: ReplayEstimate | undefined;
}

/** A pass ready to run: its options (a replay's with the API key) and, for a replay, its plan. */
export interface ConfirmedPass {
  readonly options: CreditJobOptions;
  readonly replay?: PlannedReplay;
}

/** A replay's steps before it runs, for views that show them (the Episode view). */
export type ReplayStage = 'estimating' | 'confirming';

const replayAction = 'Replay';

/**
 * Readies the pass of `options`. Without a replay evaluator: as it is. With one: estimates its
 * calls and tokens (nothing is sent), asks in a modal dialog — "Replay 1,240 calls (~0.9 M prompt
 * tokens, …) on http://…/v1?" Replay / Cancel — unless nothing is left to replay (every value
 * cached), then adds the API key from the secret storage. Undefined when the user cancelled.
 */
export async function confirmPass(
  options: CreditJobOptions,
  deps: ReplayDeps,
  onStage?: (stage: ReplayStage, text: string) => void,
): Promise<ConfirmedPass | undefined> {
  const choice = options.evaluator;
  if (choice?.kind !== 'replay') return { options };
  const endpoint = replayEndpoint(choice.options.url);
  onStage?.('estimating', `Estimating the replay on ${endpoint.host}…`);
  const estimate = await estimateOrReason(options, deps);
  const question = confirmationText(estimate, endpoint.display);
  deps.log.info(`Replay of ${options.method} credit of ${options.root}: ${question}`);
  if (typeof estimate === 'string' || estimate.calls > 0) {
    onStage?.('confirming', question);
    const answer = await vscode.window.showWarningMessage(
      question,
      {
        modal: true,
        detail:
          'Each call sends an agent’s conversation from the trace to this model server. Values replayed before are taken from the index and cost nothing.',
      },
      replayAction,
    );
    if (answer !== replayAction) {
      deps.log.info('Replay cancelled at the confirmation: nothing was sent');
      return undefined;
    }
  }
  const keyed = await withReplayKey(choice, deps.secrets, deps.log);
  const known = typeof estimate === 'string' ? undefined : estimate;
  return { options: { ...options, evaluator: keyed }, replay: { ...endpoint, estimate: known } };
}

async function estimateOrReason(options: CreditJobOptions, deps: ReplayDeps): Promise<ReplayEstimate | string> {
  try {
    return await (deps.estimateReplay ?? replayEngine.estimateReplay)(options);
  } catch (error) {
    deps.log.warn(`Could not estimate the replay: ${errorText(error)}`);
    return errorText(error);
  }
}

/**
 * Follows a running pass: with a replay, the hooks carry the cancellation signal and collect the
 * client's statistics for progress lines and the closing note; without one, they are `base`.
 */
export class PassMeter {
  private stats: ChatClientStats | undefined;
  private readonly started = Date.now();

  constructor(readonly replay: PlannedReplay | undefined) {}

  /** `base` plus, for a replay, `signal` and the statistics (then `onStats`, e.g. to report progress). */
  hooks(base: CreditJobHooks, signal: AbortSignal, onStats?: () => void): ReplayJobHooks {
    if (!this.replay) return base;
    return {
      ...base,
      signal,
      onReplayStats: (stats) => {
        this.stats = stats;
        onStats?.();
      },
    };
  }

  /** Calls made so far, and the estimate's calls (0 when unknown). */
  get calls(): { readonly done: number; readonly total: number } {
    return { done: this.stats?.calls ?? 0, total: this.replay?.estimate?.calls ?? 0 };
  }

  /** `12 of ~40 calls · 31.2 k tokens · 42 s`, or '' without a replay. */
  progress(): string {
    return this.replay ? replayProgressText(this.stats, this.replay.estimate, Date.now() - this.started) : '';
  }

  /** The closing note of a replay (`replayed on 127.0.0.1:8000: 40 calls · …`), or undefined without one. */
  summary(): string | undefined {
    if (!this.replay) return undefined;
    return `replayed on ${this.replay.host}: ${this.progress()}`;
  }

  /** Logs the replay's totals (no key, no URL query: the display URL only). */
  logTotals(log: vscode.LogOutputChannel): void {
    if (!this.replay) return;
    const s = this.stats;
    const tokens = s
      ? `${formatTokens(s.promptTokens)} prompt + ${formatTokens(s.completionTokens)} completion tokens, ${count(s.retries)} retries`
      : 'no statistics reported';
    log.info(`Replay on ${this.replay.display}: ${count(s?.calls ?? 0)} calls, ${tokens}`);
  }
}

/** An AbortSignal that fires when `token` (a progress notification's Cancel) is cancelled, and its listener. */
export function abortOnCancel(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const control = new AbortController();
  if (token.isCancellationRequested) control.abort();
  const listener = token.onCancellationRequested(() => {
    control.abort();
  });
  return {
    signal: control.signal,
    dispose: () => {
      listener.dispose();
    },
  };
}
