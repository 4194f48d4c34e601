import type { EpisodeCreditView, EvaluatorView } from './episodePanel';
import { IpcCommand, IpcNotification, IpcRequest, isRecord } from './ipc';
import {
  isEpisodeRef,
  isNonNegativeInt,
  isViewMethod,
  type CreditDomainView,
  type EpisodeRef,
  type ViewMethod,
} from './viewData';

// The contract of the "Credit Lens: Diff Episodes" webview (host: src/extension/panels/episodeDiffPanel.ts,
// webview: webview/src/diff/main.ts; docs/architecture.md §3.7).
// Handshake: the webview sends DiffReadyCommand (again after every reload, with the pair it restored
// from its state, if any); the host answers with DidChangeDiffNotification, and sends it again when
// the panel is pointed at another pair or an index changes. The webview then asks for the aligned
// rows under its method (GetDiffRequest) and for the texts of the rows it shows (GetDiffTextsRequest).

/** Version of {@link EpisodeDiffViewState}; bump it when that state changes shape. */
export const episodeDiffStateVersion = 1;
/** Most aligned rows one diff reply carries; the rest are counted in {@link EpisodeDiffData.rowsLeftOut}. */
export const maxDiffRows = 20_000;
/** Largest window of rows one GetDiffTextsRequest may ask the texts of. */
export const maxDiffTextWindow = 100;

/** Two episodes compared: A (the left, "before") and B (the right, "after"), each in its indexed folder. */
export interface DiffRef {
  readonly a: EpisodeRef;
  readonly b: EpisodeRef;
}

export function isDiffRef(value: unknown): value is DiffRef {
  return isRecord(value) && isEpisodeRef(value['a']) && isEpisodeRef(value['b']);
}

/** One side's credit under the method, without the per-message arrays (those ride on the rows). */
export type DiffCreditSummary = Omit<
  EpisodeCreditView,
  'messageCredit' | 'messageMargin' | 'firstError' | 'firstErrorNote'
>;

/** One episode of the pair, as the header shows it. */
export interface DiffSideView {
  readonly ref: EpisodeRef;
  readonly externalId: string;
  readonly runName: string;
  readonly step: number | null;
  readonly group: string | null;
  readonly sample: number | null;
  /** The logged team reward; null when none is logged. */
  readonly reward: number | null;
  readonly messageCount: number;
  /** Why the messages could not be read back from the trace (rows then come from the index, texts are not compared); null otherwise. */
  readonly readError: string | null;
  readonly credit: DiffCreditSummary;
  /** The evaluator a recompute would use: what the "no credit" notices say would give credit. */
  readonly evaluator: EvaluatorView;
}

/** An agent's credit total in both episodes and the difference B − A (null unless both have a value). */
export interface AgentTotalDiff {
  readonly agent: string;
  readonly a: number | null;
  readonly b: number | null;
  readonly delta: number | null;
  /** exact | estimated | approximate: the weaker of the two values' statuses; null without a difference. */
  readonly status: string | null;
  readonly inA: boolean;
  readonly inB: boolean;
}

/** One aligned row: a message of A paired with B's (same agent, same turn index), or a message only one side has. */
export interface DiffRowView {
  readonly kind: 'paired' | 'deleted' | 'inserted';
  readonly agent: string;
  /** The message's turn index within its agent (0 for the agent's first message). */
  readonly turn: number;
  /** Seq of the message in A / B; null on the side that lacks it. */
  readonly a: number | null;
  readonly b: number | null;
  /** Each side's message credit under the method; null = no credit (the side's `credit` says why). */
  readonly creditA: number | null;
  readonly creditB: number | null;
  /** creditB − creditA when both are values; null otherwise (never a number made up for a missing side). */
  readonly delta: number | null;
  /** Paired rows: the texts differ; null when a side's text cannot be read (or the row is not paired). */
  readonly textChanged: boolean | null;
}

/** The pair under one method: both headers, agent totals, and the aligned rows. */
export interface EpisodeDiffData {
  readonly ref: DiffRef;
  readonly method: ViewMethod;
  readonly a: DiffSideView;
  readonly b: DiffSideView;
  /** reward B − reward A; null unless both log one. */
  readonly rewardDelta: number | null;
  readonly agents: readonly AgentTotalDiff[];
  readonly rows: readonly DiffRowView[];
  /** Aligned rows beyond {@link maxDiffRows}, not sent. */
  readonly rowsLeftOut: number;
  readonly counts: {
    readonly paired: number;
    /** Paired rows whose texts differ. */
    readonly changed: number;
    readonly deleted: number;
    readonly inserted: number;
  };
  /** One colour scale for both sides: the wider of the two runs' fixed domains (docs/architecture.md §4.4). */
  readonly creditDomain: CreditDomainView;
  /** Honest states, each a sentence (different runs' scales, unreadable traces, rows left out). */
  readonly notes: readonly string[];
}

