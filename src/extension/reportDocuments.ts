import * as vscode from 'vscode';

/** URI scheme of the read-only report documents (a table straight from the trace files). */
export const reportScheme = 'credit-lens-report';

/**
 * Read-only text documents holding a report the extension computed (the credit table from the
 * trace files): shown in an editor tab the user can read, search, copy and save, without the
 * "save changes?" prompt of an untitled document. The text is the CLI's report, so trace content
 * (agent and run names) is shown as plain text and never rendered.
 */
export class ReportDocuments implements vscode.TextDocumentContentProvider {
  // A report never changes once shown (each run of its command opens a new one): no onDidChange.
  private readonly texts = new Map<string, string>();
  private shown = 0;

  /** Registers the provider for {@link reportScheme}; dispose the result to unregister. */
  register(): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(reportScheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? 'This report is no longer held: run its command again.';
  }

  /** Opens `lines` as a new document titled `title` (each call a new tab: reports are compared side by side). */
  async show(title: string, lines: readonly string[]): Promise<vscode.Uri> {
    this.shown++;
    const uri = vscode.Uri.from({ scheme: reportScheme, path: `/${safeTitle(title)}.txt`, query: String(this.shown) });
    this.texts.set(uri.toString(), `${lines.join('\n')}\n`);
    await vscode.window.showTextDocument(uri, { preview: false });
    return uri;
  }
}

/** A tab title without path separators (the title is the URI's file name). */
function safeTitle(title: string): string {
  return title.replace(/[/\\]/g, '-').slice(0, 120);
}
