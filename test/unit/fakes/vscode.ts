import { posix, resolve } from 'node:path';
import {
  FakeFileSystemWatcher,
  FakeStatusBarItem,
  findOnDisk,
  type FindFilesCall,
  type RelativePattern,
  type StatusBarAlignment,
} from './fakeWorkspaceFiles';

export {
  FakeFileSystemWatcher,
  FakeStatusBarItem,
  globToRegExp,
  RelativePattern,
  StatusBarAlignment,
  type FindFilesCall,
} from './fakeWorkspaceFiles';

// A hand-written stand-in for the `vscode` module: the few APIs src/extension uses, with
// recorded calls and scripted answers in `fake`. Tests map `vscode` to this file with
// registerVscodeFake.ts and call `fake.reset()` before each test.

type Listener<T> = (value: T) => unknown;

export class Disposable {
  constructor(private readonly callOnDispose: () => unknown) {}
  static from(...disposables: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => disposables.forEach((d) => d.dispose()));
  }
  dispose(): void {
    this.callOnDispose();
  }
}

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.push(listener);
    return new Disposable(() => (this.listeners = this.listeners.filter((l) => l !== listener)));
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
    readonly query = '',
  ) {}
  static from(parts: { scheme: string; path?: string; query?: string }): Uri {
    return new Uri(parts.scheme, parts.path ?? '', parts.query ?? '');
  }
  static file(fsPath: string): Uri {
    return new Uri('file', resolve(fsPath));
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return new Uri(base.scheme, posix.join(base.path, ...segments));
  }
  get fsPath(): string {
    return this.path;
  }
  with(change: { scheme?: string }): Uri {
    return new Uri(change.scheme ?? this.scheme, this.path);
  }
  toString(): string {
    return `${this.scheme}://${this.path}${this.query ? `?${this.query}` : ''}`;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  constructor(
    readonly start: Position,
    readonly end: Position,
  ) {}
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class ThemeIcon {
  constructor(readonly id: string) {}
}

/** Like VS Code's: `appendText` escapes Markdown syntax (there is no `appendMarkdown`: tooltips must not take raw text). */
export class MarkdownString {
  isTrusted?: boolean;
  supportHtml?: boolean;
  constructor(public value = '') {}
  appendText(text: string): this {
    this.value += text.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, '\\$&').replace(/\n/g, '\n\n');
    return this;
  }
}

export class TreeItem {
  id?: string;
  description?: string | boolean;
  tooltip?: string | MarkdownString;
  command?: { command: string; title: string; arguments?: unknown[] };
  contextValue?: string;
  iconPath?: ThemeIcon;
  constructor(
    public label: string,
    public collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}

export class Location {
  constructor(
    readonly uri: Uri,
    readonly range: Range,
  ) {}
}

export class DiagnosticRelatedInformation {
  constructor(
    readonly location: Location,
    readonly message: string,
  ) {}
}

export class CodeActionKind {
  static readonly QuickFix = new CodeActionKind('quickfix');
  constructor(readonly value: string) {}
}

export class CodeAction {
  diagnostics?: Diagnostic[];
  command?: { command: string; title: string; arguments?: unknown[] };
  constructor(
    readonly title: string,
    readonly kind?: CodeActionKind,
  ) {}
}

/** A registered code action provider, as `languages.registerCodeActionsProvider` received it. */
export interface FakeCodeActionProvider {
  readonly selector: unknown;
  readonly provider: { provideCodeActions(document: unknown, range: unknown, context: unknown): unknown };
}

export class Diagnostic {
  source?: string;
  code?: string | number;
  relatedInformation?: DiagnosticRelatedInformation[];
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: DiagnosticSeverity = DiagnosticSeverity.Error,
  ) {}
}

/** A registered tree view: its id, options and whether it was disposed. */
export class FakeTreeView {
  disposed = false;
  private readonly selection = new EventEmitter<{ selection: readonly unknown[] }>();
  readonly onDidChangeSelection = this.selection.event;
  constructor(
    readonly viewId: string,
    readonly options: { treeDataProvider: unknown; showCollapseAll?: boolean },
  ) {}
  /** Selects `nodes` as a click would. */
  select(...nodes: unknown[]): void {
    this.selection.fire({ selection: nodes });
  }
  dispose(): void {
    this.disposed = true;
  }
}