/** A run of one side's text, `changed` when it is not in the other side's text (word diff). */
export interface DiffSpanView {
  readonly text: string;
  readonly changed: boolean;
}

/** One side's text of a row, as spans. */
export interface DiffTextSide {
  readonly spans: readonly DiffSpanView[];
  /** Length of the message's whole text, in characters. */
  readonly chars: number;
  /** The text was cut at the protocol's message limit (the diff covers the part sent). */
  readonly truncated: boolean;
}

/** The texts of one row: null on a side without the message (or whose trace cannot be read). */
export interface DiffTextRow {
  /** Position of the row in {@link EpisodeDiffData.rows}. */
  readonly row: number;
  readonly a: DiffTextSide | null;
  readonly b: DiffTextSide | null;
  /** Why the word diff was not computed (a huge message); null otherwise. */
  readonly capped: string | null;
}

export interface DiffTextWindow {
  readonly offset: number;
  readonly rows: readonly DiffTextRow[];
}

/** What the host sends when the panel is pointed at a pair (the webview then asks for its data). */
export interface DiffShownData {
  readonly ref: DiffRef;
  /** Method to show when the webview has none saved (the `creditLens.credit.defaultMethod` setting). */
  readonly defaultMethod: ViewMethod;
  /** The method of the view that opened the diff: shown instead of the saved one; null otherwise. */
  readonly openedMethod: ViewMethod | null;
  /** Bumped on every change of the index, so the webview asks again. */
  readonly revision: number;
}

/** What the webview persists with `setState` (UI state only; data is asked from the host again). */
export interface EpisodeDiffViewState {
  readonly version: number;
  readonly ref: DiffRef;
  readonly method: ViewMethod;
  /** Row with keyboard focus (the current difference); null: none. */
  readonly focusedRow: number | null;
}

export interface DiffReadyParams {
  readonly stateVersion: number;
  /** The pair restored from the webview's state, if any. */
  readonly ref: DiffRef | null;
}

export interface GetDiffParams {
  readonly ref: DiffRef;
  readonly method: ViewMethod;
}

export interface GetDiffTextsParams {
  readonly ref: DiffRef;
  readonly offset: number;
  readonly limit: number;
}

/** A side of the shown pair to open in the Episode view, under the diff's method. */
export interface OpenDiffSideParams {
  readonly ref: DiffRef;
  readonly side: 'a' | 'b';
  readonly method: ViewMethod;
}

function isDiffReadyParams(value: unknown): value is DiffReadyParams {
  return (
    isRecord(value) && isNonNegativeInt(value['stateVersion']) && (value['ref'] === null || isDiffRef(value['ref']))
  );
}

function isGetDiffParams(value: unknown): value is GetDiffParams {
  return isRecord(value) && isDiffRef(value['ref']) && isViewMethod(value['method']);
}

function isGetDiffTextsParams(value: unknown): value is GetDiffTextsParams {
  if (!isRecord(value) || !isDiffRef(value['ref'])) return false;
  const { offset, limit } = value;
  return (
    isNonNegativeInt(offset) && offset < 2 ** 31 && isNonNegativeInt(limit) && limit >= 1 && limit <= maxDiffTextWindow
  );
}

function isOpenDiffSideParams(value: unknown): value is OpenDiffSideParams {
  return isGetDiffParams(value) && ['a', 'b'].includes((value as { side?: unknown }).side as string);
}

/** Webview → host: the script runs; (re)send the pair. */
export const DiffReadyCommand = new IpcCommand<DiffReadyParams>('episodeDiff/ready', isDiffReadyParams);
/** Webview → host: the shown pair's aligned rows and totals under one method. */
export const GetDiffRequest = new IpcRequest<GetDiffParams, EpisodeDiffData>('episodeDiff/diff/get', isGetDiffParams);
/** Webview → host: the word-diffed texts of rows `[offset, offset + limit)` of the shown pair. */
export const GetDiffTextsRequest = new IpcRequest<GetDiffTextsParams, DiffTextWindow>(
  'episodeDiff/texts/get',
  isGetDiffTextsParams,
);
/** Webview → host: open one episode of the shown pair in the Episode view. */
export const OpenDiffSideCommand = new IpcCommand<OpenDiffSideParams>('episodeDiff/side/open', isOpenDiffSideParams);

/** Host → webview: the pair to show. */
export const DidChangeDiffNotification = new IpcNotification<DiffShownData>('episodeDiff/diff/didChange');
