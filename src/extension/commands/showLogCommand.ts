import type * as vscode from 'vscode';

/** Handler of `creditLens.showLog`: reveals the Credit Lens log output channel. */
export function showLogCommand(deps: { readonly log: vscode.LogOutputChannel }): () => Promise<void> {
  return () => {
    deps.log.show(true);
    return Promise.resolve();
  };
}
