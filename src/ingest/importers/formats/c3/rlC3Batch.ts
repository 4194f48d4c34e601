import type { AgentDecl } from '../../../../core/episode';
import { err, ok, type Result } from '../../../../core/result';
import { c3RoleList, c3RoleName, objectAt } from './rlC3Context';
import { idOf, integerOf, isRecord, meanOf, scoreOf, textOf, type JsonRecord } from '../common/rlFields';

// C3 `train_rollouts` experiences are micro-batches (EIT-EAST-Lab/C3 `Experience.concat_experiences`):
// every `info` field is a list of length B, `traj_role_outputs` is `{role: [text per sample]}`, and
// `_to_jsonable` writes a tensor as a flat list when it has at most 64 values, else as
// `{"__tensor__": true, "shape": [B, S], "head": [first 16 values]}`. This module splits one
// experience into its B samples (prefix-tree nodes).

/** One sample of a C3 micro-batch: one node of the prefix tree (one role's action). */
export interface C3Node {
  /** The sample's own `info` values (the j-th entry of every batch-aligned field). */
  readonly info: JsonRecord;
  /** The agent name of the node's role. */
  readonly role: string;
  readonly question?: string;
  /** `k_id`: the leaf index in its question (−1 for internal nodes). */
  readonly k?: number;
  readonly nodeId?: number;
  /** The parent node (`c3_parent_id_true`, else `c3_parent_id`); undefined or −1 at the root. */
  readonly parentId?: number;
  readonly leaf: boolean;
  readonly reward?: number;
  readonly advantage?: number;
  readonly ret?: number;
  /** The node's own output (`output_text`, else its role's entry of `traj_role_outputs`). */
  readonly text?: string;
  /** `traj_role_outputs` of this sample, keyed by agent name (a leaf's holds every role of its path). */
  readonly outputs: Readonly<Record<string, string>>;
}

/** The batch-aligned view of one experience. */
interface Batch {
  readonly value: JsonRecord;
  readonly info: JsonRecord;
  readonly size: number;
  readonly topo: readonly string[];
}

/**
 * The samples of experience `value` (at `path`, e.g. `experiences[2]`), in batch order. B is the
 * length of `info.role` (else `info.question_id`, `info.k_id`); scalar fields (older single-sample
 * dumps) are B = 1. A sample's role is `info.role`, else `roles_topo[role_id]`.
 */
export function c3BatchNodes(
  value: unknown,
  path: string,
  lineTopo: unknown,
  roster: readonly AgentDecl[],
): Result<C3Node[]> {
  if (!isRecord(value)) return err(`${path}: expected an object`);
  const info = objectAt(value, 'info');
  if (!info) return err(`${path}: missing "info"`);
  const batch: Batch = { value, info, size: batchSize(info), topo: c3RoleList(info['roles_topo'] ?? lineTopo) };
  const roles: string[] = [];
  for (let j = 0; j < batch.size; j++) {
    const role = roleAt(batch, j);
    if (role === undefined) return err(`${path}.info: missing "role"${batch.size > 1 ? ` of sample ${j}` : ''}`);
    roles.push(role);
  }
  const outputs = outputColumns(batch, roles, roster);
  return ok(roles.map((role, j) => nodeAt(batch, j, role, outputs[j] ?? {}, roster)));
}

function batchSize(info: JsonRecord): number {
  for (const key of ['role', 'question_id', 'k_id', 'traj_id']) {
    const length = lengthOf(info[key]);
    if (length !== undefined) return length;
  }
  return 1;
}

/** The number of values a batch column holds: a list's length, a summarised tensor's first dimension. */
function lengthOf(value: unknown): number | undefined {
  if (Array.isArray(value)) return value.length > 0 ? value.length : undefined;
  if (!isRecord(value)) return undefined;
  if (value['__tensor__'] === true && Array.isArray(value['shape'])) return integerOf(value['shape'][0]);
  if (value['__list__'] === true || value['__seq__'] === true) return integerOf(value['len']);
  return undefined;
}

/**
 * The j-th value of a batch column: the list entry, the entry of a summary's `head` (the first 16
 * values of a long tensor or list) when it has one, the value itself for a single-sample batch.
 */
export function columnAt(value: unknown, j: number, size: number): unknown {
  if (Array.isArray(value)) {
    if (value.length === size) return value[j];
    return size === 1 ? value : undefined;
  }
  if (isRecord(value) && (value['__tensor__'] === true || value['__list__'] === true)) {
    const shape = Array.isArray(value['shape']) ? value['shape'] : [value['len']];
    const head = value['head'];
    return shape.length === 1 && Array.isArray(head) && j < head.length ? head[j] : undefined;
  }
  return size === 1 ? value : undefined;
}

function roleAt(batch: Batch, j: number): string | undefined {
  const role = idOf(columnAt(batch.info['role'], j, batch.size));
  if (role !== undefined) return role;
  const id = integerOf(columnAt(batch.info['role_id'], j, batch.size));
  return id === undefined ? undefined : batch.topo[id];
}

