import type { AgentDecl, Episode, Message } from '../../../../core/episode';
import { err, ok, type Result } from '../../../../core/result';
import type { DetectionSample, FormatMapper, RecordContext } from '../../types';
import { trainedLlm } from '../common/rlAgents';
import {
  arrayField,
  definedOnly,
  fileStem,
  idText,
  integerOf,
  isRecord,
  jsonText,
  numberOf,
  recordField,
  stringOf,
  type JsonRecord,
} from '../common/json';
import { TraceRoster } from '../common/traceRoster';
import { rllmPlace, rolloutIndex } from './rllmPath';
import { rllmEnvironment, stepMessages, stepRewardSum } from './rllmSteps';

// rLLM episode files (rllm-org/rllm@9beb6e0; README.md beside this file): one JSON document per
// episode, written by `EpisodeLogger.log_episode` (training) or `EvalEpisodeStore.write` (eval).
// Each `trajectories[]` entry is one agent's trajectory, named by `name`.

/** One trajectory's agent name and reward (`reward`, else the sum of its steps' rewards). */
interface TrajectoryReward {
  readonly name: string;
  readonly uid?: string;
  readonly reward?: number;
}

/** `trajectories[i]` → its agent name (`name`, default rLLM's `default_traj_name`), messages and reward. */
function trajectory(entry: unknown, i: number): Result<{ messages: Message[]; reward: TrajectoryReward }> {
  if (!isRecord(entry)) return err(`trajectories[${i}]: expected a trajectory object`);
  const name = idText(entry['name']) ?? 'default_traj_name';
  const steps = arrayField(entry, 'steps');
  if (!steps && entry['steps'] !== undefined && entry['steps'] !== null)
    return err(`trajectories[${i}].steps: expected a list`);
  const messages = (steps ?? []).flatMap((step, turn) => stepMessages(name, step, turn));
  const reward = numberOf(entry['reward']) ?? stepRewardSum(steps ?? []);
  return ok({ messages, reward: definedOnly({ name, uid: idText(entry['uid']), reward }) });
}

/** Per-agent rewards: the mean of each agent's trajectory rewards (an agent may run several trajectories). */
function agentRewards(rewards: readonly TrajectoryReward[]): Record<string, number> | undefined {
  const sums = new Map<string, { total: number; n: number }>();
  for (const r of rewards) {
    if (r.reward === undefined) continue;
    const s = sums.get(r.name) ?? { total: 0, n: 0 };
    sums.set(r.name, { total: s.total + r.reward, n: s.n + 1 });
  }
  if (sums.size === 0) return undefined;
  return Object.fromEntries([...sums].map(([name, s]) => [name, s.total / s.n]));
}

/** The episode reward: `is_correct` (true → 1, false → 0) as rLLM reports accuracy, else the mean trajectory reward. */
function teamReward(record: JsonRecord, rewards: readonly TrajectoryReward[]): number | undefined {
  const correct = record['is_correct'];
  if (typeof correct === 'boolean') return correct ? 1 : 0;
  const known = rewards.map((r) => r.reward).filter((r): r is number => r !== undefined);
  return known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : undefined;
}

/** The task's id (`task.id`, a string task's text is its own id only when short), prompt and ground truth. */
function taskFields(task: unknown): { id?: string; prompt?: string; groundTruth?: string } {
  if (!isRecord(task)) {
    const text = jsonText(task);
    return definedOnly({ prompt: text, id: text !== undefined && text.length <= 120 ? text : undefined });
  }
  const prompt = task['instruction'] ?? task['question'] ?? task['problem'] ?? task['prompt'];
  return definedOnly({
    id: idText(task['id']) ?? idText(task['task_id']) ?? idText(task['uid']),
    prompt: typeof prompt === 'string' ? prompt : jsonText(prompt),
    groundTruth: jsonText(task['ground_truth'] ?? task['answer'] ?? task['gold']),
  });
}

function roster(
  context: RecordContext,
  messages: readonly Message[],
  rewards: readonly TrajectoryReward[],
): AgentDecl[] {
  const team = new TraceRoster(context.roster);
  for (const r of rewards) team.add({ name: r.name, ...trainedLlm });
  if (messages.some((m) => m.agent === rllmEnvironment)) team.add({ name: rllmEnvironment, kind: 'env' });
  return team.list();
}

