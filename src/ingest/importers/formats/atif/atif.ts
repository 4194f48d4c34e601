import type { AgentDecl, AgentKind, Episode, Message } from '../../../../core/episode';
import { err, ok, type Result } from '../../../../core/result';
import type { DetectionSample, FormatMapper, LinkedFile, RecordContext } from '../../types';
import { resolveLink } from '../../linkedFiles';
import { trainedLlm } from '../common/rlAgents';
import {
  arrayField,
  definedOnly,
  fileStem,
  idText,
  isRecord,
  numberOf,
  recordField,
  stringOf,
  type JsonRecord,
} from '../common/json';
import { TraceRoster } from '../common/traceRoster';
import { atifSystem, atifTools, atifUser, stepMessages, subagentRefs } from './atifSteps';

// Harbor ATIF `trajectory.json` (README.md beside this file). A run is one episode: the root file,
// its `continued_trajectory_ref` chain, and every sub-agent trajectory referenced from an
// observation, whose agents join the episode's roster. Referenced files are read by the indexer
// (FormatMapper.linkedFiles) and arrive in context.linked.

const maxDepth = 5;
const rootName = 'trajectory.json';

/** What the whole chain and its sub-agents add up to. */
interface Build {
  readonly messages: Message[];
  readonly agents: Map<string, AgentKind>;
  readonly files: string[];
  readonly unresolved: string[];
  cost: number;
}

/** The references of one trajectory document: its continuation and its sub-agents' files. */
function references(doc: unknown): string[] {
  if (!isRecord(doc)) return [];
  const refs = (arrayField(doc, 'steps') ?? []).flatMap((s) =>
    isRecord(s) ? subagentRefs(s).flatMap((r) => (r.path ? [r.path] : [])) : [],
  );
  const next = stringOf(doc['continued_trajectory_ref']);
  return next ? [next, ...refs] : refs;
}

/** The files a trajectory links to; a file other than `trajectory.json` also links its folder's `trajectory.json` (its possible parent). */
function linkedFiles(record: unknown, context: RecordContext): string[] {
  const refs = references(record);
  return context.fileName === rootName ? refs : [...refs, rootName];
}

function linkedDoc(context: RecordContext, fromUri: string, ref: string): LinkedFile | undefined {
  const uri = resolveLink(fromUri, ref);
  return context.linked?.[uri ?? ref];
}

