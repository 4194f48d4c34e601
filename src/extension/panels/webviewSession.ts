import type * as vscode from 'vscode';
import {
  isIpcMessage,
  type IpcCommand,
  type IpcMessage,
  type IpcNotification,
  type IpcRequest,
  type IpcResponse,
} from '../../protocol/ipc';
import { buildWebviewHtml, webviewOptions } from '../html';
import { disposeAll, type DisposableLike } from '../lifecycle';
import { createNonce } from '../nonce';

/** The bundle a panel runs: `dist/webview/<script>.js` with `media/webview.css` then `media/<style>`. */
export interface WebviewEntry {
  readonly script: string;
  readonly style: string;
  /** Document title (a fixed string of ours, never trace content). */
  readonly title: string;
}

type Handler = (message: IpcMessage) => void;

/**
 * One webview panel speaking the typed protocol: it (re)builds the HTML with a fresh nonce and the
 * strict CSP, dispatches webview messages to the registered command and request handlers (params
 * checked by each descriptor's guard; anything else is logged and dropped), answers requests with
 * `{ok, value}` or `{ok: false, error}` under the request's id, and drops notifications until the
 * webview has sent its ready command (docs/architecture.md §3.2 handshake).
 */
export class WebviewSession implements DisposableLike {
  private ready = false;
  private disposed = false;
  private readonly handlers = new Map<string, Handler>();
  private readonly listeners: DisposableLike[] = [];

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    entry: WebviewEntry,
    private readonly log: vscode.LogOutputChannel,
    onDispose: () => void,
  ) {
    // Reset on every adoption: a restored panel keeps the options of an older extension folder (vscode#197103).
    panel.webview.options = webviewOptions(extensionUri);
    panel.webview.html = buildWebviewHtml({
      webview: panel.webview,
      extensionUri,
      nonce: createNonce(),
      script: ['dist', 'webview', `${entry.script}.js`],
      styles: [
        ['media', 'webview.css'],
        ['media', entry.style],
      ],
      title: entry.title,
    });
    this.listeners.push(
      panel.webview.onDidReceiveMessage((message: unknown) => {
        this.dispatch(message);
      }),
      panel.onDidDispose(() => {
        this.disposed = true;
        disposeAll(this.listeners);
        onDispose();
      }),
    );
  }

  get isReady(): boolean {
    return this.ready;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Handles the webview's ready command: marks the session ready, then calls `handler`. */
  onReady<P>(command: IpcCommand<P>, handler: (params: P) => void): void {
    this.handlers.set(command.method, (message) => {
      if (!command.is(message)) return this.reject(message);
      this.ready = true;
      handler(message.params);
    });
  }

  onCommand<P>(command: IpcCommand<P>, handler: (params: P) => void | Promise<void>): void {
    this.handlers.set(command.method, (message) => {
      if (!command.is(message)) return this.reject(message);
      void Promise.resolve()
        .then(() => handler(message.params))
        .catch((error: unknown) => {
          this.log.error(`${this.panel.viewType}: ${command.method} failed: ${errorText(error)}`);
        });
    });
  }

  onRequest<P, R>(request: IpcRequest<P, R>, handler: (params: P) => R | Promise<R>): void {
    this.handlers.set(request.method, (message) => {
      if (!request.is(message)) return this.reject(message);
      const id = message.id;
      void Promise.resolve()
        .then(() => handler(message.params))
        .then(
          (value): IpcResponse<R> => ({ ok: true, value }),
          (error: unknown): IpcResponse<R> => {
            this.log.warn(`${this.panel.viewType}: ${request.method} failed: ${errorText(error)}`);
            return { ok: false, error: errorText(error) };
          },
        )
        .then((response) => this.post(request.response.with(response, id)));
    });
  }

  /** Sends a notification; dropped before the webview is ready (it asks again when it is). */
  notify<P>(notification: IpcNotification<P>, params: P): void {
    if (this.ready) this.post(notification.with(params));
  }

  dispose(): void {
    if (!this.disposed) this.panel.dispose();
  }

  private post(message: IpcMessage): void {
    if (this.disposed) return;
    void this.panel.webview.postMessage(message).then(undefined, (error: unknown) => {
      this.log.warn(`${this.panel.viewType}: could not post ${message.method}: ${errorText(error)}`);
    });
  }

  private dispatch(message: unknown): void {
    if (!isIpcMessage(message)) {
      this.log.warn(`${this.panel.viewType}: ignored a webview message without a method`);
      return;
    }
    const handler = this.handlers.get(message.method);
    if (handler) handler(message);
    else this.reject(message);
  }

  private reject(message: IpcMessage): void {
    this.log.warn(
      `${this.panel.viewType}: ignored webview message ${message.method} (unknown method or invalid params)`,
    );
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
