import type { AgentDecl, Episode, Message } from '../../../../core/episode';
import { err, ok, type Result } from '../../../../core/result';
import type { DetectionSample, FormatMapper, RecordContext } from '../../types';
import { c3BucketEpisodes } from './rlC3Buckets';
import { c3Agents, c3JsonField, c3RoleList, c3RoleName, c3Roles, c3RunContext, objectAt } from './rlC3Context';
import { c3RolloutEpisodes } from './rlC3Rollouts';
import {
  definedFields,
  idOf,
  integerOf,
  isRecord,
  jsonSafe,
  jsonTextOf,
  scoreOf,
  shareOf,
  textOf,
  type JsonRecord,
} from '../common/rlFields';
import { kindOf, optional } from '../common/rlVerlRecord';

/**
 * Files C3 writes into a run folder that are not traces: `run_config.json`
 * (`openrlhf/utils/run_metadata.py`, `init_run_artifacts`), `budget_ledger.jsonl`
 * (`c3/utils/budget_ledger.py`), eval metrics `<eval dump>.metrics.jsonl` and `train_metrics.jsonl`
 * (`ppo_trainer_plugins.py`, `_maybe_dump_eval_metrics_jsonl`, `_maybe_dump_train_metrics_jsonl`).
 */
export const c3SideFiles: readonly RegExp[] = [
  /^run_config\.json$/,
  /^budget_ledger\.jsonl$/,
  /\.metrics\.jsonl$/,
  /^train_metrics\.jsonl$/,
];

/**
 * C3 (EIT-EAST-Lab) eval and train-rollout JSONL (trace-formats.md §2.5 items 1–2, §6): an eval
 * line (`eval_during_train.jsonl`, `eval_only.jsonl`) is one episode; a `kind: "train_rollouts"`
 * line is one episode per trajectory of its `experiences` (see `c3RolloutEpisodes`). Role names are
 * agents, matched to the run roster ignoring case, else lower-cased.
 */
export const c3Mapper: FormatMapper = {
  format: 'c3',
  label: 'C3 eval / train-rollout dump',
  containers: ['jsonl'],
  sideFiles: c3SideFiles,
  detect: (sample) => detectBy(sample, (r) => isC3Eval(r) || isC3Rollouts(r)),
  toEpisodes: (record, context) => {
    if (!isRecord(record)) return err(`expected a JSON object (a C3 eval or rollout line), got ${kindOf(record)}`);
    if (typeof record['kind'] === 'string' && record['kind'].startsWith('train_rollouts'))
      return c3RolloutEpisodes(record, context);
    const episode = c3EvalEpisode(record, context);
    return episode.ok ? ok([episode.value]) : episode;
  },
};

/**
 * C3 `buckets.jsonl` (`c3.analysis build-buckets`, trace-formats.md §2.5 item 4): the only public
 * format with *replacement* counterfactuals. Each candidate action of a bucket is an episode whose
 * siblings are its `replace_text` counterfactuals, grouped by the frozen context (see
 * `c3BucketEpisodes`).
 */
export const c3BucketsMapper: FormatMapper = {
  format: 'c3-buckets',
  label: 'C3 counterfactual buckets',
  containers: ['jsonl'],
  detect: (sample) => detectBy(sample, isC3Bucket),
  toEpisodes: c3BucketEpisodes,
};

/** 0.95 × the share of records `test` accepts (C3's field names are distinctive). */
function detectBy(sample: DetectionSample, test: (record: unknown) => boolean): number {
  return sample.container === 'jsonl' ? 0.95 * shareOf(sample.records, test) : 0;
}

function isC3Eval(r: unknown): boolean {
  return isRecord(r) && isRecord(r['traj_role_outputs']) && 'question_id' in r;
}

function isC3Rollouts(r: unknown): boolean {
  return isRecord(r) && (r['kind'] === 'train_rollouts' || r['kind'] === 'train_rollouts_stats');
}

function isC3Bucket(r: unknown): boolean {
  return isRecord(r) && Array.isArray(r['candidates']) && 'target_role' in r && isRecord(r['restart']);
}

/**
 * One eval line (§2.5 item 1, §6 "C3 eval"): (`question_id`, `k_id`) → task and sample, the group
 * is the question at that step; one message per role of `traj_role_outputs` in `roles_topo` order
 * (a list of texts gives one message per turn); `answer_text` by `answer_role` is the final answer;
 * `answer_reward` the reward; `label` the ground truth. Eval lines are `split: "eval"`, with the
 * policy's `global_step` as their step.
 */
function c3EvalEpisode(line: JsonRecord, context: RecordContext): Result<Episode> {
  const question = idOf(line['question_id']);
  if (question === undefined) return err('missing "question_id"');
  const outputs = objectAt(line, 'traj_role_outputs');
  if (!outputs) return err('missing "traj_role_outputs"');
  const topo = c3RoleList(line['roles_topo'] ?? line['c3_roles_topo']);
  const roles = c3Roles(topo, Object.keys(outputs), context.roster);
  const step = integerOf(line['global_step']) ?? integerOf(line['eval_global_step']);
  const k = integerOf(line['k_id']);
  const at = step === undefined ? '' : `s${step}-`;
  return ok(
    definedFields({
      id: `eval-${at}${question}${k === undefined ? '' : `-k${k}`}`,
      ...optional('step', step),
      group: `eval-${at}${question}`,
      ...optional('sample', k),
      task: question,
      split: 'eval',
      ...optional('prompt', textOf(line['prompt'])),
      agents: c3Agents(roles, context.roster),
      messages: roleMessages(outputs, roles, context.roster),
      final: finalAnswer(line, context.roster),
      reward: scoreOf(line['answer_reward']),
      groundTruth: jsonTextOf(line['label']),
      metadata: evalMetadata(line),
    }) as Episode,
  );
}

function roleMessages(outputs: JsonRecord, roles: readonly string[], roster: readonly AgentDecl[]): Message[] {
  const byAgent = new Map(Object.entries(outputs).map(([role, value]) => [c3RoleName(role, roster), value]));
  return roles.flatMap((agent) => {
    const value = byAgent.get(agent);
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value))
      return [{ agent, role: 'assistant', content: textOf(value) ?? JSON.stringify(jsonSafe(value)) }];
    return value.map((v, turn): Message => ({
      agent,
      turn,
      role: 'assistant',
      content: textOf(v) ?? JSON.stringify(jsonSafe(v) ?? null),
    }));
  });
}

function finalAnswer(line: JsonRecord, roster: readonly AgentDecl[]): Episode['final'] {
  const answer = textOf(line['answer_text']);
  if (answer === undefined) return undefined;
  const role = idOf(line['answer_role']);
  return role === undefined ? { answer } : { answer, agent: c3RoleName(role, roster) };
}

function evalMetadata(line: JsonRecord): Record<string, unknown> {
  return definedFields({
    run: c3RunContext(line),
    ts: jsonSafe(line['ts']),
    datasource: jsonSafe(line['datasource']),
    task_name: jsonSafe(line['task_name']),
    env_name: jsonSafe(line['env_name']),
    reward_source: jsonSafe(line['reward_source']),
    reward_info: line['reward_info_json'] === undefined ? undefined : c3JsonField(line['reward_info_json']),
    dataset_meta: line['dataset_meta_json'] === undefined ? undefined : c3JsonField(line['dataset_meta_json']),
  });
}