/** True when the folder's `trajectory.json` reaches this file through its references: it is part of that episode. */
function partOfParent(context: RecordContext): boolean {
  if (context.fileName === rootName) return false;
  const parentUri = resolveLink(context.uri, rootName);
  if (parentUri === undefined) return false;
  const seen = new Set([parentUri]);
  const queue = [parentUri];
  while (queue.length > 0) {
    const uri = queue.shift() ?? '';
    const doc = context.linked?.[uri];
    if (!doc?.ok) continue;
    for (const ref of references(doc.value)) {
      const next = resolveLink(uri, ref);
      if (next === context.uri) return true;
      if (next !== undefined && !seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return false;
}

/** The agent's name: `agent.name`, else `agent`; a sub-agent named like its parent is told apart by its session. */
function agentName(doc: JsonRecord, fallback: string): string {
  const agent = recordField(doc, 'agent');
  return (agent ? idText(agent['name']) : undefined) ?? fallback;
}

/** Adds one trajectory document (and, recursively, its sub-agents, then its continuation) to `build`. */
function addTrajectory(
  doc: JsonRecord,
  uri: string,
  agent: string,
  depth: number,
  context: RecordContext,
  build: Build,
): void {
  build.files.push(uri);
  build.agents.set(agent, 'llm');
  for (const step of arrayField(doc, 'steps') ?? []) {
    const messages = stepMessages(step, agent);
    for (const m of messages) if (!build.agents.has(m.agent)) build.agents.set(m.agent, kindOf(m.agent));
    build.messages.push(...messages);
    if (!isRecord(step)) continue;
    const metrics = recordField(step, 'metrics');
    build.cost += (metrics ? numberOf(metrics['cost_usd']) : undefined) ?? 0;
    for (const ref of subagentRefs(step)) addSubagent(ref.path, ref.sessionId, uri, agent, depth, context, build);
  }
  const next = stringOf(doc['continued_trajectory_ref']);
  if (next) addLinked(next, uri, agent, depth, context, build);
}

function addSubagent(
  path: string | undefined,
  sessionId: string | undefined,
  uri: string,
  parent: string,
  depth: number,
  context: RecordContext,
  build: Build,
): void {
  if (path === undefined) {
    build.unresolved.push(`sub-agent ${sessionId ?? '?'}: embedded (no trajectory_path)`);
    return;
  }
  const file = linkedDoc(context, uri, path);
  const doc = file?.ok && isRecord(file.value) ? file.value : undefined;
  const name = doc ? agentName(doc, sessionId ?? path) : (sessionId ?? path);
  addLinked(path, uri, name === parent ? (sessionId ?? `${parent}/${path}`) : name, depth + 1, context, build);
}

/** Adds a referenced file (a continuation of `agent`, or a sub-agent) when it was read, else notes why not. */
function addLinked(
  ref: string,
  fromUri: string,
  agent: string,
  depth: number,
  context: RecordContext,
  build: Build,
): void {
  const uri = resolveLink(fromUri, ref) ?? ref;
  const file = linkedDoc(context, fromUri, ref);
  if (build.files.includes(uri)) return;
  if (depth > maxDepth) build.unresolved.push(`${ref}: nested deeper than ${maxDepth}`);
  else if (!file) build.unresolved.push(`${ref}: not read`);
  else if (!file.ok) build.unresolved.push(`${ref}: ${file.error}`);
  else if (!isRecord(file.value) || !Array.isArray(file.value['steps']))
    build.unresolved.push(`${ref}: not an ATIF trajectory`);
  else addTrajectory(file.value, uri, agent, depth, context, build);
}

function kindOf(name: string): AgentKind {
  if (name === atifSystem) return 'system';
  if (name === atifUser) return 'human';
  if (name === atifTools) return 'tool';
  return 'llm';
}

function roster(context: RecordContext, build: Build): AgentDecl[] {
  const team = new TraceRoster(context.roster);
  for (const [name, kind] of build.agents) team.add(kind === 'llm' ? { name, ...trainedLlm } : { name, kind });
  return team.list();
}

/**
 * One ATIF run → one episode, id the root file's path without `.json`. A file that the folder's
 * `trajectory.json` reaches (a continuation or sub-agent file) is part of that episode: zero
 * episodes of its own. A reference that cannot be followed is noted in `metadata.unresolved`.
 */
function toEpisodes(record: unknown, context: RecordContext): Result<Episode[]> {
  if (!isRecord(record)) return err('expected an ATIF trajectory object');
  if (!Array.isArray(record['steps'])) return err('missing "steps"');
  if (partOfParent(context)) return ok([]);
  const build: Build = { messages: [], agents: new Map(), files: [], unresolved: [], cost: 0 };
  addTrajectory(record, context.uri, agentName(record, 'agent'), 0, context, build);
  const agent = recordField(record, 'agent');
  const episode: Episode = definedOnly({
    id: fileStem(context.uri),
    agents: roster(context, build),
    messages: build.messages,
    metadata: definedOnly({
      schemaVersion: stringOf(record['schema_version']),
      sessionId: idText(record['session_id']),
      agentVersion: agent ? idText(agent['version']) : undefined,
      model: agent ? stringOf(agent['model_name']) : undefined,
      costUsd: build.cost > 0 ? build.cost : undefined,
      finalMetrics: recordField(record, 'final_metrics'),
      files: build.files,
      unresolved: build.unresolved.length > 0 ? build.unresolved : undefined,
    }),
  });
  return ok([episode]);
}

/** `schema_version` "ATIF-v…" with a `steps` list; else steps with `step_id` and `source`. */
function detect(sample: DetectionSample): number {
  const root = sample.records[0] ?? sample.root;
  if (!isRecord(root) || !Array.isArray(root['steps'])) return 0;
  if (stringOf(root['schema_version'])?.startsWith('ATIF')) return 0.95;
  const first: unknown = root['steps'][0];
  return isRecord(first) && 'step_id' in first && 'source' in first ? 0.7 : 0;
}

/** Harbor Agent Trajectory Interchange Format (`trajectory.json`, its continuations and sub-agent files). */
export const atifMapper: FormatMapper = {
  format: 'atif',
  label: 'Harbor ATIF trajectory',
  containers: ['json'],
  jsonRecords: 'root',
  linkedFiles,
  detect,
  toEpisodes,
};
