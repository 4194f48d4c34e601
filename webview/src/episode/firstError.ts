import { isFirstErrorView, type EpisodeCreditView, type FirstErrorView } from '../../../src/protocol/episodePanel';
import { checkedField } from '../../../src/protocol/ipc';
import { plural } from '../../../src/core/plural';
import { formatNumber } from '../kit/format';

// The first error of a failed episode (credit-methods.md §3.13) as the Episode view words it: on its
// swimlane block, in its message row and in the header. Pure: no DOM.

/** The glyph on the first error's block and badge (with an outline, so it is never colour alone). */
export const firstErrorGlyph = '✕';

/** The credit's first error, read through the protocol guard (malformed data shows none). */
export function firstErrorOf(credit: EpisodeCreditView | null): FirstErrorView | null {
  return checkedField(credit, 'firstError', isFirstErrorView) ?? null;
}

/** Why the credit names no first error, when it says (a per-message method); null otherwise. */
export function firstErrorNote(credit: EpisodeCreditView | null): string | null {
  const note = checkedField(credit, 'firstErrorNote', (v): v is string => typeof v === 'string');
  return note ?? null;
}

/** Where the first error comes from: "replayed prefix values (…), exact" or "the first drop of at least δ = 0.250 …". */
export function firstErrorSource(error: FirstErrorView): string {
  const exact = error.exact ? 'exact' : 'approximate (a value it rests on is not exact)';
  return error.origin === 'replayed'
    ? `replayed prefix values (no replay succeeds after it: value ≤ ${formatNumber(error.threshold)}), ${exact}`
    : `the first drop of at least δ = ${formatNumber(error.threshold)} in the prefix values, ${exact}`;
}

/** The block's and badge's words: "first error, from …; 2 harmful messages, 1 recovery". */
export function firstErrorText(error: FirstErrorView): string {
  const others =
    error.harmful.length > 1 || error.repairs.length > 0
      ? `; ${plural(error.harmful.length, 'harmful message')}, ${plural(error.repairs.length, 'recovery', 'recoveries')}`
      : '';
  return `first error, from ${firstErrorSource(error)}${others}`;
}

/** Whether the blame labels point where the first error is: at its message, else at its agent. */
export function blameAgreement(
  error: FirstErrorView,
  labels: readonly { readonly agent: string | null; readonly message: number | null }[],
): string | null {
  const pointed = labels.filter((l) => l.message !== null || l.agent !== null);
  if (pointed.length === 0) return null;
  if (pointed.some((l) => l.message === error.message)) return 'agrees with the labelled blame (same message)';
  if (error.agent !== null && pointed.some((l) => l.agent === error.agent))
    return 'the labelled blame names the same agent at another message';
  return 'differs from the labelled blame (another agent and message)';
}
