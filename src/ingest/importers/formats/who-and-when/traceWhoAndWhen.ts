import type { Label, Message } from '../../../../core/episode';
import { definedOnly, idText, integerOf, stringOf, type JsonRecord } from '../common/json';
import type { TraceRoster } from '../common/traceRoster';

/** A Who&When speaker label split into the agent and the channel its suffix names (trace-formats.md §3.1, §6). */
export interface WhoAndWhenSpeaker {
  readonly agent: string;
  readonly channel?: string;
}

const suffix = /^(.*?)\s*\((.*)\)\s*$/;

/**
 * Splits a raw speaker label (trace-formats.md §3.1 "Label pitfalls": strip `\s*\(.*\)$`):
 * `Orchestrator (thought)` → Orchestrator / `thought`; `Orchestrator (-> WebSurfer)` →
 * Orchestrator / `instruct`; `Orchestrator (termination condition)` → Orchestrator /
 * `termination` (a meta-message, §7); any other suffix becomes the channel as written.
 */
export function whoAndWhenSpeaker(raw: string): WhoAndWhenSpeaker {
  const match = suffix.exec(raw.trim());
  if (!match?.[1]) return { agent: raw.trim() };
  const note = (match[2] ?? '').trim();
  if (note === 'thought') return { agent: match[1], channel: 'thought' };
  if (note.startsWith('->')) return { agent: match[1], channel: 'instruct' };
  if (note === 'termination condition') return { agent: match[1], channel: 'termination' };
  return note ? { agent: match[1], channel: note } : { agent: match[1] };
}

/** Where the blame of one file points, and what did not line up (§3.1 "Label pitfalls"). */
interface BlameAnchor {
  readonly agent?: string;
  readonly message?: number;
  readonly notes: readonly string[];
}

/**
 * Anchors `mistake_agent` / `mistake_step` (a 0-based index into `history`, usually a string):
 * the agent is the roster spelling of the normalised name; the message is history[step]. A step
 * that is not an index, or whose speaker is another agent after normalisation (compared
 * case-insensitively), is kept and explained in a note instead of failing the episode: the step
 * is "where the mistake was made, blamed on mistake_agent", not necessarily its message.
 */
function blameAnchor(record: JsonRecord, messages: readonly Message[], roster: TraceRoster): BlameAnchor {
  const notes: string[] = [];
  const raw = idText(record['mistake_agent']);
  const base = raw === undefined ? undefined : whoAndWhenSpeaker(raw).agent;
  const agent = base === undefined ? undefined : (roster.resolve(base) ?? base);
  if (agent !== undefined && roster.resolve(agent) === undefined)
    notes.push(`mistake_agent "${raw ?? ''}" is not in the roster`);
  const rawStep = record['mistake_step'];
  if (rawStep === undefined || rawStep === null) return { agent, notes };
  const step = integerOf(rawStep);
  if (step === undefined || step < 0 || step >= messages.length) {
    notes.push(`mistake_step ${JSON.stringify(rawStep)} is not an index of history[0..${messages.length - 1}]`);
    return { agent, notes };
  }
  const speaker = messages[step]?.agent;
  if (agent !== undefined && speaker !== undefined && speaker.toLowerCase() !== agent.toLowerCase()) {
    notes.push(`step ${step} is spoken by ${speaker}, not ${agent}`);
  }
  return { agent, message: step, notes };
}

/** The optional failure categories: `mistake_type` (Hand-Crafted) and `labels` (a string or a list). */
function categories(record: JsonRecord): string[] {
  const labels: unknown = record['labels'];
  const values: unknown[] = [record['mistake_type'], ...(Array.isArray(labels) ? (labels as unknown[]) : [labels])];
  return values.map(idText).filter((v): v is string => v !== undefined);
}

/**
 * The blame labels of one Who&When file (trace-formats.md §6): a `mistake` label on the agent and
 * message, with `mistake_reason` and any mismatch note (`[Who&When: step 12 is spoken by …]`) as
 * its reason, then one `mistake_type` label per failure category on the same anchor.
 */
export function whoAndWhenLabels(record: JsonRecord, messages: readonly Message[], roster: TraceRoster): Label[] {
  const hasBlame = record['mistake_agent'] !== undefined || record['mistake_step'] !== undefined;
  const anchor = blameAnchor(record, messages, roster);
  const labels: Label[] = [];
  if (hasBlame) {
    const reason = [stringOf(record['mistake_reason']), ...anchor.notes.map((n) => `[Who&When: ${n}]`)]
      .filter(Boolean)
      .join(' ');
    labels.push(
      definedOnly({ kind: 'mistake', agent: anchor.agent, message: anchor.message, reason: reason || undefined }),
    );
  }
  for (const value of categories(record)) {
    labels.push(definedOnly({ kind: 'mistake_type', agent: anchor.agent, message: anchor.message, value }));
  }
  return labels;
}
