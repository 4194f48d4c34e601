import type { AgentDecl } from '../../../../core/episode';
import { agentDecl, rosterName, trainedLlm } from '../common/rlAgents';
import { idOf, isRecord, jsonSafe, type JsonRecord } from '../common/rlFields';

// Shared by the C3 eval, rollout and bucket mappers (trace-formats.md §2.5).

/** The run context every C3 JSONL line carries; kept as `metadata.run`. */
const runContextKeys = [
  'run_id',
  'run_dir',
  'wandb_run_name',
  'wandb_project',
  'c3_task',
  'eval_only',
  'eval_global_step',
  'marl_algorithm',
  'c3_credit_variant',
  'c3_va_alpha',
  'c3_fanout',
  'c3_k_from_fanout',
  'c3_roles_topo',
  'n_samples_per_prompt',
  'policy_sharing_mode',
] as const;

/** The run-context fields present on a C3 line, or undefined when there are none. */
export function c3RunContext(line: JsonRecord): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const key of runContextKeys) {
    const value = jsonSafe(line[key]);
    if (value !== undefined && value !== null) out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The agent name of a C3 role. C3 writes `reasoner` in eval lines and `Reasoner` in buckets (§7
 * "label/speaker mismatches"), so a role is the run roster's agent of the same name ignoring case,
 * else its lower-case name: both files then name the same agent.
 */
export function c3RoleName(raw: string, roster: readonly AgentDecl[]): string {
  return rosterName(raw, roster) ?? raw.toLowerCase();
}

/**
 * A list of role names, read as C3 reads `roles_topo` (`experience_maker._parse_roles_topo`): a
 * JSON array, a JSON array in a string (`"[\"reasoner\", \"actor\"]"`), a chain joined with `->`
 * (`"reasoner->actor"`, how C3's rollout generator writes it) or comma-separated text. A list of
 * strings is the roles themselves when they are plain names, else its first entry parsed (a
 * micro-batch repeats `["reasoner->actor", …]` once per sample). Non-name entries are dropped.
 */
export function c3RoleList(value: unknown): string[] {
  if (typeof value === 'string') return roleText(value);
  if (!Array.isArray(value)) return [];
  const names = value
    .map(idOf)
    .filter((s): s is string => s !== undefined && s.trim() !== '')
    .map((s) => s.trim());
  if (names.length === 0) return [];
  const plain = names.every((s) => !s.includes('->') && !s.includes(',') && !s.startsWith('['));
  if (names.length > 1 && plain) return names;
  return roleText(names[0] ?? '');
}

function roleText(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    const parsed = parseJson(trimmed);
    return Array.isArray(parsed) ? parsed.map(idOf).filter((s): s is string => s !== undefined && s !== '') : [];
  }
  const separator = trimmed.includes('->') ? '->' : ',';
  return trimmed
    .split(separator)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The roles in topological order, then any other role that spoke, as agent names without repeats. */
export function c3Roles(topo: readonly string[], speakers: readonly string[], roster: readonly AgentDecl[]): string[] {
  return [...new Set([...topo, ...speakers].map((r) => c3RoleName(r, roster)))];
}

/** Trained LLM declarations of the roles (the roster's declaration when it has one). */
export function c3Agents(roles: readonly string[], roster: readonly AgentDecl[]): AgentDecl[] {
  return roles.map((role) => agentDecl(role, roster, trainedLlm));
}

/** A `*_json` field parsed (C3 logs `reward_info_json`, `dataset_meta_json` as strings); the text when it is not JSON. */
export function c3JsonField(value: unknown): unknown {
  if (typeof value !== 'string') return jsonSafe(value);
  const parsed = parseJson(value);
  return parsed === undefined ? value : jsonSafe(parsed);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The order of `role` in `topo` (by agent name), unknown roles last. */
export function topoIndex(topo: readonly string[], roster: readonly AgentDecl[]): (role: string) => number {
  const order = new Map(topo.map((r, i) => [c3RoleName(r, roster), i]));
  return (role) => order.get(role) ?? topo.length;
}

/** The object at `key`, or undefined. */
export function objectAt(record: JsonRecord, key: string): JsonRecord | undefined {
  const value = record[key];
  return isRecord(value) ? value : undefined;
}
