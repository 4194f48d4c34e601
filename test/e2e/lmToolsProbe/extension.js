// Test-only helper extension of the e2e suite (test/e2e/steps/lmTools.ts, docs/e2e.md): one command
// that asks the Credit Lens language-model tools "which agent free-rides, from which step, and show me
// one of its episodes" through vscode.lm.invokeTool, as a chat agent would but without a model, and
// writes every call and its JSON result to <workspace>/lm-tools-answer.json for the Playwright step.
'use strict';
const vscode = require('vscode');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

/** The tool's result as JSON (the Credit Lens tools answer one text part). */
async function call(calls, name, input) {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
  const value = JSON.parse(text);
  calls.push({ name, input, value });
  return value;
}

async function askTools() {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return;
  const calls = [];
  const answer = { tools: vscode.lm.tools.map((t) => t.name).filter((n) => n.startsWith('creditLens_')), calls };
  try {
    const runs = await call(calls, 'creditLens_list_runs', {});
    const team = runs.runs.find((r) => r.run === 'planner-solver-verifier');
    if (!team) throw new Error(`no planner-solver-verifier run in ${runs.folder}`);
    const flag = (team.audit.flags ?? []).find((f) => f.kind === 'free-rider');
    if (!flag) throw new Error(`no free-rider flag in ${JSON.stringify(team.audit)}`);
    await call(calls, 'creditLens_explain_flag', { flagId: flag.flagId });
    const found = await call(calls, 'creditLens_find_episodes', { run: team.run, flagId: flag.flagId, limit: 1 });
    await call(calls, 'creditLens_read_episode', { episodeId: found.episodes[0].episodeId, messageLimit: 5 });
  } catch (error) {
    answer.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  }
  writeFileSync(join(folder.uri.fsPath, 'lm-tools-answer.json'), JSON.stringify(answer, null, 2));
}

exports.activate = (context) => {
  context.subscriptions.push(vscode.commands.registerCommand('creditLensE2e.askTools', askTools));
};
exports.deactivate = () => undefined;
