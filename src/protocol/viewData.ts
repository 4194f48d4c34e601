import { isRecord } from './ipc';

// Shared pieces of the Episode and Dashboard panel contracts (episodePanel.ts, dashboardPanel.ts).

/** Methods a view can show. Agent-level methods spread an agent's credit over its messages; `prefix` and `owen` are per message. */
export const viewMethods = ['shared', 'loo', 'shapley', 'shapley-mc', 'routing', 'prefix', 'owen'] as const;
export type ViewMethod = (typeof viewMethods)[number];

/** What each credit method is called wherever a person reads it (the views' switchers and notices, the host's notifications). */
export const methodLabels: Readonly<Record<ViewMethod, string>> = {
  shared: 'Shared reward',
  loo: 'Leave-one-out',
  shapley: 'Shapley (exact)',
  'shapley-mc': 'Shapley (Monte Carlo)',
  routing: 'Routing',
  prefix: 'Prefix (per message)',
  owen: 'Owen (per message)',
};

export function isViewMethod(value: unknown): value is ViewMethod {
  return isOneOf(viewMethods, value);
}

/** True when `value` is one of the strings `values` (a closed vocabulary of the contract). */
export function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}

/** One episode of one indexed folder: the folder's key (its absolute path) and the episode's row id. */
export interface EpisodeRef {
  /** Absolute path of the indexed folder, as the host knows it (the host only accepts folders it has open). */
  readonly folder: string;
  readonly episodeId: number;
}

export function isEpisodeRef(value: unknown): value is EpisodeRef {
  return isRecord(value) && isFolderPath(value['folder']) && isNonNegativeInt(value['episodeId']);
}

/** A folder path as a webview names it back: a non-empty string of at most 4096 characters (PATH_MAX). */
export function isFolderPath(value: unknown): value is string {
  return isBoundedString(value, 4096);
}

/** A stored audit flag as views show it. */
export interface FlagView {
  readonly flagId: number;
  /** silent | idle | free-rider | dominant | decoupling */
  readonly kind: string;
  readonly agent: string | null;
  /** run | step | episode */
  readonly scope: string;
  /** Inclusive step range of a step-scope flag. */
  readonly steps: readonly [number, number] | null;
  readonly score: number | null;
  /** One-line reading of the evidence, e.g. "credit share 0.31 → 0.00 over steps 28–60". */
  readonly summary: string;
  /** The evidence in words, as the Flags view shows it (p < 0.001, intervals to 3 digits), for a details table. */
  readonly evidence: readonly EvidenceRowView[];
}

/** One figure of a flag's evidence: its label and value in words, and the rows under it (a window's own figures). */
export interface EvidenceRowView {
  readonly label: string;
  readonly value: string;
  readonly children?: readonly EvidenceRowView[];
}

/** Where a method's values stand for the shown scope. */
export type CreditStatus =
  /** Values are stored and shown. */
  | 'computed'
  /** Nothing stored yet for this method: offer Recompute. */
  | 'not-computed'
  /** The method needs coalition values that are neither logged nor computable: no evaluator configured. */
  | 'no-evaluator'
  /** The last pass failed on this episode; `reason` says why. */
  | 'failed'
  /** The data cannot answer: `reason` says why and `remedy` what would (docs/credit-provenance.md). */
  | 'not-identifiable';

export function isNonNegativeInt(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

export function isBoundedString(value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= maxLength;
}

/** `null` or a finite number. */
export function isNullableFinite(value: unknown): value is number | null {
  return value === null || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * The fixed colour domain of a run's credit (docs/architecture.md §4.4): every method and
 * every episode of the run is coloured on [−bound, +bound]; larger |values| clamp to the ends and
 * are marked as beyond the scale.
 */
export interface CreditDomainView {
  /** Half-width of the scale, > 0: the run's reward span, or 1 when the run logs no reward. */
  readonly bound: number;
  /** The run's logged team reward range the bound is read from; null when none is logged. */
  readonly reward: { readonly min: number; readonly max: number } | null;
}
