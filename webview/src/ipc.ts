import { isIpcMessage, type IpcCommand, type IpcNotification } from '../../src/protocol/ipc';
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

/** Typed messaging with the host over the descriptors of src/protocol. */
export class HostIpc {
  constructor(
    private readonly host: Host<unknown>,
    private readonly target: Pick<Window, 'origin' | 'addEventListener' | 'removeEventListener'>,
  ) {}

  /** Sends a webview → host command. */
  send<P>(command: IpcCommand<P>, params: P): void {
    this.host.postMessage(command.with(params));
  }

  /** Calls `handler` with the params of every `notification` from the host; returns an unsubscribe. */
  on<P>(notification: IpcNotification<P>, handler: (params: P) => void): () => void {
    const listener = (event: MessageEvent): void => {
      if (!isMessageFromHost(event, this.target)) return;
      const data: unknown = event.data;
      if (isIpcMessage(data) && notification.is(data)) handler(data.params);
    };
    this.target.addEventListener('message', listener);
    return () => {
      this.target.removeEventListener('message', listener);
    };
  }
}
