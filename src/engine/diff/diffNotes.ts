import { count } from '../report/format';
import type { EpisodeCreditView, EpisodeViewData } from '../views/viewTypes';

/** What the notes of a diff are read from. */
export interface DiffNoteInput {
  readonly a: { readonly view: EpisodeViewData; readonly readError: string | null };
  readonly b: { readonly view: EpisodeViewData; readonly readError: string | null };
  readonly creditA: EpisodeCreditView;
  readonly creditB: EpisodeCreditView;
  /** Aligned rows, and how many of them are sent. */
  readonly rows: number;
  readonly shown: number;
}

/**
 * The honest states of a diff, one sentence each: the same episode twice, a trace that cannot be
 * read back (its rows from the index, no text compared), two runs coloured on different scales,
 * message credit of two kinds (per message against spread), rows left out.
 */
export function diffNotes(input: DiffNoteInput): string[] {
  const { a, b, creditA, creditB } = input;
  const notes: string[] = [];
  if (a.view.ref.folder === b.view.ref.folder && a.view.ref.episodeId === b.view.ref.episodeId)
    notes.push('A and B are the same episode: every row is the same on both sides.');
  for (const [name, side] of [
    ['A', a],
    ['B', b],
  ] as const)
    if (side.readError !== null)
      notes.push(
        `The messages of ${name} (${side.view.externalId}) cannot be read back from the trace (${side.readError}): its rows come from the index and no text is compared.`,
      );
  const boundA = a.view.creditDomain.bound;
  const boundB = b.view.creditDomain.bound;
  if (boundA !== boundB)
    notes.push(
      `The two runs colour credit on different scales (±${boundA.toFixed(2)} and ±${boundB.toFixed(2)}): both sides use the wider, ±${Math.max(boundA, boundB).toFixed(2)}.`,
    );
  if (
    creditA.status === 'computed' &&
    creditB.status === 'computed' &&
    creditA.messageCreditKind !== creditB.messageCreditKind
  )
    notes.push(
      `${creditA.messageCreditKind === 'spread' ? 'A' : 'B'}'s message credit is its agents' credit spread evenly over their messages, the other's is per message: a message's difference compares two kinds of credit.`,
    );
  if (input.shown < input.rows)
    notes.push(
      `Only the first ${count(input.shown)} of ${count(input.rows)} aligned rows are shown; the counts and totals cover all of them.`,
    );
  return notes;
}
