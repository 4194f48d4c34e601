import type { AgentDecl, Episode, Message } from '../../../../core/episode';
import { err, ok, type Result } from '../../../../core/result';
import type { DetectionSample, FormatMapper, RecordContext } from '../../types';
import {
  arrayField,
  definedOnly,
  fileStem,
  idText,
  integerOf,
  isRecord,
  numberOf,
  recordField,
  stringOf,
  type JsonRecord,
} from '../common/json';
import { TraceRoster } from '../common/traceRoster';
import { contentText, joinLines, toolCallText } from '../common/traceText';

// tau-bench `EnvRunResult` rows (trace-formats.md §3.3, §6): the policy agent, an LLM user
// simulator and the tool environment. Agent names are the wire roles, so every file of a run shares
// one roster.

const assistant: AgentDecl = { name: 'assistant', kind: 'llm', trainable: true };
const user: AgentDecl = { name: 'user', kind: 'user_sim' };
const tools: AgentDecl = { name: 'tools', kind: 'env' };
const system: AgentDecl = { name: 'system', kind: 'system' };

/** ReAct-style agents (`chat_react_agent.py`) return tool output as a user turn with this prefix. */
const reactObservation = 'API output: ';

/** An assistant turn: its text, then each `tool_calls[].function` as `name(arguments)`. */
function assistantMessage(entry: JsonRecord): Message {
  const calls = (arrayField(entry, 'tool_calls') ?? []).flatMap((call) => {
    const fn = isRecord(call) ? recordField(call, 'function') : undefined;
    const name = fn ? idText(fn['name']) : undefined;
    return fn && name !== undefined ? [toolCallText(name, fn['arguments'])] : [];
  });
  const content = joinLines([contentText(entry['content']), ...calls]);
  return definedOnly({
    agent: assistant.name,
    role: 'assistant',
    channel: calls.length > 0 ? 'tool_call' : undefined,
    content,
  });
}

/** `traj[i]` → a message by role: assistant, user (simulator), tool / function (environment), system. */
function trajMessage(entry: unknown, i: number): Result<Message> {
  if (!isRecord(entry)) return err(`traj[${i}]: expected a message object`);
  const role = stringOf(entry['role']);
  const content = contentText(entry['content']);
  switch (role) {
    case 'assistant':
      return ok(assistantMessage(entry));
    case 'user':
      if (content.startsWith(reactObservation)) return ok({ agent: tools.name, role, channel: 'tool_result', content });
      return ok({ agent: user.name, role, content });
    case 'tool':
    case 'function':
      return ok({ agent: tools.name, role, channel: 'tool_result', content });
    case 'system':
      return ok({ agent: system.name, role, content });
    default:
      // An unknown role speaks as itself (an undeclared agent); a message without one is broken.
      return role ? ok({ agent: role, role, content }) : err(`traj[${i}]: missing "role"`);
  }
}

/** Reward: `reward`, else `info.reward_info.reward` (a string `"1.0"` is read as a number, §7). */
function reward(record: JsonRecord, info: JsonRecord | undefined): number | undefined {
  const rewardInfo = info ? recordField(info, 'reward_info') : undefined;
  return numberOf(record['reward']) ?? (rewardInfo ? numberOf(rewardInfo['reward']) : undefined);
}

/** Termination source, user cost and the reward breakdown (`r_actions` / `r_outputs`). */
function metadata(info: JsonRecord | undefined): Record<string, unknown> | undefined {
  if (!info) return undefined;
  const task = recordField(info, 'task');
  const rewardInfo = recordField(info, 'reward_info');
  const meta = definedOnly({
    userId: task ? idText(task['user_id']) : undefined,
    source: stringOf(info['source']),
    userCost: numberOf(info['user_cost']),
    rewardInfo: rewardInfo ? recordField(rewardInfo, 'info') : undefined,
  });
  return Object.keys(meta).length > 0 ? meta : undefined;
}

/** The roster: the run manifest's, then assistant and user, then system and tools when they speak. */
function roster(context: RecordContext, messages: readonly Message[]): AgentDecl[] {
  const team = new TraceRoster(context.roster);
  team.add(assistant);
  team.add(user);
  const speakers = new Set(messages.map((m) => m.agent));
  for (const agent of [system, tools]) if (speakers.has(agent.name)) team.add(agent);
  return team.list();
}

/**
 * One trajectory → one episode (§6): id `<file>:<task_id>:<trial>`; group = the task within the
 * file (its trials, §7 "GRPO groups"); sample = `trial`; task = `task_id`; prompt = the user
 * simulator's `info.task.instruction`; ground truth = the expected `info.task.actions` (JSON).
 */
function toEpisodes(record: unknown, context: RecordContext): Result<Episode[]> {
  if (!isRecord(record)) return err('expected a tau-bench trajectory object');
  const traj = arrayField(record, 'traj');
  if (!traj) return err('missing "traj"');
  const taskId = idText(record['task_id']);
  if (taskId === undefined) return err('missing "task_id"');
  const messages: Message[] = [];
  for (let i = 0; i < traj.length; i++) {
    const message = trajMessage(traj[i], i);
    if (!message.ok) return message;
    messages.push(message.value);
  }
  const trial = integerOf(record['trial']);
  const info = recordField(record, 'info');
  const task = info ? recordField(info, 'task') : undefined;
  const stem = fileStem(context.uri);
  const episode: Episode = definedOnly({
    id: `${stem}:${taskId}:${trial ?? `#${context.index}`}`,
    group: `${stem}:${taskId}`,
    sample: trial,
    task: taskId,
    prompt: task ? stringOf(task['instruction']) : undefined,
    agents: roster(context, messages),
    messages,
    reward: reward(record, info),
    groundTruth: task && Array.isArray(task['actions']) ? JSON.stringify(task['actions']) : undefined,
    metadata: metadata(info),
  });
  return ok([episode]);
}

/** A tau-bench row has `task_id` and a `traj` list of chat messages (plus `reward`, `info`, `trial`). */
function detect(sample: DetectionSample): number {
  const first = sample.records[0];
  if (!isRecord(first) || !Array.isArray(first['traj'])) return 0;
  if ('task_id' in first && ('reward' in first || 'trial' in first)) return 0.95;
  return 'task_id' in first ? 0.7 : 0.3;
}

/** tau-bench `historical_trajectories` / results files (trace-formats.md §3.3): a JSON array of runs. */
export const tauBenchMapper: FormatMapper = {
  format: 'tau-bench',
  label: 'tau-bench trajectories',
  containers: ['json', 'jsonl'],
  jsonRecords: 'array',
  detect,
  toEpisodes,
};