function metadata(
  record: JsonRecord,
  rewards: readonly TrajectoryReward[],
  mode: string | undefined,
  epoch: number | undefined,
): Record<string, unknown> {
  const meta = recordField(record, 'metadata');
  return definedOnly({
    mode,
    epoch,
    evalIndex: integerOf(record['eval_idx']),
    sessionId: idText(record['session_id']),
    isCorrect: typeof record['is_correct'] === 'boolean' ? record['is_correct'] : undefined,
    terminationReason: idText(record['termination_reason']),
    metrics: recordField(record, 'metrics'),
    metadata: meta && Object.keys(meta).length > 0 ? meta : undefined,
    trajectories: rewards,
  });
}

/** The split: `train` / `val` from a training dump's folder, `eval` for an eval store file. */
function splitOf(mode: string | undefined, record: JsonRecord): string | undefined {
  if (mode === 'val' || mode === 'validation') return 'val';
  if (mode !== undefined) return mode;
  return 'eval_idx' in record || 'id' in record ? 'eval' : undefined;
}

/**
 * One rLLM episode file → one episode. Id: the file path without `.json` (rLLM ids `task:rollout`
 * repeat every step); step: `training_step`, else the folder's `_step_N_`; group: `task_hash`,
 * else the task id; sample: the rollout index of the id; messages: each trajectory's steps in
 * order (the observation, then the agent's response); per-agent rewards: each trajectory's reward.
 */
function toEpisodes(record: unknown, context: RecordContext): Result<Episode[]> {
  if (!isRecord(record)) return err('expected an rLLM episode object');
  if (isSideFile(context.fileName, record)) return ok([]);
  const list = arrayField(record, 'trajectories');
  if (!list) return err('missing "trajectories"');
  const messages: Message[] = [];
  const rewards: TrajectoryReward[] = [];
  for (let i = 0; i < list.length; i++) {
    const t = trajectory(list[i], i);
    if (!t.ok) return t;
    messages.push(...t.value.messages);
    rewards.push(t.value.reward);
  }
  const place = rllmPlace(context.uri);
  const episodeId = idText(record['episode_id']) ?? idText(record['id']);
  const task = taskFields(record['task']);
  const episode: Episode = definedOnly({
    id: fileStem(context.uri),
    step: integerOf(record['training_step']) ?? place.step,
    group: idText(record['task_hash']) ?? task.id,
    sample: episodeId === undefined ? undefined : rolloutIndex(episodeId),
    task: task.id ?? idText(record['task_hash']),
    split: splitOf(place.mode, record),
    prompt: task.prompt,
    agents: roster(context, messages, rewards),
    messages,
    reward: teamReward(record, rewards),
    agentRewards: agentRewards(rewards),
    groundTruth: task.groundTruth,
    metadata: { episodeId, ...metadata(record, rewards, place.mode, integerOf(record['epoch']) ?? place.epoch) },
  });
  return ok([episode]);
}

/**
 * rLLM's side files, read as zero episodes (not errors): the eval run's `meta.json`
 * (`benchmark, model, agent, split, timestamp, attempts`) and a training step's
 * `batch_summary.json` (`episode_files, summary_stats`).
 */
function isSideFile(fileName: string, root: JsonRecord): boolean {
  if (fileName === 'meta.json') return 'benchmark' in root && 'model' in root && 'agent' in root;
  if (fileName === 'batch_summary.json') return Array.isArray(root['episode_files']) && 'summary_stats' in root;
  return false;
}

/** A list of `trajectories` whose entries have `steps`, with `episode_id`/`training_step` (training) or `id`/`is_correct` (eval). */
function detect(sample: DetectionSample): number {
  const root = sample.records[0] ?? sample.root;
  if (!isRecord(root)) return 0;
  if (isSideFile(sample.fileName, root)) return 0.9;
  const list = arrayField(root, 'trajectories');
  if (!list) return 0;
  const first: unknown = list[0];
  const shaped = list.length === 0 || (isRecord(first) && ('steps' in first || 'name' in first));
  if (!shaped) return 0.2;
  if ('training_step' in root && 'episode_id' in root) return 0.95;
  if ('is_correct' in root && ('id' in root || 'termination_reason' in root)) return 0.9;
  return stringOf(sample.fileName)?.startsWith('episode_') ? 0.6 : 0.3;
}

/** rLLM episode JSON files (`episodes/{mode}_step_{n}_epoch_{e}/episode_hash…_id….json`, `episodes/episode_{idx}_{task}.json`). */
export const rllmMapper: FormatMapper = {
  format: 'rllm',
  label: 'rLLM episode',
  containers: ['json'],
  jsonRecords: 'root',
  detect,
  toEpisodes,
};
