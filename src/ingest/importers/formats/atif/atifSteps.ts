import type { Message } from '../../../../core/episode';
import {
  arrayField,
  definedOnly,
  idText,
  integerOf,
  isRecord,
  recordField,
  stringOf,
  type JsonRecord,
} from '../common/json';
import { contentText, joinLines, toolCallText } from '../common/traceText';

// ATIF steps → messages (Harbor's `Step` model as read by inspect_scout's
// `src/inspect_scout/sources/_atif/events.py`): `source` system | user | agent; an agent step's
// `reasoning_content`, `message` and `tool_calls`; the `observation.results[].content` that came back.

/** The speaker of system steps, user steps and observations. */
export const atifSystem = 'system';
export const atifUser = 'user';
export const atifTools = 'tools';

/** A sub-agent reference of an observation result: `trajectory_path` (relative to the file) and `session_id`. */
export interface SubagentRef {
  readonly path?: string;
  readonly sessionId?: string;
  readonly summary?: string;
}

/** Every `observation.results[].subagent_trajectory_ref[]` of a step. */
export function subagentRefs(step: JsonRecord): SubagentRef[] {
  const observation = recordField(step, 'observation');
  const results = observation ? (arrayField(observation, 'results') ?? []) : [];
  return results.flatMap((result) => {
    const refs = isRecord(result) ? arrayField(result, 'subagent_trajectory_ref') : undefined;
    return (refs ?? []).filter(isRecord).map((ref) => {
      const extra = recordField(ref, 'extra');
      return definedOnly({
        path: stringOf(ref['trajectory_path']),
        sessionId: idText(ref['session_id']),
        summary: extra ? stringOf(extra['summary']) : undefined,
      });
    });
  });
}

function toolCalls(step: JsonRecord): string[] {
  return (arrayField(step, 'tool_calls') ?? []).flatMap((call) => {
    const name = isRecord(call) ? idText(call['function_name']) : undefined;
    return isRecord(call) && name !== undefined ? [toolCallText(name, call['arguments'])] : [];
  });
}

function agentMessages(step: JsonRecord, agent: string, turn: number | undefined): Message[] {
  const out: Message[] = [];
  const reasoning = contentText(step['reasoning_content']);
  if (reasoning) out.push(definedOnly({ agent, turn, role: 'assistant', channel: 'thought', content: reasoning }));
  const calls = toolCalls(step);
  const metrics = recordField(step, 'metrics');
  const content = joinLines([contentText(step['message']), ...calls]);
  out.push(
    definedOnly({
      agent,
      turn,
      role: 'assistant',
      channel: calls.length > 0 ? 'tool_call' : 'speech',
      content,
      tokenCount: metrics ? integerOf(metrics['completion_tokens']) : undefined,
    }),
  );
  return out;
}

/** The text results of a step's observation (references to sub-agents are not text). */
function observationMessages(step: JsonRecord, turn: number | undefined): Message[] {
  const observation = recordField(step, 'observation');
  const results = observation ? (arrayField(observation, 'results') ?? []) : [];
  return results.flatMap((result) => {
    if (!isRecord(result) || result['content'] === undefined || result['content'] === null) return [];
    return [
      definedOnly({
        agent: atifTools,
        turn,
        role: 'tool',
        channel: 'tool_result',
        content: contentText(result['content']),
      }),
    ];
  });
}

/** One ATIF step → its messages, `turn` its `step_id`; an unknown `source` speaks as itself. */
export function stepMessages(step: unknown, agent: string): Message[] {
  if (!isRecord(step)) return [];
  const turn = integerOf(step['step_id']);
  const source = idText(step['source']) ?? 'agent';
  let own: Message[];
  if (source === 'agent') own = agentMessages(step, agent, turn);
  else {
    const speaker = source === 'system' ? atifSystem : source === 'user' ? atifUser : source;
    own = [
      definedOnly({
        agent: speaker,
        turn,
        role: source === 'system' ? 'system' : 'user',
        content: contentText(step['message']),
      }),
    ];
  }
  return [...own, ...observationMessages(step, turn)];
}
