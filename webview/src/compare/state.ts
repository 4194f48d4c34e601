import { compareStateVersion, isComparisonRequest, type CompareViewState } from '../../../src/protocol/comparePanel';
import { isFolderPath } from '../../../src/protocol/viewData';
import { orNull, restoreFields, type FieldChecks } from '../kit/state';

// The persisted UI state of the Compare view, restored under the views' one policy (kit/state.ts).
// Pure: no DOM.

/** A saved state as restored: the folder is null when none was saved (or it failed its check). */
export interface RestoredCompareState extends Omit<CompareViewState, 'folder'> {
  readonly folder: string | null;
}

const nothingSaved: RestoredCompareState = { version: compareStateVersion, folder: null, request: null };

const checks: FieldChecks<Omit<RestoredCompareState, 'version'>> = {
  folder: orNull(isFolderPath),
  request: orNull(isComparisonRequest),
};

/** `raw` restored: another version is nothing saved; a bad field falls back alone. */
export function restoreCompareState(raw: unknown): RestoredCompareState {
  return restoreFields(raw, nothingSaved, checks);
}
