import { ShardSet, type ShardProblem } from '../../store/shardSet';
import { findIndexLocation } from '../indexLocation';

/** Where the indexes to read together are: run folders (their usual index) and index files. */
export interface ShardInputs {
  /** Run folders, each read through its own index (`<dir>/.credit-lens/index.sqlite` or the user cache). */
  readonly folders: readonly string[];
  /** Index files (`--db`). */
  readonly files: readonly string[];
}

/**
 * Opens the indexes of `inputs` as one {@link ShardSet}; a folder without an index, a missing or
 * corrupt file is a problem named with its path, and the others are still read.
 */
export function openShards(inputs: ShardInputs): { shards: ShardSet; problems: ShardProblem[] } {
  const problems: ShardProblem[] = [];
  const paths: string[] = [];
  for (const folder of inputs.folders) {
    const location = findIndexLocation(folder);
    if (location) paths.push(location.path);
    else problems.push({ path: folder, reason: `no index; run \`credit-lens index ${folder}\` first` });
  }
  const opened = ShardSet.open([...paths, ...inputs.files]);
  return { shards: opened.shards, problems: [...problems, ...opened.problems] };
}
