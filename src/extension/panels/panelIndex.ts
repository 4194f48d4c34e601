import { NoIndexError } from '../../engine/indexJob';
import { findIndexLocation } from '../../engine/indexLocation';
import { openDatabase, type Db } from '../../store/database';
import { indexDbPath, type CreditLensConfig } from '../config';

/** A read-only connection to a folder's index, for a panel (WAL lets it read while a worker writes). */
export interface PanelIndex {
  /** Absolute path of the indexed folder. */
  readonly root: string;
  /** The index file, as the settings resolve it (undefined = the default lookup). */
  readonly dbPath: string | undefined;
  readonly db: Db;
}

/** Opens the index of `root` read-only; throws {@link NoIndexError} when the folder has none. */
export function openPanelIndex(root: string, config: CreditLensConfig, storageDir: string | undefined): PanelIndex {
  const dbPath = indexDbPath(config.indexLocation, root, storageDir);
  const location = findIndexLocation(root, dbPath);
  if (!location)
    throw new NoIndexError(`${root} has no Credit Lens index yet: run Credit Lens: Index Run Folder first`);
  return { root, dbPath, db: openDatabase(location.path, { readonly: true }) };
}
