import type { IndexSummary } from '../core/indexSummary';
import { IpcCommand, IpcNotification, isRecord } from './ipc';

// The contract of the "Credit Lens: Run Summary" webview, imported by the host
// (src/extension/panels/runSummaryPanel.ts) and the webview (webview/src/main.ts).
// Handshake: the webview sends ReadyCommand once its script runs (again after every reload); the
// host answers with DidChangeSummaryNotification, and sends it again whenever the summary changes.

/** Version of the state the webview persists; bump it when that state changes shape. */
export const runSummaryStateVersion = 1;

/** What the Run Summary panel shows: one indexed folder. */
export interface RunSummaryData {
  /** Display name of the indexed folder. */
  readonly folderName: string;
  /** Absolute path of the indexed folder, for display. */
  readonly folderPath: string;
  /** Absolute path of the index file. */
  readonly indexPath: string;
  /** True when the last pass was cancelled, so the index holds only part of the folder. */
  readonly cancelled: boolean;
  readonly summary: IndexSummary;
}

/** What the webview persists with `setState`: the folder it shows, so the host can read its index again after a reload. */
export interface RunSummaryViewState {
  readonly version: number;
  /** Absolute path of the indexed folder shown. */
  readonly folder: string;
}

/** Params of {@link ReadyCommand}. */
export interface ReadyParams {
  /** {@link runSummaryStateVersion} of the webview bundle that sent it. */
  readonly stateVersion: number;
}

/** Guard for {@link ReadyParams}: an object with a non-negative integer `stateVersion`. */
export function isReadyParams(value: unknown): value is ReadyParams {
  return isRecord(value) && Number.isSafeInteger(value['stateVersion']) && (value['stateVersion'] as number) >= 0;
}

/** Params of {@link OpenIssueCommand}: one problem of the shown summary. */
export interface OpenIssueParams {
  /** The issue's file, relative to the indexed folder with `/` separators, as the summary lists it. */
  readonly file: string;
  /** 1-based line; 0 opens the file at its start. */
  readonly line: number;
}

/**
 * Guard for {@link OpenIssueParams}: a non-empty relative `file` of at most 4096 characters without
 * `..` segments, backslashes or a drive / root prefix, and an integer `line` in [0, 2^31).
 * The host still only opens files that its current summary lists.
 */
export function isOpenIssueParams(value: unknown): value is OpenIssueParams {
  if (!isRecord(value)) return false;
  const { file, line } = value;
  return (
    typeof file === 'string' &&
    isSafeRelativePath(file) &&
    Number.isSafeInteger(line) &&
    (line as number) >= 0 &&
    (line as number) < 2 ** 31
  );
}

function isSafeRelativePath(file: string): boolean {
  if (file.length === 0 || file.length > 4096) return false;
  if (file.startsWith('/') || file.includes('\\') || /^[a-zA-Z]:/.test(file)) return false;
  return file.split('/').every((segment) => segment !== '..' && segment !== '');
}

/** Webview → host: the script is running and listening; (re)send the data. */
export const ReadyCommand = new IpcCommand<ReadyParams>('runSummary/ready', isReadyParams);

/** Webview → host: open a listed problem's file at its line. */
export const OpenIssueCommand = new IpcCommand<OpenIssueParams>('runSummary/issue/open', isOpenIssueParams);

/** Host → webview: the summary to show. */
export const DidChangeSummaryNotification = new IpcNotification<RunSummaryData>('runSummary/summary/didChange');
