import * as vscode from 'vscode';

/** A path under the extension folder, as segments (`['media', 'summary.css']`). */
export type AssetPath = readonly string[];

export interface WebviewHtmlOptions {
  readonly webview: Pick<vscode.Webview, 'asWebviewUri' | 'cspSource'>;
  readonly extensionUri: vscode.Uri;
  /** From {@link createNonce}; a fresh one for every document. */
  readonly nonce: string;
  /** The bundled script, e.g. `['dist', 'webview', 'main.js']`. */
  readonly script: AssetPath;
  readonly styles: readonly AssetPath[];
  /** Document title. A fixed string of ours: trace content never goes into the HTML. */
  readonly title: string;
}

/** The folders a webview may load from: the built webview bundle and the static media. */
export function webviewResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')];
}

/** Options for a panel that runs our bundle: scripts on, resources only from our own folders. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: webviewResourceRoots(extensionUri) };
}

/**
 * The HTML shell of a webview: a strict CSP (`default-src 'none'`, scripts by nonce only, styles,
 * images and fonts from the webview's own resource origin), every asset through `asWebviewUri`, an
 * empty `<main id="app">` that the script fills. Data arrives later as messages, never in the HTML.
 */
export function buildWebviewHtml(options: WebviewHtmlOptions): string {
  const { webview, extensionUri, nonce } = options;
  const asset = (path: AssetPath): string =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...path)).toString();
  const csp = [
    `default-src 'none'`,
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `font-src ${webview.cspSource}`,
  ].join('; ');
  const styles = options.styles.map((path) => `    <link rel="stylesheet" href="${escapeHtml(asset(path))}">`);
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '  <head>',
    '    <meta charset="UTF-8">',
    `    <meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    '    <meta name="viewport" content="width=device-width, initial-scale=1.0">',
    ...styles,
    `    <title>${escapeHtml(options.title)}</title>`,
    '  </head>',
    '  <body>',
    // Not a live region: views with virtual lists would be read out on every scroll; each view
    // announces through its own status regions.
    '    <main id="app"></main>',
    `    <script nonce="${escapeHtml(nonce)}" src="${escapeHtml(asset(options.script))}"></script>`,
    '  </body>',
    '</html>',
  ].join('\n');
}

/** Escapes text for a text node or a double-quoted attribute value (so `'` stays as it is). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => htmlEntities[char] ?? char);
}

const htmlEntities: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
