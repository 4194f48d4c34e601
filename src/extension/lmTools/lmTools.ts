import * as vscode from 'vscode';
import { openToolIndex } from '../../engine/tools/toolIndex';
import { availableTools, creditLensTools, invokeTool } from '../../engine/tools/toolSet';
import type { CreditLensTool } from '../../engine/tools/toolTypes';

/** What the language-model tools read: the run folder the views follow, and its index file. */
export interface LmToolsDeps {
  /** The current run folder (the one last indexed, audited or chosen), undefined before any is indexed. */
  readonly currentFolder: () => vscode.Uri | undefined;
  /** The index file the settings name for a folder (undefined: the default lookup). */
  readonly indexPath: (root: string) => string | undefined;
  readonly log: vscode.LogOutputChannel;
}

/** The name a tool has in VS Code (package.json `contributes.languageModelTools`). */
export function lmToolName(tool: Pick<CreditLensTool, 'name'>): string {
  return `creditLens_${tool.name}`;
}

/**
 * Registers the tool layer (src/engine/tools) as VS Code language-model tools, thin adapters that
 * open the current run folder's index read-only for each call. In Restricted Mode only the
 * read-only tools are registered; those that compute are added when the workspace is trusted
 * (docs/agent-tools.md, "Scope"), and each asks for a confirmation before it runs.
 */
export function registerLmTools(deps: LmToolsDeps): vscode.Disposable {
  const registered = new Map<string, vscode.Disposable>();
  const registerAllowed = (): void => {
    for (const tool of availableTools({ allowCompute: vscode.workspace.isTrusted }))
      if (!registered.has(tool.name))
        registered.set(tool.name, vscode.lm.registerTool(lmToolName(tool), adapter(tool, deps)));
  };
  registerAllowed();
  const trust = vscode.workspace.onDidGrantWorkspaceTrust(registerAllowed);
  return new vscode.Disposable(() => {
    trust.dispose();
    for (const d of registered.values()) d.dispose();
    registered.clear();
  });
}

function adapter(tool: CreditLensTool, deps: LmToolsDeps): vscode.LanguageModelTool<object> {
  return {
    prepareInvocation: () =>
      tool.mutating
        ? {
            invocationMessage: `Credit Lens: ${tool.title.toLowerCase()}`,
            confirmationMessages: {
              title: `Credit Lens: ${tool.title}`,
              message: new vscode.MarkdownString().appendText(
                `${tool.description} Run it on ${deps.currentFolder()?.fsPath ?? 'the current run folder'}?`,
              ),
            },
          }
        : { invocationMessage: `Credit Lens: ${tool.title.toLowerCase()}` },
    invoke: async (options) => textResult(await run(tool, deps, options.input)),
  };
}

/** The tool's JSON result as text, or `{"error": …}`: a call never throws at the chat. */
async function run(tool: CreditLensTool, deps: LmToolsDeps, input: unknown): Promise<string> {
  if (tool.mutating && !vscode.workspace.isTrusted)
    return errorText(`${tool.name} computes, which Restricted Mode does not allow: trust the workspace first`);
  const folder = deps.currentFolder();
  if (!folder) return errorText('no run folder is indexed yet: run Credit Lens: Index Run Folder first');
  const opened = openToolIndex(folder.fsPath, deps.indexPath(folder.fsPath));
  if (!opened.ok) return errorText(opened.error);
  try {
    const tools = availableTools({ allowCompute: vscode.workspace.isTrusted });
    const result = await invokeTool(tools, opened.value, tool.name, input);
    if (!result.ok) deps.log.info(`Tool ${tool.name}: ${result.error}`);
    return result.ok ? JSON.stringify(result.value) : errorText(result.error);
  } finally {
    opened.value.close();
  }
}

const errorText = (error: string): string => JSON.stringify({ error });

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

/** Every tool name VS Code may know, read-only or not (package.json lists the same; a test checks it). */
export const lmToolNames: readonly string[] = creditLensTools.map(lmToolName);