/** A diagnostic collection keyed by `uri.toString()`, with a `disposed` mark. */
export class FakeDiagnosticCollection {
  readonly entries = new Map<string, { uri: Uri; diagnostics: readonly Diagnostic[] }>();
  disposed = false;
  constructor(readonly name: string) {}
  set(uri: Uri, diagnostics: readonly Diagnostic[] | undefined): void {
    if (diagnostics === undefined || diagnostics.length === 0) this.entries.delete(uri.toString());
    else this.entries.set(uri.toString(), { uri, diagnostics: [...diagnostics] });
  }
  delete(uri: Uri): void {
    this.entries.delete(uri.toString());
  }
  forEach(callback: (uri: Uri, diagnostics: readonly Diagnostic[]) => unknown): void {
    for (const { uri, diagnostics } of this.entries.values()) callback(uri, diagnostics);
  }
  dispose(): void {
    this.disposed = true;
    this.entries.clear();
  }
}

export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  readonly token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
  cancel(): void {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
}

export enum LogLevel {
  Off = 0,
  Trace = 1,
  Debug = 2,
  Info = 3,
  Warning = 4,
  Error = 5,
}

/** A log output channel that records each line as `[level] text`. */
export class FakeLogOutputChannel {
  readonly lines: string[] = [];
  readonly logLevel = LogLevel.Info;
  readonly onDidChangeLogLevel = new EventEmitter<LogLevel>().event;
  shown = 0;
  disposed = false;
  constructor(
    readonly name: string,
    readonly options: unknown,
  ) {}
  trace(text: string): void {
    this.lines.push(`[trace] ${text}`);
  }
  debug(text: string): void {
    this.lines.push(`[debug] ${text}`);
  }
  info(text: string): void {
    this.lines.push(`[info] ${text}`);
  }
  warn(text: string): void {
    this.lines.push(`[warn] ${text}`);
  }
  error(text: string | Error): void {
    this.lines.push(`[error] ${String(text)}`);
  }
  append(text: string): void {
    this.lines.push(text);
  }
  appendLine(text: string): void {
    this.lines.push(text);
  }
  replace(text: string): void {
    this.lines.splice(0, this.lines.length, text);
  }
  clear(): void {
    this.lines.length = 0;
  }
  show(): void {
    this.shown++;
  }
  hide(): void {
    // Nothing to hide.
  }
  dispose(): void {
    this.disposed = true;
  }
}

/** A webview whose HTML, options and posted messages are recorded; `receive()` plays the webview. */
export class FakeWebview {
  html = '';
  readonly cspSource = 'https://webview.test';
  readonly posted: unknown[] = [];
  private readonly received = new EventEmitter<unknown>();
  readonly onDidReceiveMessage = this.received.event;
  constructor(public options: Record<string, unknown>) {}
  asWebviewUri(uri: Uri): Uri {
    return uri.with({ scheme: 'webview-resource' });
  }
  postMessage(message: unknown): Promise<boolean> {
    this.posted.push(structuredClone(message));
    return Promise.resolve(true);
  }
  /** Delivers `message` as if the webview had posted it. */
  receive(message: unknown): void {
    this.received.fire(message);
  }
}

export interface FakePanelSerializer {
  deserializeWebviewPanel(panel: FakeWebviewPanel, state: unknown): Promise<void>;
}

export class FakeWebviewPanel {
  readonly webview: FakeWebview;
  reveals = 0;
  disposed = false;
  private readonly disposeEmitter = new EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;
  constructor(
    readonly viewType: string,
    public title: string,
    readonly column: unknown,
    options: Record<string, unknown>,
  ) {
    this.webview = new FakeWebview(options);
  }
  reveal(): void {
    this.reveals++;
  }
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.disposeEmitter.fire();
  }
}

export interface ShownMessage {
  readonly level: 'info' | 'warning' | 'error';
  readonly text: string;
  readonly items: readonly string[];
  /** Set for a modal dialog (`{modal: true}`), with its `detail`. */
  readonly modal?: { readonly detail?: string };
}

