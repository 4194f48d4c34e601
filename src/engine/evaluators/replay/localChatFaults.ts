import type { LocalChatRequest } from './localChatProtocol';

/**
 * A misbehaviour of the local server for one chat request, so tests can drive every failure a real
 * server shows. "Chunks" are `data:` events of a stream (the role chunk is the first); for a JSON
 * reply, the cutting faults cut the body in the middle instead.
 */
export type ChatFault =
  /** Answer normally, after `ms`. */
  | { readonly kind: 'delay'; readonly ms: number }
  /** Answer `status` with `body` (default: an OpenAI error body) and an optional `Retry-After`. */
  | { readonly kind: 'status'; readonly status: number; readonly body?: string; readonly retryAfter?: string }
  /** Answer 200 with a body that is not JSON (a stream: a chunk that is not JSON). */
  | { readonly kind: 'malformed'; readonly body?: string }
  /** Send the first `afterChunks` chunks, then close the connection without ending the response. */
  | { readonly kind: 'stop'; readonly afterChunks: number }
  /** Send the first `afterChunks` chunks, then end the response cleanly, without `[DONE]`. */
  | { readonly kind: 'end'; readonly afterChunks: number }
  /** Send the first `afterChunks` chunks, then nothing more, the connection left open. */
  | { readonly kind: 'stall'; readonly afterChunks: number }
  /** Never answer (the connection stays open until the client or `close()` ends it). */
  | { readonly kind: 'hang' }
  /** Answer normally, but report no `usage`. */
  | { readonly kind: 'no-usage' };

/** Chooses the fault (or none) for the `index`-th chat request (0-based, in arrival order). */
export type FaultHook = (request: LocalChatRequest, index: number) => ChatFault | undefined;

/** A hook giving the i-th request `faults[i]` (undefined: none) and every later request none. */
export function faultsInOrder(...faults: readonly (ChatFault | undefined)[]): FaultHook {
  return (_request, index) => faults[index];
}

/** A hook giving every request the same fault. */
export function alwaysFault(fault: ChatFault): FaultHook {
  return () => fault;
}
