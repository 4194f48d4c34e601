import * as vscode from 'vscode';
import type { EvaluatorChoice } from '../engine/credit/chooseEvaluator';
import { configKeys, configSection, type CreditLensConfig } from './config';

/** Where a setting's effective value comes from. */
export type SettingSource = 'workspace' | 'user' | 'default';

/** The evaluator a command uses, and why it is not the configured one when it is not. */
export interface GatedEvaluator {
  readonly choice: EvaluatorChoice;
  /** Set when a configured command or replay was refused: says why and how to enable it. */
  readonly warning?: string;
  /** What fixes the warning: trusting the workspace (the default) or correcting the settings. */
  readonly fix?: 'trust' | 'settings';
  /** When `choice` is the replay: the evaluator used without it (the checker or the command), offered beside it. */
  readonly fallback?: EvaluatorChoice;
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
 *
 * A replay (`creditLens.evaluator.replay`) sends the trace's conversations to a model server and
 * costs calls, so it runs **only in a trusted workspace**, whichever settings name the server: in
 * a trusted workspace its user and workspace settings are both the user's; untrusted, the
 * evaluator above is used and the warning says how to enable the replay. A trace never names the
 * server (run.json's replay options carry no URL). When allowed, the replay is the choice (the user
 * configured it to be used) and the evaluator above is its `fallback`; an invalid replay setting
 * turns the replay off with a warning pointing at the settings.
 */
export function evaluatorChoice(config: CreditLensConfig, isTrusted: boolean, source: SettingSource): GatedEvaluator {
  const base = commandOrBuiltin(config, isTrusted, source);
  const replay = config.evaluator.replay;
  if (replay.state === 'off') return base;
  if (replay.state === 'invalid')
    return refuse(base, `Credit Lens replay is off: ${replay.error}. ${usedInstead(base.choice)}`, 'settings');
  if (!isTrusted) return refuse(base, untrustedReplayWarning(replay.display, base.choice), 'trust');
  return { choice: { kind: 'replay', options: replay.options }, fallback: base.choice };
}

function commandOrBuiltin(config: CreditLensConfig, isTrusted: boolean, source: SettingSource): GatedEvaluator {
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

/** `gated` with one more warning (after any it has); trust stays the fix when either asks for it. */
function refuse(gated: GatedEvaluator, warning: string, fix: 'trust' | 'settings'): GatedEvaluator {
  const both = gated.warning === undefined ? warning : `${gated.warning} ${warning}`;
  return { choice: gated.choice, warning: both, fix: gated.warning === undefined ? fix : 'trust' };
}

/** Why a configured replay is not run in an untrusted workspace, and how to allow it. */
export function untrustedReplayWarning(endpoint: string, instead: EvaluatorChoice): string {
  return (
    `Credit Lens did not replay on ${endpoint} because the workspace is not trusted: a replay sends the trace's conversations to a model server. ` +
    `${usedInstead(instead)} To replay, trust the workspace (Manage Workspace Trust).`
  );
}

function usedInstead(choice: EvaluatorChoice): string {
  const what =
    choice.kind === 'command'
      ? `the evaluator command "${choice.command}"`
      : `the built-in ${choice.kind === 'builtin' ? choice.name : 'final-answer'} evaluator`;
  return `Recomputes use ${what} instead.`;
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
 * The evaluator of a pass that asks for no confirmation (the audit, exports): the gated evaluator
 * of {@link currentEvaluatorChoice}, but never a replay (replays cost calls and run only after the
 * user confirmed their estimate: its fallback is used). When the configured command or replay was
 * refused, logs the warning and shows it (without waiting) with the button that fixes it.
 */
export function gatedEvaluatorChoice(
  config: CreditLensConfig,
  log: vscode.LogOutputChannel,
  refused = currentEvaluatorChoice(config),
): EvaluatorChoice {
  if (refused.warning !== undefined) showTrustWarning(refused.warning, log, refused.fix);
  return refused.fallback ?? refused.choice;
}

const openSettingsAction = 'Open Settings';

/**
 * Logs `warning` and shows it, without waiting for the user, with a Manage Workspace Trust button
 * (or Open Settings, on the replay setting, when the settings are what needs fixing).
 */
export function showTrustWarning(
  warning: string,
  log: vscode.LogOutputChannel,
  fix: 'trust' | 'settings' = 'trust',
): void {
  log.warn(warning);
  const action = fix === 'trust' ? manageTrustAction : openSettingsAction;
  void vscode.window.showWarningMessage(warning, action).then((choice) => {
    if (choice === manageTrustAction) void vscode.commands.executeCommand(manageTrustCommand);
    if (choice === openSettingsAction)
      void vscode.commands.executeCommand(
        'workbench.action.openSettings',
        `${configSection}.${configKeys.evaluatorReplay}`,
      );
  });
}
