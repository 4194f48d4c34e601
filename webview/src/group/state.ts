import { groupStateVersion, isGroupRef, type GroupRef, type GroupViewState } from '../../../src/protocol/groupPanel';
import { isNonNegativeInt, isViewMethod, type ViewMethod } from '../../../src/protocol/viewData';
import { orNull, restoreFields, type FieldChecks } from '../kit/state';

// The persisted UI state of the group view, restored under the views' one policy (kit/state.ts).
// Pure: no DOM.

/** A saved state as restored: the group or the method is null when none was saved (or it failed its check). */
export interface RestoredGroupState extends Omit<GroupViewState, 'ref' | 'method'> {
  readonly ref: GroupRef | null;
  readonly method: ViewMethod | null;
}

const nothingSaved: RestoredGroupState = { version: groupStateVersion, ref: null, method: null, focusedEpisode: null };

const checks: FieldChecks<Omit<RestoredGroupState, 'version'>> = {
  ref: orNull(isGroupRef),
  method: orNull(isViewMethod),
  focusedEpisode: orNull(isNonNegativeInt),
};

/** `raw` restored: another version is nothing saved; a bad field falls back alone. */
export function restoreGroupState(raw: unknown): RestoredGroupState {
  const state = restoreFields(raw, nothingSaved, checks);
  return { ...state, ref: state.ref && { folder: state.ref.folder, runId: state.ref.runId, group: state.ref.group } };
}

export function sameGroup(a: GroupRef | null | undefined, b: GroupRef | null | undefined): boolean {
  return !!a && !!b && a.folder === b.folder && a.runId === b.runId && a.group === b.group;
}

/**
 * The method to show: the opening view's when it sent one; else the saved one (the user's choice
 * for this panel, which carries over to another group or pair); without one, the host's default.
 * The group and diff views share it.
 */
export function chooseMethod(
  saved: { readonly method: ViewMethod | null } | undefined,
  shown: { readonly defaultMethod: ViewMethod; readonly openedMethod: ViewMethod | null },
): ViewMethod {
  return shown.openedMethod ?? saved?.method ?? shown.defaultMethod;
}
