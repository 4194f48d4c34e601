import type { AgentDecl, Episode, FinalAnswer, Message } from '../../../../core/episode';
import { err, ok, type Result } from '../../../../core/result';
import type { DetectionSample, FormatMapper, RecordContext } from '../../types';
import { inspectAgentNames, inspectEventTranscript, type InspectTranscript } from './traceInspectEvents';
import { attachmentResolver, inspectChatMessage, inspectRoles } from './traceInspectMessages';
import { inspectScores } from './traceInspectScores';
import {
  arrayField,
  definedOnly,
  fileStem,
  idText,
  integerOf,
  isRecord,
  jsonText,
  recordField,
  stringOf,
  type JsonRecord,
} from '../common/json';
import { TraceRoster } from '../common/traceRoster';
import { contentText, type TextResolver } from '../common/traceText';

// Inspect AI logs (trace-formats.md §3.7, §6): one episode per sample × epoch. A `.eval` file is a
// zip whose `samples/{id}_epoch_{n}.json` entries are the records (header.json arrives as the
// context header); a `.json` log holds the same samples in its `samples` array.

/** The agent of single-agent logs (§6 "else the single assistant"). */
const defaultAgent = 'assistant';

/** The sample's leading system / user messages (the task as given), up to the first model turn. */
function preamble(messages: readonly unknown[]): unknown[] {
  const end = messages.findIndex((m) => !isRecord(m) || (m['role'] !== 'system' && m['role'] !== 'user'));
  return end < 0 ? [...messages] : messages.slice(0, end);
}

/** Single-agent samples: `messages[]` as logged, assistant turns by the one assistant. */
function messageTranscript(messages: readonly unknown[], resolve: TextResolver): InspectTranscript {
  const models = new Map<string, string>();
  const out: Message[] = [];
  for (const value of messages) {
    const message = inspectChatMessage(value, defaultAgent, resolve);
    if (!message) continue;
    out.push(message);
    const model = isRecord(value) ? stringOf(value['model']) : undefined;
    if (model !== undefined && !models.has(defaultAgent)) models.set(defaultAgent, model);
  }
  return { messages: out, models };
}

/** Agent spans present → messages from events; else `messages[]`. */
function transcript(sample: JsonRecord, resolve: TextResolver): Result<InspectTranscript> {
  const messages = arrayField(sample, 'messages');
  const events = arrayField(sample, 'events');
  if (!messages && !events) return err('missing "messages" (and "events")');
  if (events && inspectAgentNames(events).length > 0) {
    return ok(
      inspectEventTranscript({ events, preamble: preamble(messages ?? []), fallbackAgent: defaultAgent, resolve }),
    );
  }
  return ok(messageTranscript(messages ?? [], resolve));
}

/** Manifest roster, agent spans (declared: they ran), then system / user / tools when they speak. */
function roster(
  context: RecordContext,
  sample: JsonRecord,
  result: InspectTranscript,
  header: JsonRecord | undefined,
): AgentDecl[] {
  const team = new TraceRoster(context.roster);
  const evalModel = header ? stringOf(recordField(header, 'eval')?.['model']) : undefined;
  const names = inspectAgentNames(arrayField(sample, 'events') ?? []);
  const speakers = result.messages.map((m) => m.agent);
  for (const name of [...names, ...speakers]) {
    if (name === inspectRoles.system) team.add({ name, kind: 'system' });
    else if (name === inspectRoles.user) team.add({ name, kind: 'env' });
    else if (name === inspectRoles.tools) team.add({ name, kind: 'tool' });
    else team.add(definedOnly({ name, kind: 'llm', policy: result.models.get(name) ?? evalModel }));
  }
  return team.list();
}

/** `input` as text: a string, or the text of its user messages. */
function promptText(input: unknown, resolve: TextResolver): string | undefined {
  if (typeof input === 'string') return resolve(input);
  if (!Array.isArray(input)) return undefined;
  const users = input
    .filter((m) => isRecord(m) && m['role'] === 'user')
    .map((m) => contentText(isRecord(m) ? m['content'] : '', resolve));
  return users.length > 0 ? users.join('\n\n') : undefined;
}

/** `target`: a string, a one-element list as its element, other lists as JSON. */
function targetText(target: unknown): string | undefined {
  if (Array.isArray(target) && target.length === 1) return jsonText(target[0]);
  return jsonText(target);
}

/** `output.completion`, answered by the last assistant turn's agent. */
function finalAnswer(sample: JsonRecord, messages: readonly Message[], resolve: TextResolver): FinalAnswer | undefined {
  const output = recordField(sample, 'output');
  const completion = output ? stringOf(output['completion']) : undefined;
  if (completion === undefined || completion === '') return undefined;
  const agent = [...messages].reverse().find((m) => m.role === 'assistant')?.agent;
  return definedOnly({ answer: resolve(completion), agent });
}

function toEpisodes(record: unknown, context: RecordContext): Result<Episode[]> {
  if (!isRecord(record)) return err('expected an Inspect sample object');
  const id = idText(record['id']);
  if (id === undefined) return err('missing "id"');
  const resolve = attachmentResolver(record);
  const result = transcript(record, resolve);
  if (!result.ok) return result;
  const epoch = integerOf(record['epoch']);
  const header = context.header && isRecord(context.header) ? context.header : undefined;
  const scores = inspectScores(record);
  const stem = fileStem(context.uri);
  const episode: Episode = definedOnly({
    id: `${stem}:${id}:${epoch ?? 1}`,
    group: `${stem}:${id}`,
    sample: epoch,
    task: id,
    prompt: promptText(record['input'], resolve),
    agents: roster(context, record, result.value, header),
    messages: result.value.messages,
    final: finalAnswer(record, result.value.messages, resolve),
    reward: scores.reward,
    groundTruth: targetText(record['target']),
    metadata: metadata(record, scores.raw, header),
  });
  return ok([episode]);
}

function metadata(
  sample: JsonRecord,
  scores: Readonly<Record<string, unknown>>,
  header: JsonRecord | undefined,
): Record<string, unknown> {
  const evalInfo = header ? recordField(header, 'eval') : undefined;
  return definedOnly({
    scores: Object.keys(scores).length > 0 ? scores : undefined,
    task: evalInfo ? stringOf(evalInfo['task']) : undefined,
    runId: evalInfo ? stringOf(evalInfo['run_id']) : undefined,
    sampleMetadata: recordField(sample, 'metadata'),
    error: recordField(sample, 'error') ?? stringOf(sample['error']),
  });
}

/** An Inspect sample: `id`, `epoch` and `messages` / `events`; a log root or header has `eval` with a `task`. */
function detect(sample: DetectionSample): number {
  const root = isRecord(sample.root) ? sample.root : undefined;
  const evalInfo = root ? recordField(root, 'eval') : undefined;
  if (evalInfo && ('task' in evalInfo || 'run_id' in evalInfo)) return 0.95;
  const first = sample.records[0];
  if (!isRecord(first) || !('epoch' in first) || !('id' in first)) return 0;
  return 'messages' in first || 'events' in first ? 0.85 : 0.3;
}

/** Inspect AI eval logs (trace-formats.md §3.7): `.eval` zips and `.json` logs. */
export const inspectMapper: FormatMapper = {
  format: 'inspect',
  label: 'Inspect AI eval log',
  containers: ['zip', 'json'],
  jsonRecords: { property: 'samples' },
  zipRecords: /^samples\/[^/]+\.json$/,
  detect,
  toEpisodes,
};
