import type { AgentDecl, Episode, Message } from '../../../../core/episode';
import { err, ok, type Result } from '../../../../core/result';
import type { RecordContext } from '../../types';
import { c3Agents, c3RoleList, c3RoleName, c3Roles, c3RunContext, objectAt, topoIndex } from './rlC3Context';
import { definedFields, idOf, integerOf, isRecord, jsonSafe, meanOf, numberOf, textOf, type JsonRecord } from './rlFields';
import { optional } from './rlVerlRecord';

/** One experience of a `train_rollouts` line: one role's action in one trajectory. */
interface Experience {
  readonly info: JsonRecord;
  readonly role: string;
  readonly reward?: number;
  readonly advantage?: number;
  readonly ret?: number;
  readonly text?: string;
}

/**
 * The episodes of one C3 `kind: "train_rollouts"` line (trace-formats.md §2.5 item 2, §6 "C3
 * rollouts"): its `experiences` grouped into trajectories by `info.traj_id` (else `question_id` and
 * `k_id`), one message per experience in `roles_topo` order (`info.output_text`, else the role's
 * entry in `info.traj_role_outputs`, else `""` when the dump is compact). Per role: the reward
 * (`reward`, else the mean of `rewards`, else `info.reward`) in `agentRewards`, the mean advantage in
 * `advantages`, the mean return in `metadata.returns`. The team reward is the answer role's reward,
 * else the reward all roles share. A `train_rollouts_stats` line carries only means: no episodes.
 */
export function c3RolloutEpisodes(line: JsonRecord, context: RecordContext): Result<Episode[]> {
  if (line['kind'] === 'train_rollouts_stats') return ok([]);
  const list = line['experiences'];
  if (!Array.isArray(list)) return err('missing "experiences" (a C3 train_rollouts line)');
  const experiences: Experience[] = [];
  for (let i = 0; i < list.length; i++) {
    const read = readExperience(list[i], `experiences[${i}]`, context.roster);
    if (!read.ok) return read;
    experiences.push(read.value);
  }
  return ok([...groupByTrajectory(experiences).values()].map((group) => trajectoryEpisode(line, group, context)));
}

function readExperience(value: unknown, path: string, roster: readonly AgentDecl[]): Result<Experience> {
  if (!isRecord(value)) return err(`${path}: expected an object`);
  const info = objectAt(value, 'info');
  if (!info) return err(`${path}: missing "info"`);
  const role = idOf(info['role']);
  if (role === undefined) return err(`${path}.info: missing "role"`);
  const outputs = objectAt(info, 'traj_role_outputs');
  return ok(
    definedFields({
      info,
      role: c3RoleName(role, roster),
      reward: numberOf(value['reward']) ?? meanOf(value['rewards']) ?? numberOf(info['reward']),
      advantage: meanOf(value['advantages']),
      ret: meanOf(value['returns']),
      text: textOf(info['output_text']) ?? textOf(outputs?.[role]),
    }),
  );
}

function trajectoryKey(info: JsonRecord): string {
  const traj = idOf(info['traj_id']);
  const base = `${idOf(info['question_id']) ?? 'q'}-k${idOf(info['k_id']) ?? '?'}`;
  return traj === undefined ? base : `${base}-t${traj}`;
}

function groupByTrajectory(experiences: readonly Experience[]): Map<string, Experience[]> {
  const groups = new Map<string, Experience[]>();
  for (const e of experiences) {
    const key = trajectoryKey(e.info);
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return groups;
}

function trajectoryEpisode(line: JsonRecord, group: readonly Experience[], context: RecordContext): Episode {
  const first = group[0]?.info ?? {};
  const topo = c3RoleList(first['roles_topo'] ?? line['c3_roles_topo']);
  const order = topoIndex(topo, context.roster);
  const sorted = [...group].sort((a, b) => order(a.role) - order(b.role));
  const step = integerOf(line['global_step']);
  const question = idOf(first['question_id']);
  const byRole = (pick: (e: Experience) => number | undefined): Record<string, number> | undefined => perRole(sorted, pick);
  const rewards = byRole((e) => e.reward);
  return definedFields({
    id: `train-${step !== undefined ? `s${step}-` : ''}${trajectoryKey(first)}`,
    ...optional('step', step),
    group: `${step !== undefined ? `s${step}-` : ''}${question ?? trajectoryKey(first)}`,
    ...optional('sample', integerOf(first['k_id'])),
    ...optional('task', question),
    split: 'train',
    prompt: textOf(sorted[0]?.info['prompt_text']) ?? textOf(line['prompt']),
    agents: c3Agents(c3Roles(topo, sorted.map((e) => e.role), context.roster), context.roster),
    messages: sorted.map((e): Message => ({ agent: e.role, role: 'assistant', content: e.text ?? '' })),
    reward: teamReward(rewards, first, context),
    agentRewards: rewards,
    advantages: byRole((e) => e.advantage),
    metadata: rolloutMetadata(line, sorted, byRole((e) => e.ret)),
  });
}

function perRole(experiences: readonly Experience[], pick: (e: Experience) => number | undefined): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  for (const e of experiences) {
    const value = pick(e);
    if (value !== undefined) out[e.role] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function teamReward(rewards: Readonly<Record<string, number>> | undefined, info: JsonRecord, context: RecordContext): number | undefined {
  if (!rewards) return undefined;
  const answerRole = idOf(info['answer_role']);
  const answer = answerRole === undefined ? undefined : rewards[c3RoleName(answerRole, context.roster)];
  if (answer !== undefined) return answer;
  const values = Object.values(rewards);
  return values.every((v) => v === values[0]) ? values[0] : undefined;
}

const infoKeys = ['adv_group_id', 'magrpo_group_id', 'ctx_hash', 'ctx_kind', 'is_leaf', 'reward_source', 'task_name', 'env_name'] as const;

function rolloutMetadata(line: JsonRecord, experiences: readonly Experience[], returns: Record<string, number> | undefined): Record<string, unknown> {
  const roles: Record<string, unknown> = {};
  for (const e of experiences) {
    const kept: Record<string, unknown> = {};
    for (const key of infoKeys) if (e.info[key] !== undefined && e.info[key] !== null) kept[key] = jsonSafe(e.info[key]);
    if (Object.keys(kept).length > 0) roles[e.role] = kept;
  }
  return definedFields({
    run: c3RunContext(line),
    rollout: definedFields({ rollout_iter: jsonSafe(line['rollout_iter']), epoch: jsonSafe(line['epoch']), iter_in_epoch: jsonSafe(line['iter_in_epoch']) }),
    returns,
    roles: Object.keys(roles).length > 0 ? roles : undefined,
    textsDropped: experiences.some((e) => e.text === undefined) ? true : undefined,
  });
}
