import type { ChatClientStats } from '../../core/chat';
import type { ReplayCost } from '../../credit/replay/replayCost';
import type { CreditJobOptions, CreditJobResult, EpisodeCreditReport } from './creditJob';

// The messages between a host and the credit job's worker thread (creditJobInWorker.ts,
// creditJobWorker.ts): the job's options go in, its hooks come back as messages.

/** What the host passes to the job's worker (dist/indexWorker.js in the `credit-job` role). */
export interface CreditJobWorkerData {
  readonly role: 'credit-job';
  /** The job's options, less what cannot cross a thread (the replay's host services: in-process only). */
  readonly options: Omit<CreditJobOptions, 'replayDeps'>;
  /** One Int32, set to 1 by the host to cancel; the job polls it as its `isCancelled`. */
  readonly cancel: SharedArrayBuffer;
  /** Whether the host wants every episode's report (`onEpisode`): each one crosses the thread. */
  readonly episodes: boolean;
}

/** From the worker to the host: the job's hooks, then its end. */
export type CreditJobWorkerMessage =
  | { readonly kind: 'progress'; readonly done: number; readonly total: number; readonly run: string }
  | { readonly kind: 'replay-stats'; readonly stats: ChatClientStats }
  | { readonly kind: 'estimate'; readonly run: string; readonly estimate: ReplayCost }
  | { readonly kind: 'warning'; readonly message: string }
  | { readonly kind: 'episode'; readonly report: EpisodeCreditReport }
  | { readonly kind: 'done'; readonly result: CreditJobResult }
  | { readonly kind: 'failed'; readonly message: string; readonly noIndex: boolean };
