import { isIpcMessage, type IpcCommand, type IpcNotification, type IpcRequest } from '../../src/protocol/ipc';
import type { Host } from './host';

/**
 * Whether a `message` event came from the extension host. VS Code's outer webview frame forwards
 * host messages with `postMessage(data, window.origin)`, so they carry this frame's own origin;
 * anything else (another frame, an extension of the page) is ignored. A browser harness dispatches
 * `new MessageEvent('message', {data, origin: location.origin})`.
 */
export function isMessageFromHost(event: MessageEvent, self: Pick<Window, 'origin'>): boolean {
  return event.origin === self.origin;
}

/** Thrown by {@link HostIpc.request} when the host answers `{ok: false}` or does not answer in time. */
export class HostRequestError extends Error {
  override readonly name = 'HostRequestError';
}

/** Default time a request waits for its response. Recomputes report progress instead of blocking a request. */
export const defaultRequestTimeoutMs = 30_000;

type Target = Pick<Window, 'origin' | 'addEventListener' | 'removeEventListener'>;

/** Typed messaging with the host over the descriptors of src/protocol. */
export class HostIpc {
  private nextId = 1;

  constructor(
    private readonly host: Host<unknown>,
    private readonly target: Target,
  ) {}

  /** Sends a webview → host command. */
  send<P>(command: IpcCommand<P>, params: P): void {
    this.host.postMessage(command.with(params));
  }

  /**
   * Sends the panel's ready command, and again every 2 s (up to 30 s) until `answered()`: a panel
   * revived while the extension is still activating, or whose index could not be opened yet, would
   * otherwise wait on its placeholder for an answer that never comes. Ready is idempotent.
   */
  sendReady<P>(command: IpcCommand<P>, params: () => P, answered: () => boolean, attempt = 0): void {
    this.send(command, params());
    if (attempt >= 15) return;
    setTimeout(() => {
      if (!answered()) this.sendReady(command, params, answered, attempt + 1);
    }, 2000);
  }

  /**
   * Sends a request and resolves with the host's value; rejects with a {@link HostRequestError}
   * carrying the host's message on `{ok: false}`, or after `timeoutMs` without an answer.
   */
  request<P, R>(request: IpcRequest<P, R>, params: P, timeoutMs = defaultRequestTimeoutMs): Promise<R> {
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => {
        unsubscribe();
        reject(
          new HostRequestError(`${request.method}: no answer from the extension within ${String(timeoutMs / 1000)} s`),
        );
      }, timeoutMs);
      const unsubscribe = this.listen((data) => {
        if (data.id !== id || !request.response.is(data)) return;
        clearTimeout(timer);
        unsubscribe();
        const response = data.params;
        if (response.ok) resolve(response.value);
        else reject(new HostRequestError(response.error));
      });
      this.host.postMessage(request.with(params, id));
    });
  }

  /** Calls `handler` with the params of every `notification` from the host; returns an unsubscribe. */
  on<P>(notification: IpcNotification<P>, handler: (params: P) => void): () => void {
    return this.listen((data) => {
      if (notification.is(data)) handler(data.params);
    });
  }

  private listen(
    handler: (data: { readonly method: string; readonly params: unknown; readonly id?: number }) => void,
  ): () => void {
    const listener = (event: MessageEvent): void => {
      if (!isMessageFromHost(event, this.target)) return;
      const data: unknown = event.data;
      if (isIpcMessage(data)) handler(data);
    };
    this.target.addEventListener('message', listener);
    return () => {
      this.target.removeEventListener('message', listener);
    };
  }
}
