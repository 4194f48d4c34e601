import * as vscode from 'vscode';
import type { EvaluatorChoice } from '../engine/credit/chooseEvaluator';
import { configKeys, configSection, type CreditLensConfig } from './config';

/** Where a setting's effective value comes from. */
export type SettingSource = 'workspace' | 'user' | 'default';

/** The evaluator a command uses, and why it is not the configured one when it is not. */
export interface GatedEvaluator {
  readonly choice: EvaluatorChoice;
  /** Set when a configured command evaluator was refused: says why and how to enable it. */
  readonly warning?: string;
}

/**
 * The evaluator choice under workspace trust. A command evaluator (`creditLens.evaluator.command`)
 * runs an arbitrary program on the trace folder, so:
 *
 * - a command from **workspace** or folder settings (`.vscode/settings.json`, which arrives with
 *   the folder) is used only when the workspace is trusted; untrusted, the built-in evaluator is
 *   used and the warning says how to enable the command (trust the workspace);
 * - a command from **user** settings is the user's own choice, not the folder's, and is used even
 *   in Restricted Mode. This follows VS Code's restricted-mode guidance: a setting listed in
 *   `capabilities.untrustedWorkspaces.restrictedConfigurations` ignores only its *workspace* values
 *   in an untrusted workspace; user values still apply;
 * - a command named by a run manifest (`run.json`) is never run (engine/credit/chooseEvaluator),
 *   trusted or not.
 *
 * Without a command (`""`), the built-in evaluator with its options is used, whatever the trust.
 */
export function evaluatorChoice(config: CreditLensConfig, isTrusted: boolean, source: SettingSource): GatedEvaluator {
  const builtin: EvaluatorChoice = {
    kind: 'builtin',
    name: config.evaluator.builtin,
    options: config.evaluator.options,
  };
  const { command, timeoutMs, concurrency } = config.evaluator;
  if (command === '') return { choice: builtin };
  if (source === 'workspace' && !isTrusted)
    return { choice: builtin, warning: untrustedWarning(command, config.evaluator.builtin) };
  return { choice: { kind: 'command', command, timeoutMs, concurrency } };
}

/** Why a workspace command evaluator is not run, and how to allow it. */
export function untrustedWarning(command: string, builtin: string): string {
  return (
    `Credit Lens did not run the evaluator command "${command}" from this workspace's settings because the workspace is not trusted; ` +
    `the built-in ${builtin} evaluator was used instead. To use the command, trust the workspace (Manage Workspace Trust), ` +
    'or set creditLens.evaluator.command in your user settings.'
  );
}

/** The shape of `WorkspaceConfiguration.inspect()` that {@link settingSource} reads. */
export interface InspectedSetting {
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

/**
 * Where the effective value comes from: workspace or folder settings win over user settings, which
 * win over the default (the same precedence as VS Code). Language-specific values are not used by
 * these settings.
 */
export function settingSource(inspected: InspectedSetting | undefined): SettingSource {
  if (inspected === undefined) return 'default';
  if (inspected.workspaceFolderValue !== undefined || inspected.workspaceValue !== undefined) return 'workspace';
  if (inspected.globalValue !== undefined) return 'user';
  return 'default';
}

/** {@link evaluatorChoice} under the current trust and the source of `creditLens.evaluator.command`. */
export function currentEvaluatorChoice(config: CreditLensConfig): GatedEvaluator {
  const inspected = vscode.workspace.getConfiguration(configSection).inspect(configKeys.evaluatorCommand);
  return evaluatorChoice(config, vscode.workspace.isTrusted, settingSource(inspected));
}

/** VS Code's command that opens the Workspace Trust editor. */
export const manageTrustCommand = 'workbench.trust.manage';

const manageTrustAction = 'Manage Workspace Trust';

/**
 * The gated evaluator of {@link currentEvaluatorChoice}; when the configured command was refused,
 * logs the warning and shows it (without waiting) with a button that opens Workspace Trust.
 */
export function gatedEvaluatorChoice(
  config: CreditLensConfig,
  log: vscode.LogOutputChannel,
  refused = currentEvaluatorChoice(config),
): EvaluatorChoice {
  if (refused.warning !== undefined) showTrustWarning(refused.warning, log);
  return refused.choice;
}

/** Logs `warning` and shows it with a Manage Workspace Trust button, without waiting for the user. */
export function showTrustWarning(warning: string, log: vscode.LogOutputChannel): void {
  log.warn(warning);
  void vscode.window.showWarningMessage(warning, manageTrustAction).then((choice) => {
    if (choice === manageTrustAction) void vscode.commands.executeCommand(manageTrustCommand);
  });
}
