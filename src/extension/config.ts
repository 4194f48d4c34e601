import { isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { flagKinds, type FlagKind } from '../core/auditReport';
import { err, ok, type Result } from '../core/result';
import { defaultAuditThresholds, parseAuditThresholds, type AuditThresholds } from '../credit/audit/auditThresholds';
import { creditMethods, isCreditMethod, type CreditMethodName } from '../engine/credit/creditMethod';
import { parseReplayOptions, type ReplayOptions } from '../engine/evaluators/replay/replayOptions';
import { findIndexLocation, folderKey, indexFileName } from '../engine/indexLocation';
import { replayEndpoint, type ReplayEndpoint } from './replay/replayEndpoint';

/** The settings section: every key below is `creditLens.<key>`. */
export const configSection = 'creditLens';

/** Where indexes live: in the run folder, in VS Code's workspace storage, or under a folder of the user's. */
export type IndexLocationSetting =
  | { readonly kind: 'runFolder' }
  | { readonly kind: 'workspaceStorage' }
  | { readonly kind: 'custom'; readonly folder: string };

/**
 * `creditLens.evaluator.replay`: off (unset, `null` or `{}`), on with its options and the model
 * server's base URL for messages (`display`: no query, which may carry a key), or invalid: then
 * replay is off and the gate (trust.ts) warns once with `error`, instead of failing every setting.
 */
export type ReplaySetting =
  | { readonly state: 'off' }
  | ({ readonly state: 'on'; readonly options: ReplayOptions } & ReplayEndpoint)
  | { readonly state: 'invalid'; readonly error: string };

/** How a flag kind appears in the Problems panel. */
export type SeverityName = 'error' | 'warning' | 'information' | 'hint';
const severityNames: readonly SeverityName[] = ['error', 'warning', 'information', 'hint'];

/** The extension's settings, typed; mirrors `package.json#contributes.configuration`. */
export interface CreditLensConfig {
  /** `creditLens.index.location`: `"runFolder"` (default), `"workspaceStorage"`, or an absolute folder path. */
  readonly indexLocation: IndexLocationSetting;
  /** `creditLens.credit.defaultMethod`: the method offered first by Recompute Credit (default `loo`). */
  readonly defaultMethod: CreditMethodName;
  readonly evaluator: {
    /** `creditLens.evaluator.builtin`: the built-in evaluator's name (default `final-answer`). */
    readonly builtin: string;
    /** `creditLens.evaluator.options`: options of the built-in evaluator (e.g. `{"aggregation": "vote"}`). */
    readonly options: Readonly<Record<string, unknown>>;
    /** `creditLens.evaluator.command`: a command speaking the evaluator protocol; `""` (default) for none. */
    readonly command: string;
    /** `creditLens.evaluator.concurrency`: episodes evaluated at once, an integer in [1, 64] (default 4). */
    readonly concurrency: number;
    /** `creditLens.evaluator.timeoutMs`: per-request timeout of a command evaluator, ms in [100, 3 600 000] (default 60 000). */
    readonly timeoutMs: number;
    /** `creditLens.evaluator.replay`: replay on the user's model server (docs/replay.md, "In VS Code"). */
    readonly replay: ReplaySetting;
  };
  /** `creditLens.audit.thresholds`: over the defaults of credit-methods.md §5 (validated by parseAuditThresholds). */
  readonly auditThresholds: AuditThresholds;
  /** `creditLens.audit.severity`: flag kind → Problems severity; kinds not set keep {@link defaultSeverity}. */
  readonly auditSeverity: Readonly<Record<FlagKind, SeverityName>>;
  /** `creditLens.liveTail.enabled`: re-index a run folder while training appends to it (default true). */
  readonly liveTailEnabled: boolean;
}

/** Severity per flag kind when `creditLens.audit.severity` does not say (as the SARIF levels: silent is a note). */
export const defaultSeverity: Readonly<Record<FlagKind, SeverityName>> = Object.freeze({
  silent: 'information',
  idle: 'warning',
  'free-rider': 'warning',
  dominant: 'warning',
  decoupling: 'warning',
});

/** The setting keys, relative to {@link configSection}. */
export const configKeys = {
  indexLocation: 'index.location',
  defaultMethod: 'credit.defaultMethod',
  evaluatorBuiltin: 'evaluator.builtin',
  evaluatorOptions: 'evaluator.options',
  evaluatorCommand: 'evaluator.command',
  evaluatorConcurrency: 'evaluator.concurrency',
  evaluatorTimeoutMs: 'evaluator.timeoutMs',
  evaluatorReplay: 'evaluator.replay',
  auditThresholds: 'audit.thresholds',
  auditSeverity: 'audit.severity',
  liveTailEnabled: 'liveTail.enabled',
} as const;

type Read<T> = Result<T>;
const name = (key: string): string => `${configSection}.${key}`;

/**
 * The settings from `get(key)` (a key of {@link configKeys}; `undefined` or `null` = default). Every
 * invalid value is reported, each message naming the setting, the value and what is allowed; the
 * messages are joined with `; `.
 */
export function readConfig(get: (key: string) => unknown): Result<CreditLensConfig> {
  const errors: string[] = [];
  const take = <T>(read: Read<T>, fallback: T): T => {
    if (read.ok) return read.value;
    errors.push(read.error);
    return fallback;
  };
  const config: CreditLensConfig = {
    indexLocation: take(readIndexLocation(get(configKeys.indexLocation)), { kind: 'runFolder' }),
    defaultMethod: take(readMethod(get(configKeys.defaultMethod)), 'loo'),
    evaluator: {
      builtin: take(
        readString(configKeys.evaluatorBuiltin, get(configKeys.evaluatorBuiltin), 'final-answer', false),
        'final-answer',
      ),
      options: take(readObject(configKeys.evaluatorOptions, get(configKeys.evaluatorOptions)), {}),
      command: take(readString(configKeys.evaluatorCommand, get(configKeys.evaluatorCommand), '', true), '').trim(),
      concurrency: take(
        readInteger(configKeys.evaluatorConcurrency, get(configKeys.evaluatorConcurrency), 4, [1, 64]),
        4,
      ),
      timeoutMs: take(
        readInteger(configKeys.evaluatorTimeoutMs, get(configKeys.evaluatorTimeoutMs), 60_000, [100, 3_600_000]),
        60_000,
      ),
      replay: readReplay(get(configKeys.evaluatorReplay)),
    },
    auditThresholds: take(readThresholds(get(configKeys.auditThresholds)), { ...defaultAuditThresholds }),
    auditSeverity: take(readSeverity(get(configKeys.auditSeverity)), defaultSeverity),
    liveTailEnabled: take(readBoolean(configKeys.liveTailEnabled, get(configKeys.liveTailEnabled), true), true),
  };
  return errors.length > 0 ? err(errors.join('; ')) : ok(config);
}

/** {@link readConfig} over the current VS Code settings (`workspace.getConfiguration('creditLens')`). */
export function loadConfig(): Result<CreditLensConfig> {
  const settings = vscode.workspace.getConfiguration(configSection);
  return readConfig((key) => settings.get(key));
}

/**
 * The index file of `root` under a location setting, or `undefined` for the default lookup (the run
 * folder, else the user cache; see engine/indexLocation). Per-folder indexes under workspace storage
 * or a custom folder are keyed by a hash of the folder's absolute path. `storageDir` is
 * `context.storageUri.fsPath`; without one (no workspace open) the default lookup is used.
 */
export function indexDbPath(
  location: IndexLocationSetting,
  root: string,
  storageDir: string | undefined,
): string | undefined {
  const key = folderKey(root);
  if (location.kind === 'custom') return join(location.folder, key, indexFileName);
  if (location.kind === 'workspaceStorage' && storageDir !== undefined)
    return join(storageDir, 'indexes', key, indexFileName);
  return undefined;
}

/** The index file the `creditLens.index.location` setting asks for (undefined: the default lookup). */
export function configuredIndexPath(root: string, storageDir: string | undefined): string | undefined {
  const config = loadConfig();
  return config.ok ? indexDbPath(config.value.indexLocation, root, storageDir) : undefined;
}

/** True when `root` has an index where the settings (else the default lookup) put it; creates nothing. */
export function hasIndex(root: string, storageDir: string | undefined): boolean {
  return findIndexLocation(root, configuredIndexPath(root, storageDir)) !== undefined;
}

function readIndexLocation(raw: unknown): Read<IndexLocationSetting> {
  if (raw === undefined || raw === null || raw === '' || raw === 'runFolder') return ok({ kind: 'runFolder' });
  if (raw === 'workspaceStorage') return ok({ kind: 'workspaceStorage' });
  if (typeof raw === 'string' && isAbsolute(raw.trim())) return ok({ kind: 'custom', folder: raw.trim() });
  return err(
    `${name(configKeys.indexLocation)} must be "runFolder", "workspaceStorage" or an absolute folder path, got ${JSON.stringify(raw)}`,
  );
}

/**
 * The replay setting. Never an error of the whole configuration: a bad replay setting turns replay
 * off (with a warning at the gate), the other settings still apply.
 */
export function readReplay(raw: unknown): ReplaySetting {
  if (raw === undefined || raw === null) return { state: 'off' };
  const key = name(configKeys.evaluatorReplay);
  // The value is not echoed: a misplaced string could be a URL with a key in it.
  if (!isPlainObject(raw))
    return { state: 'invalid', error: `${key} must be an object such as {"url": "http://127.0.0.1:8000/v1"}` };
  if (Object.keys(raw).length === 0) return { state: 'off' };
  const parsed = parseReplayOptions(raw);
  if (!parsed.ok) return { state: 'invalid', error: `${key}: ${parsed.error}` };
  try {
    return { state: 'on', options: parsed.value, ...replayEndpoint(parsed.value.url) };
  } catch (error) {
    return { state: 'invalid', error: `${key}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function readMethod(raw: unknown): Read<CreditMethodName> {
  if (raw === undefined || raw === null) return ok('loo');
  if (typeof raw === 'string' && isCreditMethod(raw)) return ok(raw);
  return err(
    `${name(configKeys.defaultMethod)} must be one of ${creditMethods.join(', ')}, got ${JSON.stringify(raw)}`,
  );
}

function readString(key: string, raw: unknown, fallback: string, allowEmpty: boolean): Read<string> {
  if (raw === undefined || raw === null) return ok(fallback);
  if (typeof raw !== 'string') return err(`${name(key)} must be a string, got ${JSON.stringify(raw)}`);
  if (!allowEmpty && raw.trim() === '') return err(`${name(key)} must not be empty`);
  return ok(raw);
}

function readObject(key: string, raw: unknown): Read<Readonly<Record<string, unknown>>> {
  if (raw === undefined || raw === null) return ok({});
  if (!isPlainObject(raw)) return err(`${name(key)} must be an object, got ${JSON.stringify(raw)}`);
  return ok(raw);
}

function readInteger(key: string, raw: unknown, fallback: number, [min, max]: readonly [number, number]): Read<number> {
  if (raw === undefined || raw === null) return ok(fallback);
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < min || raw > max) {
    return err(`${name(key)} must be an integer in [${min}, ${max}], got ${JSON.stringify(raw)}`);
  }
  return ok(raw);
}

function readBoolean(key: string, raw: unknown, fallback: boolean): Read<boolean> {
  if (raw === undefined || raw === null) return ok(fallback);
  if (typeof raw !== 'boolean') return err(`${name(key)} must be true or false, got ${JSON.stringify(raw)}`);
  return ok(raw);
}

function readThresholds(raw: unknown): Read<AuditThresholds> {
  if (raw !== undefined && raw !== null && !isPlainObject(raw))
    return err(`${name(configKeys.auditThresholds)} must be an object, got ${JSON.stringify(raw)}`);
  const parsed = parseAuditThresholds(raw ?? undefined);
  return parsed.ok ? parsed : err(`${name(configKeys.auditThresholds)}: ${parsed.error}`);
}

function readSeverity(raw: unknown): Read<Readonly<Record<FlagKind, SeverityName>>> {
  if (raw === undefined || raw === null) return ok(defaultSeverity);
  const key = name(configKeys.auditSeverity);
  if (!isPlainObject(raw)) return err(`${key} must be an object of flag kind → severity, got ${JSON.stringify(raw)}`);
  const severity: Record<FlagKind, SeverityName> = { ...defaultSeverity };
  for (const [kind, value] of Object.entries(raw)) {
    if (!isFlagKind(kind)) return err(`${key}: unknown flag kind '${kind}' (known: ${flagKinds.join(', ')})`);
    if (!isSeverity(value))
      return err(`${key}.${kind} must be one of ${severityNames.join(', ')}, got ${JSON.stringify(value)}`);
    severity[kind] = value;
  }
  return ok(severity);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFlagKind(kind: string): kind is FlagKind {
  return (flagKinds as readonly string[]).includes(kind);
}

function isSeverity(value: unknown): value is SeverityName {
  return typeof value === 'string' && (severityNames as readonly string[]).includes(value);
}

const openSettingsAction = 'Open Settings';

/**
 * {@link loadConfig}, or `undefined` after logging the problem and showing it with an Open Settings
 * button (the Settings editor filtered to Credit Lens).
 */
export function loadConfigOrReport(log: vscode.LogOutputChannel): CreditLensConfig | undefined {
  const config = loadConfig();
  if (config.ok) return config.value;
  log.error(`Invalid settings: ${config.error}`);
  void vscode.window
    .showErrorMessage(`Credit Lens settings are invalid: ${config.error}`, openSettingsAction)
    .then((choice) => {
      if (choice === openSettingsAction)
        void vscode.commands.executeCommand('workbench.action.openSettings', configSection);
    });
  return undefined;
}
