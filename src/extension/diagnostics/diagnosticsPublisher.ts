import * as vscode from 'vscode';
import type { BrowseFlag, BrowseParseError } from '../../store/browseRepository';
import { Disposable, toDisposable } from '../lifecycle';
import { flagDiagnostics, type DiagnosticLevel, type SeverityByKind, type TraceDiagnostic } from './flagDiagnostics';

const levels: Readonly<Record<DiagnosticLevel, vscode.DiagnosticSeverity>> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

/**
 * Owns the 'creditLens' diagnostic collection: shows flags and parse errors on the trace lines of
 * each indexed folder. `publish` replaces everything previously published for that folder.
 */
export class DiagnosticsPublisher extends Disposable {
  private readonly collection: vscode.DiagnosticCollection;
  /** Files that hold diagnostics, per folder (`folder.toString()`). */
  private readonly published = new Map<string, vscode.Uri[]>();

  /** `severities` is read on each publish, so a settings change applies to the next one. */
  constructor(private readonly severities: () => SeverityByKind = () => ({})) {
    super();
    this.collection = this._register(vscode.languages.createDiagnosticCollection('creditLens'));
    this._register(toDisposable(() => this.published.clear()));
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
      this.collection.set(file, list.map(toDiagnostic));
      files.push(file);
    }
    this.published.set(folder.toString(), files);
  }

  /** Removes the folder's diagnostics (e.g. when its index is deleted). */
  clear(folder: vscode.Uri): void {
    for (const file of this.published.get(folder.toString()) ?? []) this.collection.delete(file);
    this.published.delete(folder.toString());
  }
}

function toDiagnostic(d: TraceDiagnostic): vscode.Diagnostic {
  const at = new vscode.Position(d.line - 1, 0);
  const diagnostic = new vscode.Diagnostic(new vscode.Range(at, at), d.message, levels[d.severity]);
  diagnostic.source = d.source;
  diagnostic.code = d.code;
  return diagnostic;
}
