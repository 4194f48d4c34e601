import type { Counterfactual, Episode, Message } from '../../../../core/episode';
import { c3BatchNodes, type C3Node } from './rlC3Batch';
import { err, ok, type Result } from '../../../../core/result';
import type { RecordContext } from '../../types';
import { c3Agents, c3RoleList, c3RoleName, c3Roles, c3RunContext, topoIndex } from './rlC3Context';
import { definedFields, idOf, integerOf, jsonSafe, textOf, type JsonRecord } from '../common/rlFields';
import { optional } from '../common/rlVerlRecord';

/**
 * The episodes of one C3 `kind: "train_rollouts"` line (`PPOTrainer._maybe_dump_rollouts_jsonl`;
 * trace-formats.md §2.5 item 2, §6 "C3 rollouts"). Each of its `experiences` is a micro-batch of
 * prefix-tree nodes (see `c3BatchNodes`). In a tree dump (nodes name a parent, `c3_parent_id`) every
 * leaf (`is_leaf`, `k_id ≥ 0`) is one episode: its path from the root, one message per role in
 * `roles_topo` order (the node's `output_text`, else the leaf's `traj_role_outputs`), per-role
 * rewards (an internal node's reward is its subtree mean), advantages and returns, and the leaf's
 * siblings (the other leaves under the same parent) as `replace_text` counterfactuals on its role.
 * Without parents (flat MAGRPO/MAPPO dumps, single-sample experiences) nodes are grouped into
 * trajectories by `traj_id`, else (`question_id`, `k_id`). A `train_rollouts_stats` line carries
 * only means: no episodes.
 */
export function c3RolloutEpisodes(line: JsonRecord, context: RecordContext): Result<Episode[]> {
  if (line['kind'] === 'train_rollouts_stats') return ok([]);
  const list = line['experiences'];
  if (!Array.isArray(list)) return err('missing "experiences" (a C3 train_rollouts line)');
  const nodes: C3Node[] = [];
  for (let i = 0; i < list.length; i++) {
    const read = c3BatchNodes(list[i], `experiences[${i}]`, line['c3_roles_topo'], context.roster);
    if (!read.ok) return read;
    nodes.push(...read.value);
  }
  const paths = nodes.some((n) => n.parentId !== undefined) ? treePaths(nodes) : [...groupByTrajectory(nodes).values()];
  return ok(paths.map((path) => trajectoryEpisode(line, path, nodes, context)));
}

/** Each leaf with its ancestors (root first), found by (`question_id`, `c3_node_id`). */
function treePaths(nodes: readonly C3Node[]): C3Node[][] {
  const byId = new Map<string, C3Node>();
  for (const n of nodes) if (n.nodeId !== undefined) byId.set(`${n.question ?? ''}:${n.nodeId}`, n);
  return nodes
    .filter((n) => n.leaf)
    .map((leaf) => {
      const path = [leaf];
      for (let at = leaf; at.parentId !== undefined && path.length <= nodes.length;) {
        const parent = byId.get(`${at.question ?? ''}:${at.parentId}`);
        if (!parent) break;
        path.unshift(parent);
        at = parent;
      }
      return path;
    });
}

function trajectoryKey(info: JsonRecord): string {
  const traj = idOf(info['traj_id']);
  const base = `${idOf(info['question_id']) ?? 'q'}-k${idOf(info['k_id']) ?? '?'}`;
  return traj === undefined ? base : `${base}-t${traj}`;
}

function groupByTrajectory(nodes: readonly C3Node[]): Map<string, C3Node[]> {
  const groups = new Map<string, C3Node[]>();
  for (const n of nodes) {
    const key = trajectoryKey(n.info);
    groups.set(key, [...(groups.get(key) ?? []), n]);
  }
  return groups;
}

/** The leaf of a trajectory: its `is_leaf` node, else its last node. */
function leafOf(path: readonly C3Node[]): C3Node | undefined {
  return path.find((n) => n.leaf) ?? path[path.length - 1];
}

