import {
  episodeDiffStateVersion,
  isDiffRef,
  type DiffRef,
  type EpisodeDiffViewState,
} from '../../../src/protocol/episodeDiffPanel';
import { isNonNegativeInt, isViewMethod, type ViewMethod } from '../../../src/protocol/viewData';
import { orNull, restoreFields, type FieldChecks } from '../kit/state';

// The persisted UI state of the diff view, restored under the views' one policy (kit/state.ts).
// Pure: no DOM.

/** A saved state as restored: the pair or the method is null when none was saved (or it failed its check). */
export interface RestoredDiffState extends Omit<EpisodeDiffViewState, 'ref' | 'method'> {
  readonly ref: DiffRef | null;
  readonly method: ViewMethod | null;
}

const nothingSaved: RestoredDiffState = { version: episodeDiffStateVersion, ref: null, method: null, focusedRow: null };

const checks: FieldChecks<Omit<RestoredDiffState, 'version'>> = {
  ref: orNull(isDiffRef),
  method: orNull(isViewMethod),
  focusedRow: orNull(isNonNegativeInt),
};

/** `raw` restored: another version is nothing saved; a bad field falls back alone; the pair keeps only its fields. */
export function restoreDiffState(raw: unknown): RestoredDiffState {
  const state = restoreFields(raw, nothingSaved, checks);
  const side = (ref: DiffRef['a']): DiffRef['a'] => ({ folder: ref.folder, episodeId: ref.episodeId });
  return { ...state, ref: state.ref && { a: side(state.ref.a), b: side(state.ref.b) } };
}

export function samePair(x: DiffRef | null | undefined, y: DiffRef | null | undefined): boolean {
  const same = (p: DiffRef['a'], q: DiffRef['a']): boolean => p.folder === q.folder && p.episodeId === q.episodeId;
  return !!x && !!y && same(x.a, y.a) && same(x.b, y.b);
}
