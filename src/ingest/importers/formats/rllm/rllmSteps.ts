import type { Message } from '../../../../core/episode';
import { definedOnly, isRecord, jsonText, numberOf, stringOf, type JsonRecord } from '../common/json';
import { contentText, joinLines } from '../common/traceText';

// rLLM `Step` → messages (rllm/types.py `Step`; rllm/utils/episode_logger.py `log_episode`). In
// rLLM the environment's `observation` is what the agent saw before acting, `model_response` is the
// agent's raw LLM output, and `thought` / `action` are what the agent's parser extracted from it.

/** The environment agent that speaks the observations. */
export const rllmEnvironment = 'environment';

/**
 * The agent's text of one step: `model_response` (the whole LLM output) when non-empty, else the
 * parsed `thought` and `action` (an action object as JSON), else the last assistant turn of
 * `chat_completions`.
 */
function agentText(step: JsonRecord): string {
  const response = stringOf(step['model_response']);
  if (response) return response;
  const parsed = joinLines([stringOf(step['thought']) ?? '', jsonText(step['action']) ?? '']);
  if (parsed) return parsed;
  const chat: readonly unknown[] = Array.isArray(step['chat_completions'])
    ? (step['chat_completions'] as unknown[])
    : [];
  const last = [...chat].reverse().find((m) => isRecord(m) && m['role'] === 'assistant');
  return isRecord(last) ? contentText(last['content']) : '';
}

/**
 * One step → its messages, with `turn` the step index: the observation (spoken by
 * {@link rllmEnvironment}, channel `observation`) when there is one, then the agent's turn
 * (channel `thought` when it is only a parsed thought with no action, else `speech`).
 */
export function stepMessages(agent: string, step: unknown, turn: number): Message[] {
  if (!isRecord(step)) return [{ agent, turn, content: jsonText(step) ?? '' }];
  const out: Message[] = [];
  const observation = contentText(step['observation']);
  if (observation)
    out.push({ agent: rllmEnvironment, turn, role: 'user', channel: 'observation', content: observation });
  const text = agentText(step);
  const onlyThought = !stringOf(step['model_response']) && step['action'] === undefined && !!stringOf(step['thought']);
  out.push(definedOnly({ agent, turn, role: 'assistant', channel: onlyThought ? 'thought' : 'speech', content: text }));
  return out;
}

/** The sum of the steps' `reward`s, or undefined when no step has one. */
export function stepRewardSum(steps: readonly unknown[]): number | undefined {
  const rewards = steps
    .map((s) => (isRecord(s) ? numberOf(s['reward']) : undefined))
    .filter((r): r is number => r !== undefined);
  return rewards.length > 0 ? rewards.reduce((a, b) => a + b, 0) : undefined;
}
