import { episodeStateVersion, type EpisodeViewData, type EpisodeViewState } from '../../../src/protocol/episodePanel';
import {
  isEpisodeRef,
  isNonNegativeInt,
  isViewMethod,
  type EpisodeRef,
  type ViewMethod,
} from '../../../src/protocol/viewData';

// The persisted UI state of the Episode view (house-style §9): validated on load, dropped when it
// does not match the current version or shape. Pure: no DOM.

/** Most expanded messages kept in the saved state (the newest ones win). */
export const maxSavedExpanded = 500;

/** The UI state the view works with (the saved state, with `expanded` as a set). */
export interface EpisodeUi {
  method: ViewMethod;
  topSeq: number;
  focusedSeq: number;
  expanded: Set<number>;
}

/** `raw` as a valid {@link EpisodeViewState}, or undefined (wrong version, wrong shape). */
export function parseEpisodeState(raw: unknown): EpisodeViewState | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const state = raw as Partial<Record<keyof EpisodeViewState, unknown>>;
  if (state.version !== episodeStateVersion || !isEpisodeRef(state.ref) || !isViewMethod(state.method))
    return undefined;
  if (!isNonNegativeInt(state.topSeq) || !isNonNegativeInt(state.focusedSeq) || !Array.isArray(state.expanded))
    return undefined;
  const expanded = (state.expanded as unknown[]).filter(isNonNegativeInt);
  return {
    version: episodeStateVersion,
    ref: { folder: state.ref.folder, episodeId: state.ref.episodeId },
    method: state.method,
    topSeq: state.topSeq,
    focusedSeq: state.focusedSeq,
    expanded: [...new Set(expanded)].slice(-maxSavedExpanded),
  };
}

export function sameRef(a: EpisodeRef | null | undefined, b: EpisodeRef | null | undefined): boolean {
  return !!a && !!b && a.folder === b.folder && a.episodeId === b.episodeId;
}

/**
 * The UI state to start `data` with: the saved positions when `saved` is about the same episode
 * (clamped to its message count), else the top of the episode. The saved method is the user's
 * choice for this panel and carries over to another episode; without one, the host's default.
 */
export function initialUi(
  saved: EpisodeViewState | undefined,
  data: Pick<EpisodeViewData, 'ref' | 'messageCount' | 'defaultMethod'>,
): EpisodeUi {
  const method = saved?.method ?? data.defaultMethod;
  if (!saved || !sameRef(saved.ref, data.ref)) return { method, topSeq: 0, focusedSeq: 0, expanded: new Set() };
  const last = Math.max(0, data.messageCount - 1);
  return {
    method,
    topSeq: Math.min(saved.topSeq, last),
    focusedSeq: Math.min(saved.focusedSeq, last),
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