export interface ProgressSession {
  readonly options: { title?: string; cancellable?: boolean; location?: unknown };
  readonly reports: { message?: string; increment?: number }[];
  /** Clicks the notification's Cancel button. */
  cancel(): void;
}

type Handler = (...args: unknown[]) => unknown;

function initialState() {
  return {
    commands: new Map<string, Handler>(),
    channels: [] as FakeLogOutputChannel[],
    messages: [] as ShownMessage[],
    panels: [] as FakeWebviewPanel[],
    /** Webview panel serializers by view type (registerWebviewPanelSerializer). */
    serializers: new Map<string, FakePanelSerializer>(),
    progress: [] as ProgressSession[],
    shownDocuments: [] as { uri: Uri; options: unknown }[],
    /** `workspace.registerTextDocumentContentProvider`, by scheme. */
    contentProviders: new Map<string, { provideTextDocumentContent(uri: Uri): string }>(),
    quickPicks: [] as { items: readonly unknown[]; options: unknown }[],
    openDialogs: [] as unknown[],
    diagnosticCollections: [] as FakeDiagnosticCollection[],
    codeActionProviders: [] as FakeCodeActionProvider[],
    treeViews: [] as FakeTreeView[],
    workspaceFolders: undefined as { uri: Uri; name: string; index: number }[] | undefined,
    /** Answers a message: returns the item the user clicks, or undefined (dismissed). */
    answerMessage: (_message: ShownMessage): string | undefined => undefined,
    answerQuickPick: (_items: readonly unknown[]): unknown => undefined,
    answerOpenDialog: (): Uri[] | undefined => undefined,
    /** Settings by full key (`creditLens.evaluator.command`), per scope, as `inspect()` reports them. */
    settings: new Map<string, FakeSetting>(),
    isTrusted: true,
    inputBoxes: [] as FakeInputBoxOptions[],
    /** Answers an input box: the text the user accepts, or undefined (dismissed). */
    answerInputBox: (_options: FakeInputBoxOptions): string | undefined => undefined,
    saveDialogs: [] as unknown[],
    answerSaveDialog: (): Uri | undefined => undefined,
    writtenFiles: [] as { uri: Uri; content: Uint8Array }[],
    /** `workspace.findFiles` calls; answered by `answerFindFiles` (default: the workspace folders on disk). */
    findFilesCalls: [] as FindFilesCall[],
    answerFindFiles: (call: FindFilesCall): Uri[] =>
      findOnDisk(
        (fake.workspaceFolders ?? []).map((folder) => folder.uri.fsPath),
        call,
      ),
    watchers: [] as FakeFileSystemWatcher[],
    /** Language-model tools by name (`lm.registerTool`). */
    lmTools: new Map<string, FakeLanguageModelTool>(),
    statusBarItems: [] as FakeStatusBarItem[],
    workspaceFoldersChanged: new EventEmitter<unknown>(),
    /** Fire with the changed section, e.g. `creditLens` (`affectsConfiguration` matches it and its keys). */
    configurationChanged: new EventEmitter<{ affectsConfiguration(section: string): boolean }>(),
    trustGranted: new EventEmitter<void>(),
  };
}

