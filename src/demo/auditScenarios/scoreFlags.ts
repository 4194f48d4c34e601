import type { GroundTruth } from './scenario';

/** A flag raised by an auditor on one run; `steps` (inclusive) when it covers part of the run. */
export interface ObservedFlag {
  readonly kind: string;
  readonly agent?: string;
  readonly steps?: readonly [number, number];
}

/** Matches of one flag kind; precision and recall are 1 when their denominator is 0. */
export interface KindScore {
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
}

/** The kinds a scenario's ground truth can hold; observed flags of other kinds are not scored. */
export const scoredKinds: readonly GroundTruth['kind'][] = ['idle', 'free-rider', 'silent', 'dominant', 'decoupling'];

/** Other spellings auditors use for the scored kinds (credit-methods.md §5.2 calls dominant "sole performer"). */
const aliases: Readonly<Record<string, string>> = {
  'sole-performer': 'dominant',
  'null-player': 'idle',
  freerider: 'free-rider',
};

type Ranges = readonly (readonly [number, number])[];

/** All flags of one (kind, agent): merged step ranges, or `undefined` when one of them covers the whole run. */
interface Claim {
  readonly kind: string;
  readonly ranges: Ranges | undefined;
}

/**
 * Scores an auditor's flags on one run against the ground truth, per kind. Matching is by (kind,
 * agent); kinds are compared case-insensitively with spaces and underscores read as hyphens, and
 * "sole-performer" counts as "dominant". All flags of one (kind, agent) count once, their step ranges
 * merged (one flag per audit window is fine). A flag or truth without `steps` covers the whole run
 * and matches on (kind, agent) alone; when both have ranges, the match needs an intersection over
 * union of the covered steps ≥ `minStepOverlap` (default 0.5). A non-matching flag counts as a false
 * positive and leaves the truth a false negative. Flags of kinds outside {@link scoredKinds} (and
 * outside the truth), such as "contributes", are ignored; a scored flag without an agent is a false
 * positive. Every scored kind is in the result, with zero counts when nothing was expected or seen.
 */
export function scoreFlags(
  truth: readonly GroundTruth[],
  observed: readonly ObservedFlag[],
  options: { minStepOverlap?: number } = {},
): Record<string, KindScore> {
  const minOverlap = options.minStepOverlap ?? 0.5;
  const kinds = new Set<string>([...scoredKinds, ...truth.map((t) => normaliseKind(t.kind))]);
  const expected = claims(
    truth.map((t) => ({ ...t, kind: normaliseKind(t.kind) })),
    kinds,
  );
  const seen = claims(
    observed.map((o) => ({ ...o, kind: normaliseKind(o.kind) })),
    kinds,
  );
  const counts = new Map<string, { tp: number; fp: number; fn: number }>(
    [...kinds].map((k) => [k, { tp: 0, fp: 0, fn: 0 }]),
  );
  for (const [key, claim] of expected) {
    const count = counts.get(claim.kind);
    const found = seen.get(key);
    if (!count) continue;
    if (found && rangesMatch(claim.ranges, found.ranges, minOverlap)) count.tp++;
    else count.fn++;
  }
  for (const [key, claim] of seen) {
    const match = expected.get(key);
    const count = counts.get(claim.kind);
    if (count && !(match && rangesMatch(match.ranges, claim.ranges, minOverlap))) count.fp++;
  }
  return Object.fromEntries([...counts].map(([kind, c]) => [kind, kindScore(c.tp, c.fp, c.fn)]));
}

/**
 * Sums per-kind counts over runs and recomputes precision and recall; `overall` sums every kind
 * (micro-average). Empty input gives `{ overall: { 0, 0, 0, 1, 1 } }`.
 */
export function combineScores(
  scores: readonly Record<string, KindScore>[],
): Record<string, KindScore> & { overall: KindScore } {
  const totals = new Map<string, { tp: number; fp: number; fn: number }>();
  const all = { tp: 0, fp: 0, fn: 0 };
  for (const score of scores) {
    for (const [kind, s] of Object.entries(score)) {
      const total = totals.get(kind) ?? { tp: 0, fp: 0, fn: 0 };
      totals.set(kind, { tp: total.tp + s.tp, fp: total.fp + s.fp, fn: total.fn + s.fn });
      all.tp += s.tp;
      all.fp += s.fp;
      all.fn += s.fn;
    }
  }
  const perKind = Object.fromEntries([...totals].map(([kind, c]) => [kind, kindScore(c.tp, c.fp, c.fn)]));
  return { ...perKind, overall: kindScore(all.tp, all.fp, all.fn) };
}

/** A {@link KindScore} from its counts. */
export function kindScore(tp: number, fp: number, fn: number): KindScore {
  return { tp, fp, fn, precision: tp + fp === 0 ? 1 : tp / (tp + fp), recall: tp + fn === 0 ? 1 : tp / (tp + fn) };
}

function normaliseKind(kind: string): string {
  const plain = kind
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  return aliases[plain] ?? plain;
}

/** Groups flags by (kind, agent) over the scored kinds and merges their ranges. */
function claims(
  flags: readonly { kind: string; agent?: string; steps?: readonly [number, number] }[],
  kinds: ReadonlySet<string>,
): Map<string, Claim> {
  const grouped = new Map<string, { kind: string; ranges: (readonly [number, number])[] | undefined }>();
  for (const flag of flags) {
    if (!kinds.has(flag.kind)) continue;
    // No agent: a key no truth has, so it can only be a false positive (one per kind).
    const key = `${flag.kind}\u0000${flag.agent ?? '\u0001'}`;
    const claim = grouped.get(key) ?? { kind: flag.kind, ranges: [] };
    if (!flag.steps) claim.ranges = undefined;
    else claim.ranges?.push(flag.steps[0] <= flag.steps[1] ? flag.steps : [flag.steps[1], flag.steps[0]]);
    grouped.set(key, claim);
  }
  return new Map(
    [...grouped].map(([key, c]) => [key, { kind: c.kind, ranges: c.ranges ? mergeRanges(c.ranges) : undefined }]),
  );
}

function rangesMatch(truth: Ranges | undefined, observed: Ranges | undefined, minOverlap: number): boolean {
  if (!truth || !observed) return true;
  const intersection = intersectionLength(truth, observed);
  const union = rangesLength(truth) + rangesLength(observed) - intersection;
  return union > 0 && intersection / union >= minOverlap;
}

/** Sorted, disjoint inclusive integer ranges; overlapping or adjacent ranges are joined. */
export function mergeRanges(ranges: Ranges): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

function rangesLength(ranges: Ranges): number {
  return ranges.reduce((sum, [start, end]) => sum + end - start + 1, 0);
}

function intersectionLength(a: Ranges, b: Ranges): number {
  let total = 0;
  for (const [aStart, aEnd] of a) {
    for (const [bStart, bEnd] of b) total += Math.max(0, Math.min(aEnd, bEnd) - Math.max(aStart, bStart) + 1);
  }
  return total;
}
