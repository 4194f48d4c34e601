import type { AgentDecl, AgentKind, Episode, Message } from '../../../../core/episode';
import { err, ok, type Result } from '../../../../core/result';
import type { DetectionSample, FormatMapper, RecordContext } from '../../types';
import {
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
import { contentText } from '../common/traceText';
import { whoAndWhenLabels, whoAndWhenSpeaker } from './traceWhoAndWhen';

// Who&When (trace-formats.md §3.1, §6, §7): one failed episode per JSON file, in two sub-schemas:
// Algorithm-Generated (speaker in `name`, team in `system_prompt`) and Hand-Crafted (speaker in
// `role`, with `(thought)` / `(-> X)` suffixes). Blame is `mistake_agent` at `mistake_step`.

/** Agent kinds of §6: `human` → human, `Computer_terminal` / `ComputerTerminal` → tool, the Magentic-One Orchestrator → orchestrator. */
function agentKind(name: string): AgentKind {
  if (/^human$/i.test(name)) return 'human';
  if (/^computer_?terminal$/i.test(name)) return 'tool';
  if (/^orchestrator$/i.test(name)) return 'orchestrator';
  return 'llm';
}

/** The declared team: `system_prompt {agent_name: prompt}` (Algorithm-Generated only). */
function declareTeam(record: JsonRecord, roster: TraceRoster): void {
  const team = recordField(record, 'system_prompt');
  if (!team) return;
  for (const [name, prompt] of Object.entries(team)) {
    const base = idText(name);
    if (base === undefined) continue;
    roster.add(
      definedOnly({ name: whoAndWhenSpeaker(base).agent, kind: agentKind(base), description: stringOf(prompt) }),
    );
  }
}

/** `history[i]` → a message; the speaker is `name` (Algorithm-Generated) or `role` (Hand-Crafted). */
function historyMessage(entry: unknown, i: number, roster: TraceRoster): Result<Message> {
  if (!isRecord(entry)) return err(`history[${i}]: expected an object`);
  const raw = idText(entry['name']) ?? idText(entry['role']);
  if (raw === undefined) return err(`history[${i}]: missing "name" and "role" (the speaker)`);
  const speaker = whoAndWhenSpeaker(raw);
  const kind = agentKind(speaker.agent);
  const agent = roster.add({ name: speaker.agent, kind });
  const channel = speaker.channel ?? (kind === 'tool' ? 'tool_result' : undefined);
  return ok(definedOnly({ agent, role: stringOf(entry['role']), channel, content: contentText(entry['content']) }));
}

/** `is_correct` (Algorithm-Generated) or `is_corrected` (Hand-Crafted): true → 1, false → 0 (§7 type drift). */
function outcome(record: JsonRecord): number | undefined {
  const value = record['is_correct'] ?? record['is_corrected'];
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value === 'true' ? 1 : value === 'false' ? 0 : undefined;
}

function metadata(record: JsonRecord, history: readonly unknown[]): Record<string, unknown> {
  const algorithmGenerated = history.some((h) => isRecord(h) && h['name'] !== undefined);
  return definedOnly({
    subset: algorithmGenerated ? 'Algorithm-Generated' : 'Hand-Crafted',
    questionId: idText(record['question_ID']),
    level: integerOf(record['level']) ?? idText(record['level']),
  });
}

/**
 * One Who&When file → one episode (trace-formats.md §3.1, §6). Messages are the `history` entries
 * in order, so message i is history[i] and the `mistake_step` blame label sits on it. The roster is
 * the run manifest's, then the `system_prompt` team (declared even when silent), then speakers.
 */
function toEpisodes(record: unknown, context: RecordContext): Result<Episode[]> {
  if (!isRecord(record)) return err('expected a Who&When episode object');
  const history = record['history'];
  if (!Array.isArray(history)) return err('missing "history"');
  const roster = new TraceRoster(context.roster, true);
  declareTeam(record, roster);
  const messages: Message[] = [];
  for (let i = 0; i < history.length; i++) {
    const message = historyMessage(history[i], i, roster);
    if (!message.ok) return message;
    messages.push(message.value);
  }
  const labels = whoAndWhenLabels(record, messages, roster);
  const agents: AgentDecl[] = roster.list();
  const episode: Episode = definedOnly({
    id: fileStem(context.uri),
    task: idText(record['question_ID']),
    prompt: stringOf(record['question']),
    agents,
    messages,
    reward: outcome(record),
    groundTruth: jsonText(record['ground_truth']),
    labels: labels.length > 0 ? labels : undefined,
    metadata: metadata(record, history),
  });
  return ok([episode]);
}

/** A Who&When record has a `history` list and the blame keys `mistake_agent` / `mistake_step`. */
function detect(sample: DetectionSample): number {
  const first = sample.records[0] ?? sample.root;
  if (!isRecord(first) || !Array.isArray(first['history'])) return 0;
  if ('mistake_agent' in first || 'mistake_step' in first) return 0.95;
  if (('is_correct' in first || 'is_corrected' in first) && 'question' in first) return 0.8;
  return 0.2;
}

/** Who&When failure-attribution episodes (trace-formats.md §3.1): one JSON file per episode. */
export const whoAndWhenMapper: FormatMapper = {
  format: 'who-and-when',
  label: 'Who&When failure-attribution episode',
  containers: ['json', 'jsonl'],
  jsonRecords: 'root',
  detect,
  toEpisodes,
};
