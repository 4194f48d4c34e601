import type {
  AgentDecl,
  AgentKind,
  CoalitionValue,
  Counterfactual,
  Episode,
  FinalAnswer,
  Intervention,
  Label,
  Message,
  RoutingDecision,
} from '../../core/episode';
import { checkFormatVersion } from '../../core/formatVersion';
import { err, ok, type Result } from '../../core/result';
import { sumsToOne } from '../../core/routingTolerance';
import {
  DecodeError,
  fieldPath,
  oneOf,
  optionalArray,
  optionalBoolean,
  optionalId,
  optionalIdArray,
  optionalInteger,
  optionalNumber,
  optionalNumberArray,
  optionalNumberRecord,
  optionalObject,
  optionalString,
  optionalStringArray,
  requireArray,
  requireId,
  requireNumber,
  requireObject,
  requireString,
  type JsonObject,
} from './fields';

const agentKinds: readonly AgentKind[] = ['llm', 'tool', 'env', 'human', 'user_sim', 'orchestrator', 'system', 'judge'];
const interventions: readonly Intervention[] = [
  'remove',
  'empty',
  'placeholder',
  'resample_self',
  'resample_ref',
  'replace_text',
];

/**
 * Decodes one parsed JSONL value into a canonical {@link Episode} (format v1).
 * `defaultRoster` (from run.json) is used when the line declares no `agents`. The roster is kept as
 * declared: speakers missing from it (roster ordinals after the declared ones) are recorded as
 * undeclared. Decoding normalises `value` IN PLACE and returns it (no copy; unknown fields are left
 * on the object), so pass a freshly parsed value you own.
 * Returns a readable error naming the JSON path on any schema violation; never throws.
 */
export function decodeEpisode(value: unknown, defaultRoster: readonly AgentDecl[] = []): Result<Episode> {
  try {
    return ok(decodeEpisodeObject(requireObject(value, ''), defaultRoster));
  } catch (error) {
    if (error instanceof DecodeError) return err(error.message);
    throw error;
  }
}

// Decoding validates the freshly parsed object and normalises it in place (ids to strings, nulls
// removed) instead of copying it: the indexer decodes millions of lines, and copies cost more than
// the parse. The caller owns the parsed value, so mutating it is safe.
function decodeEpisodeObject(obj: JsonObject, defaultRoster: readonly AgentDecl[]): Episode {
  if (obj['version'] !== undefined) {
    const version = checkFormatVersion(obj['version']);
    if (!version.ok) throw new DecodeError('version', version.error);
  }
  const messages = requireArray(obj, 'messages', '');
  for (let i = 0; i < messages.length; i++) decodeMessage(messages[i], `messages[${i}]`, i);
  const declared = optionalArray(obj, 'agents', '')?.map((a, i) => decodeAgent(a, `agents[${i}]`));
  keep(obj, 'id', requireId(obj, 'id', ''));
  keep(obj, 'step', optionalInteger(obj, 'step', ''));
  keep(obj, 'group', optionalId(obj, 'group', ''));
  keep(obj, 'sample', optionalInteger(obj, 'sample', ''));
  keep(obj, 'task', optionalId(obj, 'task', ''));
  keep(obj, 'split', optionalString(obj, 'split', ''));
  keep(obj, 'prompt', optionalString(obj, 'prompt', ''));
  obj['agents'] = declared ?? defaultRoster;
  keep(obj, 'final', decodeFinal(obj));
  keep(obj, 'reward', optionalNumber(obj, 'reward', ''));
  keep(obj, 'agentRewards', optionalNumberRecord(obj, 'agentRewards', ''));
  keep(obj, 'advantages', optionalNumberRecord(obj, 'advantages', ''));
  keep(obj, 'routing', decodeRouting(obj));
  keep(
    obj,
    'counterfactuals',
    optionalArray(obj, 'counterfactuals', '')?.map((c, i) => decodeCounterfactual(c, `counterfactuals[${i}]`)),
  );
  keep(
    obj,
    'coalitions',
    optionalArray(obj, 'coalitions', '')?.map((c, i) => decodeCoalition(c, `coalitions[${i}]`)),
  );
  keep(obj, 'groundTruth', groundTruthText(obj['groundTruth']));
  keep(
    obj,
    'labels',
    optionalArray(obj, 'labels', '')?.map((l, i) => decodeLabel(l, `labels[${i}]`, messages.length)),
  );
  keep(obj, 'metadata', optionalObject(obj, 'metadata', ''));
  return obj as unknown as Episode;
}

