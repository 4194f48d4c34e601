import type { CompareRunChoice, ComparisonRequest, RunComparison } from '../core/runComparison';
import { IpcCommand, IpcNotification, IpcRequest, isRecord } from './ipc';
import { isFolderPath, isNonNegativeInt, isOneOf, type ViewMethod } from './viewData';

// The contract of the "Credit Lens: Compare Runs" webview (host: src/extension/panels/comparePanel.ts,
// webview: webview/src/compare/main.ts). The numbers are the engine's RunComparison
// (src/core/runComparison.ts, credit-methods.md §5.5).
// Handshake: the webview sends CompareReadyCommand (again after every reload, with the folder it
// restored from its state, if any); the host answers with DidChangeCompareNotification, and sends it
// again with a higher revision when the index changes. The webview then asks for the runs it can
// offer (GetCompareChoicesRequest) and, once two sides and a method are chosen, for the comparison
// (CompareRunsRequest). An example pair opens in the Episode view through OpenCompareEpisodeCommand.

/** Version of {@link CompareViewState}; bump it when that state changes shape. */
export const compareStateVersion = 1;

/** Longest run name the contract carries (a run is a folder path relative to the indexed folder). */
export const maxRunNameChars = 4096;
/** Longest credit method id ('shapley-mc'); methods are short kebab-case ids. */
export const maxMethodChars = 64;
/** Longest episode id (as the trace gives it) an example pair may name. */
export const maxEpisodeIdChars = 1024;

/** JSON has no NaN: every number of `T` that the engine leaves undefined (NaN, ±Infinity) travels as null. */
export type WireNumbers<T> = T extends number
  ? number | null
  : T extends object
    ? { readonly [K in keyof T]: WireNumbers<T[K]> }
    : T;

/** A {@link RunComparison} as it crosses the boundary (undefined numbers as null). */
export type ComparisonView = WireNumbers<RunComparison>;

/**
 * `value` with every non-finite number replaced by null, deeply (arrays and plain objects), so the
 * webview reads what JSON would carry anyway and "undefined" is never shown as a number.
 */
export function toWire<T>(value: T): WireNumbers<T> {
  return wire(value) as WireNumbers<T>;
}

function wire(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(wire);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wire(v)]));
  return value;
}

/** A run name as the webview names it back: a string of at most {@link maxRunNameChars} ("" is a run at the folder's root). */
export function isRunName(value: unknown): value is string {
  return typeof value === 'string' && value.length <= maxRunNameChars;
}

/** A stored credit method id: lower-case kebab-case, at most {@link maxMethodChars}. */
export function isMethodId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= maxMethodChars && /^[a-z][a-z0-9-]*$/.test(value);
}

/** An inclusive step range: two safe integers, the first not after the second. */
export function isStepSpan(value: unknown): value is { readonly from: number; readonly to: number } {
  if (!isRecord(value)) return false;
  const { from, to } = value;
  return Number.isSafeInteger(from) && Number.isSafeInteger(to) && (from as number) <= (to as number);
}

/** One side of a comparison as the webview asks for it: a run and optional steps. */
export type CompareSide = ComparisonRequest['a'];

export function isCompareSide(value: unknown): value is CompareSide {
  return isRecord(value) && isRunName(value['run']) && (value['steps'] === undefined || isStepSpan(value['steps']));
}

/** `side` with only its known fields (a guard accepts extra ones; the engine must not see them). */
export function cleanSide(side: CompareSide): CompareSide {
  return side.steps ? { run: side.run, steps: { from: side.steps.from, to: side.steps.to } } : { run: side.run };
}

export function isComparisonRequest(value: unknown): value is ComparisonRequest {
  return isRecord(value) && isCompareSide(value['a']) && isCompareSide(value['b']) && isMethodId(value['method']);
}

/** What the host sends when the panel is pointed at a folder (the webview then asks for its runs). */
export interface CompareShownData {
  /** Absolute path of the indexed folder, as the host knows it. */
  readonly folder: string;
  /** Method to choose when the webview has none saved (the `creditLens.credit.defaultMethod` setting). */
  readonly defaultMethod: ViewMethod;
  /** Bumped on every change of the index, so the webview asks again. */
  readonly revision: number;
}

/** The runs of the shown folder that can be a side. */
export interface CompareChoicesView {
  readonly folder: string;
  readonly runs: readonly CompareRunChoice[];
}

/** What the webview persists with `setState` (UI state only; data is asked from the host again). */
export interface CompareViewState {
  readonly version: number;
  readonly folder: string;
  /** The sides and method last compared (shown again after a reload); null before a comparison. */
  readonly request: ComparisonRequest | null;
}

export interface CompareReadyParams {
  readonly stateVersion: number;
  /** The folder restored from the webview's state, if any. */
  readonly folder: string | null;
}

export interface GetCompareChoicesParams {
  readonly folder: string;
}

export interface CompareRunsParams {
  readonly folder: string;
  readonly request: ComparisonRequest;
}

/** The side of an example pair to open. */
export const compareSides = ['a', 'b'] as const;
export type CompareSideKey = (typeof compareSides)[number];

/** One episode of an example pair of the shown comparison, to open in the Episode view. */
export interface OpenCompareEpisodeParams {
  readonly folder: string;
  readonly side: CompareSideKey;
  /** The run of that side and the episode's id as the trace gives it (`ExamplePair.episodeA` / `episodeB`). */
  readonly run: string;
  readonly episode: string;
}

function isCompareReadyParams(value: unknown): value is CompareReadyParams {
  return (
    isRecord(value) &&
    isNonNegativeInt(value['stateVersion']) &&
    (value['folder'] === null || isFolderPath(value['folder']))
  );
}

function isGetCompareChoicesParams(value: unknown): value is GetCompareChoicesParams {
  return isRecord(value) && isFolderPath(value['folder']);
}

function isCompareRunsParams(value: unknown): value is CompareRunsParams {
  return isRecord(value) && isFolderPath(value['folder']) && isComparisonRequest(value['request']);
}

function isOpenCompareEpisodeParams(value: unknown): value is OpenCompareEpisodeParams {
  return (
    isRecord(value) &&
    isFolderPath(value['folder']) &&
    isOneOf(compareSides, value['side']) &&
    isRunName(value['run']) &&
    typeof value['episode'] === 'string' &&
    value['episode'].length > 0 &&
    value['episode'].length <= maxEpisodeIdChars
  );
}

/** Webview → host: the script runs; (re)send the folder. */
export const CompareReadyCommand = new IpcCommand<CompareReadyParams>('compare/ready', isCompareReadyParams);
/** Webview → host: the runs of the shown folder that can be a side. */
export const GetCompareChoicesRequest = new IpcRequest<GetCompareChoicesParams, CompareChoicesView>(
  'compare/choices/get',
  isGetCompareChoicesParams,
);
/** Webview → host: compare two sides of the shown folder under one stored method. */
export const CompareRunsRequest = new IpcRequest<CompareRunsParams, ComparisonView>(
  'compare/comparison/get',
  isCompareRunsParams,
);
/** Webview → host: open one episode of an example pair of the last comparison in the Episode view. */
export const OpenCompareEpisodeCommand = new IpcCommand<OpenCompareEpisodeParams>(
  'compare/episode/open',
  isOpenCompareEpisodeParams,
);

/** Host → webview: the folder to compare runs of. */
export const DidChangeCompareNotification = new IpcNotification<CompareShownData>('compare/folder/didChange');
