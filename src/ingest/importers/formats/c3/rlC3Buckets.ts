import type { Counterfactual, Episode, Message } from '../../../../core/episode';
import { err, ok, type Result } from '../../../../core/result';
import type { RecordContext } from '../../types';
import { c3Agents, c3RoleList, c3RoleName, c3Roles, c3RunContext, objectAt, topoIndex } from './rlC3Context';
import {
  definedFields,
  idOf,
  integerOf,
  isRecord,
  jsonSafe,
  scoreOf,
  textOf,
  type JsonRecord,
} from '../common/rlFields';
import { kindOf, optional } from '../common/rlVerlRecord';

/** One candidate action of a bucket, read defensively. */
interface Candidate {
  readonly j: number;
  readonly action: string;
  readonly returns: readonly number[];
  readonly mean?: number;
  readonly next: unknown;
}

/** What every episode of one bucket shares. */
interface Bucket {
  readonly line: JsonRecord;
  readonly id: string;
  readonly target: string;
  readonly group: string;
  readonly context: readonly Message[];
  readonly roles: readonly string[];
}

/**
 * The episodes of one C3 `buckets.jsonl` line (trace-formats.md §2.5 item 4, §6 "C3 buckets"): the
 * context (the upstream roles' outputs in `restart.role_outputs_prefix`) is frozen and only
 * `target_role`'s action varies. Each candidate becomes an episode in the group `ctx-{ctx_hash}`
 * (sample = `j`): the context messages, then the target role's `action_text`; its reward is the mean
 * of its `returns`. Every sibling candidate is a logged counterfactual of it,
 * `{intervention: 'replace_text', agents: [target], replacement: sibling action, reward: sibling
 * mean, rewards: sibling returns, replayed: true}` (the returns come from re-generated continuations),
 * so C3's credit (a candidate's mean minus its siblings' leave-one-out mean) is read from one episode.
 * `next_actions` (the continuations) stay in `metadata.nextActions`.
 */
export function c3BucketEpisodes(line: unknown, context: RecordContext): Result<Episode[]> {
  if (!isRecord(line)) return err(`expected a JSON object (a C3 bucket), got ${kindOf(line)}`);
  const list = line['candidates'];
  if (!Array.isArray(list)) return err('missing "candidates" (a C3 bucket)');
  const targetRaw = idOf(line['target_role']);
  if (targetRaw === undefined) return err('missing "target_role"');
  const candidates: Candidate[] = [];
  for (let i = 0; i < list.length; i++) {
    const read = readCandidate(list[i], i);
    if (!read.ok) return read;
    candidates.push(read.value);
  }
  const bucket = readBucket(line, targetRaw, context);
  return ok(candidates.map((c) => candidateEpisode(bucket, c, candidates, context)));
}

function readCandidate(value: unknown, index: number): Result<Candidate> {
  if (!isRecord(value)) return err(`candidates[${index}]: expected an object, got ${kindOf(value)}`);
  const action = textOf(value['action_text']);
  if (action === undefined) return err(`candidates[${index}]: missing "action_text"`);
  const returns = (Array.isArray(value['returns']) ? value['returns'] : [value['returns']])
    .map(scoreOf)
    .filter((n): n is number => n !== undefined);
  return ok(
    definedFields({
      j: integerOf(value['j']) ?? index,
      action,
      returns,
      mean: returns.length === 0 ? undefined : returns.reduce((a, b) => a + b, 0) / returns.length,
      next: jsonSafe(value['next_actions']),
    }),
  );
}

function readBucket(line: JsonRecord, targetRaw: string, context: RecordContext): Bucket {
  const restart = objectAt(line, 'restart') ?? {};
  const topo = c3RoleList(restart['roles_topo']);
  const target = c3RoleName(targetRaw, context.roster);
  const prefix = objectAt(restart, 'role_outputs_prefix') ?? {};
  const order = topoIndex(topo, context.roster);
  const messages = Object.entries(prefix)
    .map(([role, text]): Message => ({
      agent: c3RoleName(role, context.roster),
      role: 'assistant',
      content: textOf(text) ?? JSON.stringify(jsonSafe(text) ?? null),
    }))
    .sort((a, b) => order(a.agent) - order(b.agent));
  const id = idOf(line['bucket_id']) ?? `${context.uri}:${context.line}`;
  const ctx = idOf(line['ctx_hash']);
  return {
    line,
    id,
    target,
    group: ctx === undefined ? `bucket-${id}` : `ctx-${ctx}`,
    context: messages,
    roles: c3Roles(topo, [...messages.map((m) => m.agent), target], context.roster),
  };
}

function candidateEpisode(
  bucket: Bucket,
  candidate: Candidate,
  all: readonly Candidate[],
  context: RecordContext,
): Episode {
  const restart = objectAt(bucket.line, 'restart') ?? {};
  const siblings = all.filter((c) => c !== candidate && c.mean !== undefined).map((c) => replacement(bucket.target, c));
  return definedFields({
    id: `bucket-${bucket.id}-j${candidate.j}`,
    group: bucket.group,
    sample: candidate.j,
    ...optional('task', idOf(bucket.line['question_id'])),
    ...optional('prompt', textOf(restart['question'])),
    agents: c3Agents(bucket.roles, context.roster),
    messages: [
      ...bucket.context.map((m) => ({ ...m })),
      { agent: bucket.target, role: 'assistant', content: candidate.action },
    ],
    reward: candidate.mean,
    counterfactuals: siblings.length > 0 ? siblings : undefined,
    metadata: definedFields({
      run: c3RunContext(bucket.line),
      bucket: definedFields({
        bucket_id: bucket.id,
        ctx_hash: jsonSafe(bucket.line['ctx_hash']),
        target_role: bucket.line['target_role'],
        j: candidate.j,
      }),
      returns: [...candidate.returns],
      nextActions: candidate.next,
      meta: jsonSafe(bucket.line['meta']),
    }),
  });
}

function replacement(target: string, sibling: Candidate): Counterfactual {
  return definedFields({
    intervention: 'replace_text',
    agents: [target],
    replacement: sibling.action,
    reward: sibling.mean ?? Number.NaN,
    rewards: sibling.returns.length > 1 ? [...sibling.returns] : undefined,
    replayed: true,
  });
}
