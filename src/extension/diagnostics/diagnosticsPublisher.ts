import * as vscode from 'vscode';
import type { BrowseFlag, BrowseParseError } from '../../store/browseRepository';
import { Disposable, toDisposable } from '../lifecycle';
import { commandIds } from '../commandIds';
import {
  dashboardActionTitle,
  flagDiagnostics,
  type DashboardLink,
  type DiagnosticLevel,
  type SeverityByKind,
  type TraceDiagnostic,
} from './flagDiagnostics';

const levels: Readonly<Record<DiagnosticLevel, vscode.DiagnosticSeverity>> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

/** A dashboard link of a published diagnostic, found again by file, line and code (VS Code hands code actions copies). */
interface PublishedLink {
  readonly folder: vscode.Uri;
  readonly line: number;
  readonly code: string;
  readonly link: DashboardLink;
}

/**
 * Owns the 'creditLens' diagnostic collection: shows flags and parse errors on the trace lines of
 * each indexed folder, each flag linked to its other flagged episodes and, as a quick fix, to the
 * dashboard on its steps. `publish` replaces everything previously published for that folder.
 */
export class DiagnosticsPublisher extends Disposable {
  private readonly collection: vscode.DiagnosticCollection;
  /** Files that hold diagnostics, per folder (`folder.toString()`). */
  private readonly published = new Map<string, vscode.Uri[]>();
  /** Dashboard links by file (`uri.toString()`). */
  private readonly links = new Map<string, PublishedLink[]>();

  /** `severities` is read on each publish, so a settings change applies to the next one. */
  constructor(private readonly severities: () => SeverityByKind = () => ({})) {
    super();
    this.collection = this._register(vscode.languages.createDiagnosticCollection('creditLens'));
    this._register(toDisposable(() => this.published.clear()));
    this._register(
      vscode.languages.registerCodeActionsProvider(
        { scheme: 'file' },
        { provideCodeActions: (document, _range, context) => this.dashboardActions(document.uri, context) },
        { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
      ),
    );
  }

  /** Replaces the folder's diagnostics with those of `flags` and `errors` (trace paths relative to `folder`). */
  publish(folder: vscode.Uri, flags: readonly BrowseFlag[], errors: readonly BrowseParseError[]): void {
    this.clear(folder);
    const byFile = new Map<string, TraceDiagnostic[]>();
    for (const d of flagDiagnostics(flags, errors, this.severities()))
      byFile.set(d.uri, [...(byFile.get(d.uri) ?? []), d]);
    const files: vscode.Uri[] = [];
    for (const [uri, list] of byFile) {
      const file = vscode.Uri.joinPath(folder, uri);
      this.collection.set(
        file,
        list.map((d) => toDiagnostic(d, folder)),
      );
      this.links.set(
        file.toString(),
        list.flatMap((d) => (d.dashboard ? [{ folder, line: d.line, code: d.code, link: d.dashboard }] : [])),
      );
      files.push(file);
    }
    this.published.set(folder.toString(), files);
  }

  /** Removes the folder's diagnostics (e.g. when its index is deleted). */
  clear(folder: vscode.Uri): void {
    for (const file of this.published.get(folder.toString()) ?? []) {
      this.collection.delete(file);
      this.links.delete(file.toString());
    }
    this.published.delete(folder.toString());
  }

  /** "Open in Dashboard (steps a–b)" for each Credit Lens diagnostic of the request that has a run. */
  private dashboardActions(file: vscode.Uri, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const links = this.links.get(file.toString()) ?? [];
    return context.diagnostics.flatMap((diagnostic) => {
      if (diagnostic.source !== 'Credit Lens') return [];
      const found = links.find((l) => l.line - 1 === diagnostic.range.start.line && l.code === diagnostic.code);
      if (!found) return [];
      const action = new vscode.CodeAction(dashboardActionTitle(found.link), vscode.CodeActionKind.QuickFix);
      action.diagnostics = [diagnostic];
      action.command = {
        command: commandIds.openDashboard,
        title: action.title,
        arguments: [{ folder: found.folder, run: { runId: found.link.runId }, steps: found.link.steps }],
      };
      return [action];
    });
  }
}

function toDiagnostic(d: TraceDiagnostic, folder: vscode.Uri): vscode.Diagnostic {
  const at = new vscode.Position(d.line - 1, 0);
  const diagnostic = new vscode.Diagnostic(new vscode.Range(at, at), d.message, levels[d.severity]);
  diagnostic.source = d.source;
  diagnostic.code = d.code;
  if (d.related)
    diagnostic.relatedInformation = d.related.map((r) => {
      const line = new vscode.Position(r.line - 1, 0);
      return new vscode.DiagnosticRelatedInformation(
        new vscode.Location(vscode.Uri.joinPath(folder, r.uri), new vscode.Range(line, line)),
        r.message,
      );
    });
  return diagnostic;
}
