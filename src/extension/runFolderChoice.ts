/** How to get the run folder for a command: use one, let the user pick one, or browse for one. */
export type RunFolderChoice<F> =
  | { readonly kind: 'use'; readonly folder: F }
  | { readonly kind: 'pick'; readonly folders: readonly F[] }
  | { readonly kind: 'browse' };

/**
 * Decides where a command's run folder comes from, in this order: the folder the command was
 * invoked on (explorer context menu), else the only workspace folder, else a pick among the
 * workspace folders, else a folder dialog (no workspace open).
 */
export function runFolderChoice<F>(invokedOn: F | undefined, workspaceFolders: readonly F[] | undefined): RunFolderChoice<F> {
  if (invokedOn !== undefined) return { kind: 'use', folder: invokedOn };
  const folders = workspaceFolders ?? [];
  const [only] = folders;
  if (folders.length === 1 && only !== undefined) return { kind: 'use', folder: only };
  if (folders.length > 1) return { kind: 'pick', folders };
  return { kind: 'browse' };
}