/** One setting's values per scope; the effective value is folder, then workspace, then user, then default. */
export interface FakeSetting {
  readonly defaultValue?: unknown;
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

export interface FakeInputBoxOptions {
  readonly title?: string;
  readonly password?: boolean;
  readonly ignoreFocusOut?: boolean;
  readonly prompt?: string;
  readonly value?: string;
  readonly placeHolder?: string;
  readonly validateInput?: (value: string) => unknown;
}

/** Recorded calls and scripted answers; reset before each test. */
export const fake = {
  ...initialState(),
  reset(): void {
    Object.assign(fake, initialState());
  },
  /** Fires `onDidChangeConfiguration` for a change of the setting `key` (e.g. `creditLens.evaluator.replay`). */
  changeConfiguration(key: string): void {
    fake.configurationChanged.fire({
      affectsConfiguration: (section) => key === section || key.startsWith(`${section}.`),
    });
  },
  /** Sets the workspace folders by path. */
  setWorkspaceFolders(paths: readonly string[] | undefined): void {
    fake.workspaceFolders = paths?.map((p, index) => ({ uri: Uri.file(p), name: posix.basename(p), index }));
  },
};

function showMessage(level: ShownMessage['level']) {
  return (text: string, ...items: unknown[]): Promise<string | undefined> => {
    const options = items.find((item): item is { modal?: boolean; detail?: string } => typeof item === 'object');
    const message: ShownMessage = {
      level,
      text,
      items: items.filter((item): item is string => typeof item === 'string'),
      ...(options?.modal === true ? { modal: options.detail === undefined ? {} : { detail: options.detail } } : {}),
    };
    fake.messages.push(message);
    return Promise.resolve(fake.answerMessage(message));
  };
}

export const window = {
  createStatusBarItem(alignment?: StatusBarAlignment, priority?: number): FakeStatusBarItem {
    const item = new FakeStatusBarItem(alignment, priority);
    fake.statusBarItems.push(item);
    return item;
  },
  createTreeView(viewId: string, options: { treeDataProvider: unknown; showCollapseAll?: boolean }): FakeTreeView {
    const view = new FakeTreeView(viewId, options);
    fake.treeViews.push(view);
    return view;
  },
  createOutputChannel(name: string, options?: unknown): FakeLogOutputChannel {
    const channel = new FakeLogOutputChannel(name, options);
    fake.channels.push(channel);
    return channel;
  },
  showInformationMessage: showMessage('info'),
  showWarningMessage: showMessage('warning'),
  showErrorMessage: showMessage('error'),
  showQuickPick(items: readonly unknown[], options?: unknown): Promise<unknown> {
    fake.quickPicks.push({ items, options });
    return Promise.resolve(fake.answerQuickPick(items));
  },
  showOpenDialog(options?: unknown): Promise<Uri[] | undefined> {
    fake.openDialogs.push(options);
    return Promise.resolve(fake.answerOpenDialog());
  },
  showInputBox(options: FakeInputBoxOptions = {}): Promise<string | undefined> {
    fake.inputBoxes.push(options);
    return Promise.resolve(fake.answerInputBox(options));
  },
  showSaveDialog(options?: unknown): Promise<Uri | undefined> {
    fake.saveDialogs.push(options);
    return Promise.resolve(fake.answerSaveDialog());
  },
  async withProgress<R>(
    options: ProgressSession['options'],
    task: (
      progress: { report(value: { message?: string; increment?: number }): void },
      token: CancellationTokenSource['token'],
    ) => Promise<R>,
  ): Promise<R> {
    const source = new CancellationTokenSource();
    const session: ProgressSession = { options, reports: [], cancel: () => source.cancel() };
    fake.progress.push(session);
    try {
      return await task({ report: (value) => session.reports.push(value) }, source.token);
    } finally {
      source.dispose();
    }
  },
  registerWebviewPanelSerializer(viewType: string, serializer: FakePanelSerializer): Disposable {
    fake.serializers.set(viewType, serializer);
    return new Disposable(() => fake.serializers.delete(viewType));
  },
  createWebviewPanel(
    viewType: string,
    title: string,
    column: unknown,
    options: Record<string, unknown>,
  ): FakeWebviewPanel {
    const panel = new FakeWebviewPanel(viewType, title, column, options);
    fake.panels.push(panel);
    return panel;
  },
  showTextDocument(uri: Uri, options?: unknown): Promise<undefined> {
    fake.shownDocuments.push({ uri, options });
    return Promise.resolve(undefined);
  },
};

export const workspace = {
  get workspaceFolders() {
    return fake.workspaceFolders;
  },
  get isTrusted() {
    return fake.isTrusted;
  },
  getConfiguration(section?: string) {
    const full = (key: string): string => (section ? `${section}.${key}` : key);
    const inspect = (key: string) => {
      const setting = fake.settings.get(full(key));
      return setting === undefined ? undefined : { key: full(key), ...setting };
    };
    return {
      get<T>(key: string, defaultValue?: T): T | undefined {
        const s = fake.settings.get(full(key));
        const value = s?.workspaceFolderValue ?? s?.workspaceValue ?? s?.globalValue ?? s?.defaultValue;
        return (value ?? defaultValue) as T | undefined;
      },
      has(key: string): boolean {
        return fake.settings.has(full(key));
      },
      inspect,
    };
  },
  get onDidChangeWorkspaceFolders() {
    return fake.workspaceFoldersChanged.event;
  },
  get onDidChangeConfiguration() {
    return fake.configurationChanged.event;
  },
  get onDidGrantWorkspaceTrust() {
    return fake.trustGranted.event;
  },
  registerTextDocumentContentProvider(
    scheme: string,
    provider: { provideTextDocumentContent(uri: Uri): string },
  ): Disposable {
    if (fake.contentProviders.has(scheme)) throw new Error(`a provider of '${scheme}' is already registered`);
    fake.contentProviders.set(scheme, provider);
    return new Disposable(() => fake.contentProviders.delete(scheme));
  },
  findFiles(include: string, exclude?: string | null, maxResults?: number): Promise<Uri[]> {
    const call: FindFilesCall = { include, exclude: exclude ?? undefined, maxResults };
    fake.findFilesCalls.push(call);
    return Promise.resolve(fake.answerFindFiles(call));
  },
  createFileSystemWatcher(
    pattern: string | RelativePattern,
    ignoreCreate = false,
    ignoreChange = false,
    ignoreDelete = false,
  ): FakeFileSystemWatcher {
    const watcher = new FakeFileSystemWatcher(pattern, {
      create: ignoreCreate,
      change: ignoreChange,
      delete: ignoreDelete,
    });
    fake.watchers.push(watcher);
    return watcher;
  },
  fs: {
    writeFile(uri: Uri, content: Uint8Array): Promise<void> {
      fake.writtenFiles.push({ uri, content });
      return Promise.resolve();
    },
  },
};

export const commands = {
  registerCommand(id: string, handler: Handler): Disposable {
    if (fake.commands.has(id)) throw new Error(`command '${id}' already exists`);
    fake.commands.set(id, handler);
    return new Disposable(() => fake.commands.delete(id));
  },
  executeCommand(id: string, ...args: unknown[]): Promise<unknown> {
    const handler = fake.commands.get(id);
    if (handler === undefined) return Promise.reject(new Error(`command '${id}' not found`));
    return Promise.resolve(handler(...args));
  },
};

export const languages = {
  createDiagnosticCollection(name?: string): FakeDiagnosticCollection {
    const collection = new FakeDiagnosticCollection(name ?? '');
    fake.diagnosticCollections.push(collection);
    return collection;
  },
  registerCodeActionsProvider(selector: unknown, provider: FakeCodeActionProvider['provider']): Disposable {
    const entry = { selector, provider };
    fake.codeActionProviders.push(entry);
    return new Disposable(() => fake.codeActionProviders.splice(fake.codeActionProviders.indexOf(entry), 1));
  },
};

/** A registered language-model tool: what `vscode.lm.registerTool` was given. */
export interface FakeLanguageModelTool {
  invoke(options: { input: unknown; toolInvocationToken: undefined }, token: unknown): Promise<LanguageModelToolResult>;
  prepareInvocation?(options: { input: unknown }, token: unknown): unknown;
}

export class LanguageModelTextPart {
  constructor(public value: string) {}
}

export class LanguageModelToolResult {
  constructor(public content: LanguageModelTextPart[]) {}
}

export const lm = {
  registerTool(name: string, tool: FakeLanguageModelTool): Disposable {
    if (fake.lmTools.has(name)) throw new Error(`tool '${name}' is already registered`);
    fake.lmTools.set(name, tool);
    return new Disposable(() => fake.lmTools.delete(name));
  },
  invokeTool(name: string, options: { input: unknown }): Promise<LanguageModelToolResult> {
    const tool = fake.lmTools.get(name);
    if (!tool) return Promise.reject(new Error(`tool '${name}' is not registered`));
    return tool.invoke({ input: options.input, toolInvocationToken: undefined }, {});
  },
};