/** Stores the decoded value of a field; removes the field when it decoded to nothing (null). */
function keep(obj: JsonObject, key: string, value: unknown): void {
  if (value === undefined) {
    if (key in obj) delete obj[key];
  } else if (obj[key] !== value) {
    obj[key] = value;
  }
}

/** An agent is declared either as a bare name or as an object. */
export function decodeAgent(value: unknown, path: string): AgentDecl {
  if (typeof value === 'string' && value.length > 0) return { name: value, kind: 'llm' };
  const obj = requireObject(value, path);
  const kind = optionalString(obj, 'kind', path);
  keep(obj, 'name', requireId(obj, 'name', path));
  obj['kind'] = kind === undefined ? 'llm' : oneOf(kind, agentKinds, `${path}.kind`);
  keep(obj, 'policy', optionalString(obj, 'policy', path));
  keep(obj, 'trainable', optionalBoolean(obj, 'trainable', path));
  keep(obj, 'description', optionalString(obj, 'description', path));
  keep(obj, 'systemPrompt', optionalString(obj, 'systemPrompt', path));
  keep(obj, 'defaultAction', optionalString(obj, 'defaultAction', path));
  return obj as unknown as AgentDecl;
}

function decodeMessage(value: unknown, path: string, index: number): void {
  const obj = requireObject(value, path);
  keep(obj, 'agent', requireId(obj, 'agent', path));
  keep(obj, 'turn', optionalInteger(obj, 'turn', path));
  keep(obj, 'role', optionalString(obj, 'role', path));
  keep(obj, 'channel', optionalString(obj, 'channel', path));
  requireString(obj, 'content', path);
  keep(obj, 'tokenCount', optionalInteger(obj, 'tokenCount', path));
  keep(obj, 'tokens', optionalStringArray(obj, 'tokens', path));
  keep(obj, 'logprobs', optionalNumberArray(obj, 'logprobs', path));
  keep(obj, 'attribution', optionalNumberArray(obj, 'attribution', path));
  checkTokenAlignment(obj as unknown as Message, path);
  decodeConnections(obj, path, index);
}

/** `connections` name earlier messages (influence flows forward in time) and come with one weight each. */
function decodeConnections(obj: JsonObject, path: string, index: number): void {
  const connections = optionalNumberArray(obj, 'connections', path);
  const weights = optionalNumberArray(obj, 'weights', path);
  keep(obj, 'connections', connections);
  keep(obj, 'weights', weights);
  if (connections === undefined && weights === undefined) return;
  if (connections?.length !== weights?.length)
    throw new DecodeError(
      path,
      `connections and weights must have the same length, got ${String(connections?.length ?? 0)} / ${String(weights?.length ?? 0)}`,
    );
  connections?.forEach((upstream, k) => {
    if (!Number.isInteger(upstream) || upstream < 0 || upstream >= index)
      throw new DecodeError(
        `${path}.connections[${String(k)}]`,
        `must be the index of an earlier message (0..${String(index - 1)}), got ${String(upstream)}`,
      );
  });
}

function checkTokenAlignment(message: Message, path: string): void {
  const lengths = [message.tokens, message.logprobs, message.attribution]
    .filter((a) => a !== undefined)
    .map((a) => a.length);
  if (lengths.some((n) => n !== lengths[0])) {
    throw new DecodeError(
      path,
      `tokens, logprobs and attribution must have the same length, got ${lengths.join(' / ')}`,
    );
  }
}

