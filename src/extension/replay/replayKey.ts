import * as vscode from 'vscode';
import { errorText } from '../panels/webviewSession';
import type { KeyedReplayChoice, ReplayChoice } from './replaySeams';

/** The one SecretStorage key under which the replay's API key is kept. */
export const replayApiKeySecret = 'creditLens.evaluator.replay.apiKey';

export interface ReplayKeyDeps {
  readonly secrets: vscode.SecretStorage;
  readonly log: vscode.LogOutputChannel;
}

/**
 * Handler of `creditLens.setReplayApiKey`: asks for the key in a password box and keeps it in VS
 * Code's secret storage (the OS keychain), never in settings. Logs only that a key was stored.
 */
export function setReplayApiKeyCommand(deps: ReplayKeyDeps): () => Promise<void> {
  return async () => {
    const key = await vscode.window.showInputBox({
      title: 'Credit Lens: Set Replay API Key',
      prompt:
        "The API key of the model server in creditLens.evaluator.replay, sent as 'Authorization: Bearer …' with each replay. It is kept in VS Code's secret storage.",
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) =>
        value.trim() === '' ? 'Enter the key, or press Escape to keep the current one' : undefined,
    });
    if (key === undefined || key.trim() === '') return;
    await deps.secrets.store(replayApiKeySecret, key.trim());
    deps.log.info("Replay API key stored in VS Code's secret storage");
    void vscode.window.showInformationMessage(
      "Credit Lens: the replay API key is stored in VS Code's secret storage; replays send it to the model server of creditLens.evaluator.replay.",
    );
  };
}

/** Handler of `creditLens.clearReplayApiKey`: forgets the stored key (replays then use the environment variable, if set). */
export function clearReplayApiKeyCommand(deps: ReplayKeyDeps): () => Promise<void> {
  return async () => {
    await deps.secrets.delete(replayApiKeySecret);
    deps.log.info("Replay API key removed from VS Code's secret storage");
    void vscode.window.showInformationMessage(
      'Credit Lens: the replay API key is removed; replays use the environment variable named by api_key_env, if it is set.',
    );
  };
}

/**
 * `choice` with the stored API key, for one pass (in memory only). Without a stored key, or when
 * the secret storage cannot be read, the engine falls back to the environment variable.
 */
export async function withReplayKey(
  choice: ReplayChoice,
  secrets: vscode.SecretStorage | undefined,
  log: vscode.LogOutputChannel,
): Promise<KeyedReplayChoice> {
  let apiKey: string | undefined;
  try {
    apiKey = await secrets?.get(replayApiKeySecret);
  } catch (error) {
    log.warn(`Cannot read the replay API key from VS Code's secret storage: ${errorText(error)}`);
  }
  return apiKey ? { ...choice, apiKey } : choice;
}