function nodeAt(
  batch: Batch,
  j: number,
  raw: string,
  outputs: Record<string, string>,
  roster: readonly AgentDecl[],
): C3Node {
  const { info, size, value } = batch;
  const own: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(info)) {
    if (key === 'traj_role_outputs' || key === 'traj_role_prompts') continue;
    const entry = columnAt(column, j, size);
    if (entry !== undefined) own[key] = entry;
  }
  const role = c3RoleName(raw, roster);
  const k = integerOf(own['k_id']);
  const leafFlag = scoreOf(own['is_leaf']);
  const mask = rowAt(value['action_mask'], j, size);
  const parent = integerOf(own['c3_parent_id_true']) ?? integerOf(own['c3_parent_id']);
  return {
    info: own,
    role,
    ...optionalEntry('question', idOf(own['question_id'])),
    ...optionalEntry('k', k),
    ...optionalEntry('nodeId', integerOf(own['c3_node_id'])),
    ...optionalEntry('parentId', parent !== undefined && parent >= 0 ? parent : undefined),
    leaf: leafFlag === undefined ? k !== undefined && k >= 0 : leafFlag !== 0,
    ...optionalEntry('reward', sampleReward(batch, j, own)),
    ...optionalEntry('advantage', maskedMean(rowAt(value['advantages'], j, size), mask)),
    ...optionalEntry('ret', maskedMean(rowAt(value['returns'], j, size), mask)),
    ...optionalEntry('text', textOf(own['output_text']) ?? outputs[role]),
    outputs,
  };
}

function optionalEntry<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** `rewards[j]` (a [B] tensor), else `info.reward[j]`; a single-sample batch also reads `reward` and the mean of `rewards`. */
function sampleReward(batch: Batch, j: number, own: JsonRecord): number | undefined {
  const { value, size } = batch;
  if (size === 1) return scoreOf(value['reward']) ?? meanOf(value['rewards']) ?? scoreOf(own['reward']);
  return scoreOf(columnAt(value['rewards'], j, size)) ?? scoreOf(own['reward']);
}

/**
 * Row j of a [B, S] tensor as written by `_to_jsonable`: a flat list of B × S values (or nested
 * rows), or a summary whose `head` covers the row; undefined when the row was not kept.
 */
export function rowAt(value: unknown, j: number, size: number): unknown[] | undefined {
  if (typeof value === 'number') return size === 1 ? [value] : undefined;
  if (Array.isArray(value)) {
    const list = value as readonly unknown[];
    const nested = list[j];
    if (Array.isArray(nested) && list.length === size) return nested as unknown[];
    if (size === 1) return [...list];
    const width = list.length / size;
    return Number.isInteger(width) && width > 0 ? list.slice(j * width, (j + 1) * width) : undefined;
  }
  if (
    !isRecord(value) ||
    value['__tensor__'] !== true ||
    !Array.isArray(value['shape']) ||
    !Array.isArray(value['head'])
  )
    return undefined;
  const shape = value['shape'] as readonly unknown[];
  const head = value['head'] as readonly unknown[];
  const width = shape.slice(1).reduce((a: number, d) => a * (integerOf(d) ?? Number.NaN), 1);
  if (!Number.isInteger(width) || width <= 0 || (j + 1) * width > head.length) return undefined;
  return head.slice(j * width, (j + 1) * width);
}

/** The mean of `row` over the positions `mask` marks (all positions without a matching mask). */
function maskedMean(row: readonly unknown[] | undefined, mask: readonly unknown[] | undefined): number | undefined {
  if (!row) return undefined;
  const kept = mask && mask.length === row.length ? row.filter((_, i) => scoreOf(mask[i]) !== 0) : row;
  return meanOf(kept);
}

/**
 * `traj_role_outputs` per sample. `concat_experiences` merges the samples' dicts key by key, so a
 * role's list holds one text per sample that *has* the role: a node at depth d carries the roles
 * `roles_topo[0..d]`. A list of length B is read entry by entry; a shorter one is given to the
 * samples at or below its role's depth, in order, when their number matches; otherwise it is
 * not read (a node's own `output_text` still is).
 */
function outputColumns(batch: Batch, roles: readonly string[], roster: readonly AgentDecl[]): Record<string, string>[] {
  const out: Record<string, string>[] = roles.map(() => ({}));
  const outputs = objectAt(batch.info, 'traj_role_outputs');
  if (!outputs) return out;
  const depth = (j: number): number =>
    integerOf(columnAt(batch.info['c3_depth'], j, batch.size)) ?? batch.topo.indexOf(roles[j] ?? '');
  for (const [raw, column] of Object.entries(outputs)) {
    const agent = c3RoleName(raw, roster);
    if (batch.size === 1 && !Array.isArray(column)) {
      const text = textOf(column);
      if (text !== undefined && out[0]) out[0][agent] = text;
      continue;
    }
    if (!Array.isArray(column)) continue;
    const level = batch.topo.indexOf(raw);
    const holders =
      column.length === batch.size
        ? roles.map((_, j) => j)
        : roles.map((_, j) => j).filter((j) => level >= 0 && depth(j) >= level);
    if (holders.length !== column.length) continue;
    holders.forEach((j, t) => {
      const text = textOf(column[t]);
      const target = out[j];
      if (text !== undefined && target) target[agent] = text;
    });
  }
  return out;
}
