import type { AgentDecl, Episode, Message } from '../../../../core/episode';
import { ok } from '../../../../core/result';
import type { DetectionSample, FormatMapper, RecordContext } from '../../types';
import { agentDecl, singlePolicy } from '../common/rlAgents';
import { hasCcpoMarkers } from '../ccpo/rlCcpoSections';
import { definedFields, metricsAndFields, nonEmpty, scoreOf, shareOf } from '../common/rlFields';
import { splitRoleText, type RoleSegment } from './rlRoleText';
import {
  isVerlShaped,
  readVerlRecord,
  verlIdentity,
  verlStepFromFileName,
  type VerlRecord,
} from '../common/rlVerlRecord';

/**
 * verl `trainer.rollout_data_dir` / `validation_data_dir` dumps (trace-formats.md §2.1, §6): one
 * episode per `{step}.jsonl` line. `input` is the prompt; `output` becomes the policy's turns (split
 * on role words when it is a multi-turn agent-loop rendering, tool turns going to a `tool` agent);
 * `score` is the reward; `gts` the ground truth; every other key goes to `metadata` (numeric ones
 * under `metrics`, the rest under `fields`).
 */
export const verlMapper: FormatMapper = {
  format: 'verl',
  label: 'verl rollout / validation dump',
  containers: ['jsonl'],
  detect: detectVerl,
  toEpisodes: (record, context) => {
    const read = readVerlRecord(record, context.fileName);
    return read.ok ? ok([verlEpisode(read.value, context)]) : read;
  },
};

/**
 * How sure the sample is a plain verl dump: the share of records with verl's shape (text `input`
 * and `output`, a `score` or `step`), times 0.85, plus 0.05 for a `{step}.jsonl` file name. Records
 * with CCPO's `[Thinker]` / `[Solver …]` sections score 0.6 at most, so the CCPO mapper wins them.
 */
function detectVerl(sample: DetectionSample): number {
  if (sample.container !== 'jsonl') return 0;
  const share = shareOf(sample.records, isVerlShaped);
  if (share === 0) return 0;
  if (sample.records.some((r) => isVerlShaped(r) && hasCcpoMarkers(r))) return 0.6 * share;
  return 0.85 * share + (verlStepFromFileName(sample.fileName) !== undefined ? 0.05 : 0);
}

function verlEpisode(v: VerlRecord, context: RecordContext): Episode {
  const policy = namedPolicy(v, context.roster);
  const { segments, split } = splitRoleText(v.output);
  const messages = segments.map((s, i) => turnMessage(s, policy.name, split ? i : undefined));
  const agents = [policy, ...environmentAgents(segments, context.roster)];
  const identity = verlIdentity(v, context);
  const reward = trainedReward(v, identity.split === 'validation');
  // Only when it differs from the dumped score is the raw score kept, as `verifierScore`.
  const derived = reward.value !== v.score;
  const extras = derived ? { ...v.extras, verifierScore: v.score } : v.extras;
  return definedFields({
    ...identity,
    agents,
    messages,
    reward: reward.value,
    metadata: nonEmpty(
      definedFields({
        ...metricsAndFields(extras),
        turnSplit: split ? 'role-words' : undefined,
        rewardFrom: derived ? reward.from : undefined,
      }),
    ),
  });
}

/** The reward a verl line was trained (or validated) on, and which keys it came from. */
interface TrainedReward {
  readonly value: number | undefined;
  readonly from: 'score' | 'reward' | 'score+overlong_reward';
}

/**
 * The reward verl used (producers.md "DAPO"): `_dump_generations` lets an extra key named `score`
 * overwrite the summed reward, and DAPO's reward manager (`verl/workers/reward_manager/dapo.py`)
 * logs the verifier's raw `score` that way, adding `overlong_reward` (when `overlong_buffer.log`)
 * only to the reward tensor. `_validate` logs that tensor's sum as `reward`. So: `reward` in a
 * validation dump, else `score + overlong_reward` when both are numbers, else `score`.
 */
function trainedReward(v: VerlRecord, validation: boolean): TrainedReward {
  const logged = scoreOf(v.extras['reward']);
  if (validation && logged !== undefined) return { value: logged, from: 'reward' };
  const overlong = scoreOf(v.extras['overlong_reward']);
  if (v.score !== undefined && overlong !== undefined)
    return { value: v.score + overlong, from: 'score+overlong_reward' };
  return { value: v.score, from: 'score' };
}

/** The policy agent: a recipe's `agent_name` key when present, else the run's single agent or `policy`. */
function namedPolicy(v: VerlRecord, roster: readonly AgentDecl[]): AgentDecl {
  const name = v.extras['agent_name'];
  if (typeof name === 'string' && name !== '') return agentDecl(name, roster, { kind: 'llm', trainable: true });
  return singlePolicy(roster);
}

function turnMessage(segment: RoleSegment, policy: string, turn: number | undefined): Message {
  const agent = segment.role === 'assistant' ? policy : segment.role;
  const channel = segment.role === 'tool' ? 'tool_result' : undefined;
  return definedFields({ agent, turn, role: segment.role, channel, content: segment.content });
}

/** `tool` (kind tool) and `user` (kind user_sim) agents for the non-assistant turns of a split output. */
function environmentAgents(segments: readonly RoleSegment[], roster: readonly AgentDecl[]): AgentDecl[] {
  const agents: AgentDecl[] = [];
  if (segments.some((s) => s.role === 'tool')) agents.push(agentDecl('tool', roster, { kind: 'tool' }));
  if (segments.some((s) => s.role === 'user')) agents.push(agentDecl('user', roster, { kind: 'user_sim' }));
  return agents;
}
