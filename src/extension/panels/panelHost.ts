import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../lifecycle';
import { WebviewSession, type WebviewEntry } from './webviewSession';

/** What the host asks of every panel: where it lives, and where it remembers what it showed. */
export interface PanelHostDeps {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  /**
   * Where the place last shown is remembered (the workspace state): a panel VS Code revives before
   * its webview saved any state comes back there instead of waiting for a choice forever.
   */
  readonly memory?: vscode.Memento;
}

/** One kind of panel: its view type and the bundle its webview runs. */
export interface PanelKind {
  readonly viewType: string;
  readonly entry: WebviewEntry;
}

/**
 * The one host of the Credit Lens panels: at most one webview panel per kind, opened or revealed
 * by `open`, brought back after a reload by `restore` (its {@link serializer}), adopted into a
 * {@link WebviewSession} either way. A panel says what its place `P` is (what it shows), how to
 * point at one, which messages it answers and what it posts. A place has the shape of a part of
 * its webview's saved state, so one check reads both that state and the place remembered here.
 */
export abstract class PanelHost<P> extends Disposable {
  private current: WebviewSession | undefined;

  protected constructor(
    private readonly kind: PanelKind,
    private readonly hostDeps: PanelHostDeps,
  ) {
    super();
    this._register(
      toDisposable(() => {
        this.current?.dispose();
        this.forget();
      }),
    );
  }

  /** Registers the serializer that brings this kind of panel back after a reload (package.json activates on its view type). */
  registerSerializer(): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(this.kind.viewType, {
      deserializeWebviewPanel: (panel, state) => {
        this.restore(panel, state);
        return Promise.resolve();
      },
    });
  }

  /**
   * Restores a panel VS Code kept across a reload, on the place its webview saved, else on the
   * place last shown; a second panel of the kind (or one after disposal) is closed.
   */
  restore(panel: vscode.WebviewPanel, state: unknown): void {
    if (this.isDisposed || this.current) {
      panel.dispose();
      return;
    }
    const saved = this.placeOf(state);
    const place = saved ?? this.placeOf(this.hostDeps.memory?.get(this.memoryKey));
    const from = saved ? 'the state its webview saved' : 'the place last shown (its webview saved none)';
    this.hostDeps.log.info(
      `${this.kind.entry.title}: restoring the panel${place ? ` on ${from}` : ' (nothing saved)'}`,
    );
    if (place) this.pointAt(place);
    this.adopt(panel);
  }

  /** The open panel's session, if a panel is open. */
  protected get session(): WebviewSession | undefined {
    return this.current;
  }

  /** Points the panel at `place`, opens or reveals it, and posts what it shows. */
  protected open(place: P): void {
    if (this.isDisposed || !this.pointAt(place)) return;
    const session =
      this.current ??
      this.adopt(
        vscode.window.createWebviewPanel(this.kind.viewType, this.kind.entry.title, vscode.ViewColumn.Active, {}),
      );
    session.panel.reveal();
    this.post();
  }

  /** Points the panel at `place` and remembers it; false when it cannot be shown. */
  protected pointAt(place: P): boolean {
    if (!this.point(place)) return false;
    void this.hostDeps.memory?.update(this.memoryKey, place);
    return true;
  }

  /** The place named by `saved` (a webview's saved state, or a remembered place), if well-formed. */
  protected abstract placeOf(saved: unknown): P | undefined;
  /** Makes `place` the shown one (opens its index, ...); false, with a message, when it cannot. */
  protected abstract point(place: P): boolean;
  /** Registers the handlers of the webview's messages on a new session. */
  protected abstract wire(session: WebviewSession): void;
  /** Posts what the panel shows to its webview (dropped until the webview is ready). */
  protected abstract post(): void;
  /** Lets go of the shown place (closes its index): the panel was closed. */
  protected abstract forget(): void;

  private get memoryKey(): string {
    return `${this.kind.viewType}.lastPlace`;
  }

  private adopt(panel: vscode.WebviewPanel): WebviewSession {
    const session = new WebviewSession(panel, this.hostDeps.extensionUri, this.kind.entry, this.hostDeps.log, () => {
      if (this.current === session) this.current = undefined;
      this.forget();
    });
    this.current = session;
    this.wire(session);
    return session;
  }
}