function trajectoryEpisode(
  line: JsonRecord,
  path: readonly C3Node[],
  all: readonly C3Node[],
  context: RecordContext,
): Episode {
  const leaf = leafOf(path);
  const first = path[0]?.info ?? {};
  const topo = c3RoleList(first['roles_topo'] ?? leaf?.info['roles_topo'] ?? line['c3_roles_topo']);
  const order = topoIndex(topo, context.roster);
  const sorted = [...path].sort((a, b) => order(a.role) - order(b.role));
  const step = integerOf(line['global_step']);
  const at = step !== undefined ? `s${step}-` : '';
  const key = leaf && leaf.parentId !== undefined ? `${leaf.question ?? 'q'}-k${leaf.k ?? '?'}` : trajectoryKey(first);
  const question = leaf?.question ?? idOf(first['question_id']);
  const byRole = (pick: (n: C3Node) => number | undefined): Record<string, number> | undefined => perRole(sorted, pick);
  const rewards = byRole((n) => n.reward);
  const { messages, dropped } = pathMessages(sorted, leaf, topo, context);
  const counterfactuals = leaf ? siblingCounterfactuals(leaf, all) : [];
  return definedFields({
    id: `train-${at}${key}`,
    ...optional('step', step),
    group: `${at}${question ?? key}`,
    ...optional('sample', leaf?.k ?? integerOf(first['k_id'])),
    ...optional('task', question),
    split: 'train',
    prompt: textOf(sorted[0]?.info['question']) ?? textOf(sorted[0]?.info['prompt_text']) ?? textOf(line['prompt']),
    agents: c3Agents(
      c3Roles(
        topo,
        messages.map((m) => m.agent),
        context.roster,
      ),
      context.roster,
    ),
    messages,
    reward:
      teamReward(rewards, leaf?.info ?? first, context) ?? (leaf?.parentId !== undefined ? leaf.reward : undefined),
    agentRewards: rewards,
    advantages: byRole((n) => n.advantage),
    counterfactuals: counterfactuals.length > 0 ? counterfactuals : undefined,
    metadata: rolloutMetadata(
      line,
      sorted,
      byRole((n) => n.ret),
      dropped,
    ),
  });
}

/**
 * One message per role of the path in `roles_topo` order: the node's own text, else the leaf's
 * `traj_role_outputs` entry for that role, else `""` (a compact dump); a role only the leaf's
 * `traj_role_outputs` names (its node was not dumped) still gets its message.
 */
function pathMessages(
  sorted: readonly C3Node[],
  leaf: C3Node | undefined,
  topo: readonly string[],
  context: RecordContext,
): { messages: Message[]; dropped: boolean } {
  const order = topoIndex(topo, context.roster);
  const roles = [...new Set([...sorted.map((n) => n.role), ...Object.keys(leaf?.outputs ?? {})])].sort(
    (a, b) => order(a) - order(b),
  );
  let dropped = false;
  const messages = roles.map((agent): Message => {
    const content = sorted.find((n) => n.role === agent)?.text ?? leaf?.outputs[agent];
    if (content === undefined) dropped = true;
    return { agent, role: 'assistant', content: content ?? '' };
  });
  return { messages, dropped };
}

/**
 * The leaf's siblings in the prefix tree (the other leaves under the same parent, same question):
 * the same context with the leaf's action replaced by the sibling's, whose logged reward is the
 * outcome. Nothing downstream is re-generated (a leaf is the last role), so `replayed` is false.
 */
function siblingCounterfactuals(leaf: C3Node, all: readonly C3Node[]): Counterfactual[] {
  if (leaf.parentId === undefined) return [];
  return all
    .filter(
      (n) =>
        n !== leaf && n.leaf && n.role === leaf.role && n.question === leaf.question && n.parentId === leaf.parentId,
    )
    .flatMap((n): Counterfactual[] =>
      n.reward === undefined || n.text === undefined
        ? []
        : [
            {
              intervention: 'replace_text',
              agents: [leaf.role],
              replacement: n.text,
              reward: n.reward,
              replayed: false,
            },
          ],
    );
}

function perRole(
  experiences: readonly C3Node[],
  pick: (e: C3Node) => number | undefined,
): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  for (const e of experiences) {
    const value = pick(e);
    if (value !== undefined) out[e.role] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function teamReward(
  rewards: Readonly<Record<string, number>> | undefined,
  info: JsonRecord,
  context: RecordContext,
): number | undefined {
  if (!rewards) return undefined;
  const answerRole = idOf(info['answer_role']);
  const answer = answerRole === undefined ? undefined : rewards[c3RoleName(answerRole, context.roster)];
  if (answer !== undefined) return answer;
  const values = Object.values(rewards);
  return values.every((v) => v === values[0]) ? values[0] : undefined;
}

const infoKeys = [
  'adv_group_id',
  'magrpo_group_id',
  'traj_id',
  'c3_node_id',
  'c3_parent_id',
  'c3_depth',
  'c3_sibling_id',
  'c3_path',
  'ctx_hash',
  'ctx_kind',
  'is_leaf',
  'reward_source',
  'task_name',
  'env_name',
] as const;

function rolloutMetadata(
  line: JsonRecord,
  experiences: readonly C3Node[],
  returns: Record<string, number> | undefined,
  textsDropped: boolean,
): Record<string, unknown> {
  const roles: Record<string, unknown> = {};
  for (const e of experiences) {
    const kept: Record<string, unknown> = {};
    for (const key of infoKeys)
      if (e.info[key] !== undefined && e.info[key] !== null) kept[key] = jsonSafe(e.info[key]);
    if (Object.keys(kept).length > 0) roles[e.role] = kept;
  }
  return definedFields({
    run: c3RunContext(line),
    rollout: definedFields({
      rollout_iter: jsonSafe(line['rollout_iter']),
      epoch: jsonSafe(line['epoch']),
      iter_in_epoch: jsonSafe(line['iter_in_epoch']),
    }),
    returns,
    roles: Object.keys(roles).length > 0 ? roles : undefined,
    textsDropped: textsDropped ? true : undefined,
  });
}
