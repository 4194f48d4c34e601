import { episodeStateVersion, type EpisodeViewData, type EpisodeViewState } from '../../../src/protocol/episodePanel';
import {
  isEpisodeRef,
  isNonNegativeInt,
  isViewMethod,
  type EpisodeRef,
  type ViewMethod,
} from '../../../src/protocol/viewData';
import { clampIndex, orNull, restoreFields, type FieldChecks } from '../kit/state';

// The persisted UI state of the Episode view (docs/architecture.md §5), restored under the views'
// one policy (kit/state.ts): field by field, then fitted to the episode shown. Pure: no DOM.

/** Most expanded messages kept in the saved state (the newest ones win). */
export const maxSavedExpanded = 500;

/** The UI state the view works with (the saved state, with `expanded` as a set). */
export interface EpisodeUi {
  method: ViewMethod;
  topSeq: number;
  focusedSeq: number;
  expanded: Set<number>;
}

/** A saved state as restored: the episode or the method is null when none was saved (or it failed its check). */
export interface RestoredEpisodeState extends Omit<EpisodeViewState, 'ref' | 'method'> {
  readonly ref: EpisodeRef | null;
  readonly method: ViewMethod | null;
}

const nothingSaved: RestoredEpisodeState = {
  version: episodeStateVersion,
  ref: null,
  method: null,
  topSeq: 0,
  focusedSeq: 0,
  expanded: [],
};

const isSeqList = (v: unknown): v is readonly number[] => Array.isArray(v) && v.every(isNonNegativeInt);

const checks: FieldChecks<Omit<RestoredEpisodeState, 'version'>> = {
  ref: orNull(isEpisodeRef),
  method: orNull(isViewMethod),
  topSeq: isNonNegativeInt,
  focusedSeq: isNonNegativeInt,
  expanded: isSeqList,
};

/** `raw` restored under the one policy: another version is nothing saved; a bad field falls back alone. */
export function restoreEpisodeState(raw: unknown): RestoredEpisodeState {
  const state = restoreFields(raw, nothingSaved, checks);
  const ref = state.ref && { folder: state.ref.folder, episodeId: state.ref.episodeId };
  return { ...state, ref, expanded: [...new Set(state.expanded)].slice(-maxSavedExpanded) };
}

export function sameRef(a: EpisodeRef | null | undefined, b: EpisodeRef | null | undefined): boolean {
  return !!a && !!b && a.folder === b.folder && a.episodeId === b.episodeId;
}

/**
 * The UI state to start `data` with: the saved positions when `saved` is about the same episode
 * (fitted to its message count), else the top of the episode. The method: the opening view's
 * (the dashboard's) when it sent one; else the saved one, the user's choice for this panel, which
 * carries over to another episode; without one, the host's default.
 */
export function initialUi(
  saved: RestoredEpisodeState | undefined,
  data: Pick<EpisodeViewData, 'ref' | 'messageCount' | 'defaultMethod' | 'openedMethod'>,
): EpisodeUi {
  const method = data.openedMethod ?? saved?.method ?? data.defaultMethod;
  if (!saved || !sameRef(saved.ref, data.ref)) return { method, topSeq: 0, focusedSeq: 0, expanded: new Set() };
  return {
    method,
    topSeq: clampIndex(saved.topSeq, data.messageCount),
    focusedSeq: clampIndex(saved.focusedSeq, data.messageCount),
    expanded: new Set(saved.expanded.filter((seq) => seq < data.messageCount)),
  };
}

/** The state to persist for `ref` and `ui`. */
export function toSavedState(ref: EpisodeRef, ui: EpisodeUi): EpisodeViewState {
  return {
    version: episodeStateVersion,
    ref,
    method: ui.method,
    topSeq: ui.topSeq,
    focusedSeq: ui.focusedSeq,
    expanded: [...ui.expanded].slice(-maxSavedExpanded),
  };
}
