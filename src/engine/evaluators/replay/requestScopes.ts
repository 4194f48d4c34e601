import { ChatClientError } from './chatErrors';

/** The signal of one `complete` call: it fires when the caller aborts or the client closes. */
export class RequestScope {
  private readonly controller = new AbortController();
  private reason: 'cancelled' | 'closed' | undefined;

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The rejection of a request stopped by the caller ("cancelled") or by `close()`. */
  readonly error = (): ChatClientError =>
    new ChatClientError(this.reason === 'closed' ? 'the chat client was closed' : 'cancelled', 'cancelled');

  cancel(reason: 'cancelled' | 'closed'): void {
    if (this.reason) return;
    this.reason = reason;
    this.controller.abort();
  }
}

interface Watched {
  readonly scopes: Set<RequestScope>;
  readonly onAbort: () => void;
}

/**
 * The scopes of a client's requests under way. A caller usually passes one signal (a job's, a
 * Ctrl-C handler's) to thousands of calls: each distinct signal gets one listener, which cancels
 * that signal's scopes, instead of one listener per call.
 */
export class RequestScopes {
  private readonly all = new Set<RequestScope>();
  private readonly watched = new Map<AbortSignal, Watched>();
  private closed = false;

  /** A scope for a new call; already cancelled when `caller` has fired or the client is closed. */
  open(caller: AbortSignal | undefined): RequestScope {
    const scope = new RequestScope();
    if (this.closed) scope.cancel('closed');
    else if (caller?.aborted) scope.cancel('cancelled');
    this.all.add(scope);
    if (caller && !caller.aborted) this.watch(caller).scopes.add(scope);
    return scope;
  }

  /** Forgets a finished call's scope (and the caller's signal once none of its calls is left). */
  dispose(scope: RequestScope, caller: AbortSignal | undefined): void {
    this.all.delete(scope);
    const watched = caller ? this.watched.get(caller) : undefined;
    if (!caller || !watched) return;
    watched.scopes.delete(scope);
    if (watched.scopes.size > 0) return;
    caller.removeEventListener('abort', watched.onAbort);
    this.watched.delete(caller);
  }

  /** Cancels every scope, and every later one, with "the chat client was closed". */
  closeAll(): void {
    this.closed = true;
    for (const scope of this.all) scope.cancel('closed');
  }

  private watch(caller: AbortSignal): Watched {
    const known = this.watched.get(caller);
    if (known) return known;
    const scopes = new Set<RequestScope>();
    const onAbort = (): void => {
      for (const scope of scopes) scope.cancel('cancelled');
    };
    caller.addEventListener('abort', onAbort, { once: true });
    const watched = { scopes, onAbort };
    this.watched.set(caller, watched);
    return watched;
  }
}
