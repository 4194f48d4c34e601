// Where rLLM puts an episode file, and what its path says (rllm/utils/episode_logger.py
// `EpisodeLogger.get_step_dir` / `get_episode_filename`; rllm/eval/episode_store.py `episode_path`).

/** What an episode's path says: the mode (`train`, `val`), step and epoch of a training dump, or the eval index. */
export interface RllmPlace {
  readonly mode?: string;
  readonly step?: number;
  readonly epoch?: number;
  readonly evalIndex?: number;
}

const stepDir = /(?:^|\/)([A-Za-z0-9]+)_step_(-?\d+)_epoch_(-?\d+)\/[^/]+$/;
const evalFile = /(?:^|\/)episode_(\d{6,})_[^/]*\.json$/;

/** Reads `{mode}_step_{step}_epoch_{epoch}/…` or `episode_{idx:06d}_{task}.json` from a file's uri. */
export function rllmPlace(uri: string): RllmPlace {
  const train = stepDir.exec(uri);
  if (train) return { mode: train[1], step: Number(train[2]), epoch: Number(train[3]) };
  const evaluation = evalFile.exec(uri);
  return evaluation ? { evalIndex: Number(evaluation[1]) } : {};
}

/** The rollout index of an rLLM episode id `task_id:rollout_idx` (rllm's engines name them so), else undefined. */
export function rolloutIndex(episodeId: string): number | undefined {
  const match = /:(\d+)$/.exec(episodeId);
  return match ? Number(match[1]) : undefined;
}