function decodeFinal(obj: JsonObject): FinalAnswer | undefined {
  const final = optionalObject(obj, 'final', '');
  if (final === undefined) return undefined;
  requireString(final, 'answer', 'final');
  keep(final, 'agent', optionalId(final, 'agent', 'final'));
  return final as unknown as FinalAnswer;
}

function decodeRouting(obj: JsonObject): RoutingDecision | undefined {
  const routing = optionalObject(obj, 'routing', '');
  if (routing === undefined) return undefined;
  const probs = optionalNumberRecord(routing, 'probs', 'routing');
  if (probs === undefined) throw new DecodeError('routing.probs', 'is required (probabilities of all experts)');
  const selected = requireId(routing, 'selected', 'routing');
  if (!Object.hasOwn(probs, selected))
    throw new DecodeError('routing.selected', `"${selected}" has no probability in routing.probs`);
  checkProbabilities(probs, 'routing.probs');
  const behaviourProbs = optionalNumberRecord(routing, 'behaviourProbs', 'routing');
  if (behaviourProbs !== undefined) checkProbabilities(behaviourProbs, 'routing.behaviourProbs');
  keep(routing, 'selected', selected);
  keep(routing, 'behaviourProbs', behaviourProbs);
  return routing as unknown as RoutingDecision;
}

function checkProbabilities(probs: Record<string, number>, path: string): void {
  let total = 0;
  for (const [name, p] of Object.entries(probs)) {
    if (p < 0 || p > 1) throw new DecodeError(fieldPath(path, name), `probability ${p} is outside [0, 1]`);
    total += p;
  }
  if (!sumsToOne(total)) throw new DecodeError(path, `probabilities sum to ${total}, expected 1`);
}

function decodeCounterfactual(value: unknown, path: string): Counterfactual {
  const obj = requireObject(value, path);
  const agents = optionalIdArray(obj, 'agents', path);
  if (agents === undefined || agents.length === 0)
    throw new DecodeError(`${path}.agents`, 'must name at least one agent');
  oneOf(requireString(obj, 'intervention', path), interventions, `${path}.intervention`);
  obj['agents'] = agents;
  keep(obj, 'replacement', optionalString(obj, 'replacement', path));
  requireNumber(obj, 'reward', path);
  keep(obj, 'rewards', optionalNumberArray(obj, 'rewards', path));
  keep(obj, 'replayed', optionalBoolean(obj, 'replayed', path));
  keep(obj, 'evaluator', optionalString(obj, 'evaluator', path));
  return obj as unknown as Counterfactual;
}

function decodeCoalition(value: unknown, path: string): CoalitionValue {
  const obj = requireObject(value, path);
  const agents = optionalIdArray(obj, 'agents', path);
  if (agents === undefined) throw new DecodeError(`${path}.agents`, 'is required ([] is the empty coalition)');
  obj['agents'] = agents;
  requireNumber(obj, 'value', path);
  keep(obj, 'n', optionalInteger(obj, 'n', path));
  return obj as unknown as CoalitionValue;
}

function decodeLabel(value: unknown, path: string, messageCount: number): Label {
  const obj = requireObject(value, path);
  const message = optionalInteger(obj, 'message', path);
  if (message !== undefined && (message < 0 || message >= messageCount)) {
    const range = messageCount === 0 ? 'the episode has no messages' : `outside messages[0..${messageCount - 1}]`;
    throw new DecodeError(`${path}.message`, `index ${message} is ${range}`);
  }
  requireString(obj, 'kind', path);
  keep(obj, 'agent', optionalId(obj, 'agent', path));
  keep(obj, 'message', message);
  keep(obj, 'value', optionalString(obj, 'value', path));
  keep(obj, 'reason', optionalString(obj, 'reason', path));
  keep(obj, 'annotator', optionalString(obj, 'annotator', path));
  return obj as unknown as Label;
}

function groundTruthText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
