import { isTrainedAgent, type AgentDecl, type Episode } from '../../core/episode';
import { err, ok, type Result } from '../../core/result';
import type { ConversationMessage, ReplayConfig } from './replayTypes';

/** What a replay needs to know about one agent of the episode. */
export interface ReplayAgent {
  readonly name: string;
  /** True for a model (llm, orchestrator, judge, an undeclared speaker); false for tools, environments, humans, user simulators, system. */
  readonly isModel: boolean;
  readonly systemPrompt?: string;
  readonly defaultAction?: string;
  readonly policy?: string;
}

/** Channels that carry what the environment returned, never a model's output. */
const environmentChannels: ReadonlySet<string> = new Set(['tool_result', 'observation']);

/**
 * The agents of an episode by name: the declared roster (the first declaration of a name wins),
 * then undeclared speakers as models. An agent's system prompt is its roster `systemPrompt`, else
 * the content of its first `role: "system"` message (docs/trace-format.md §2.3).
 */
export function replayRoster(episode: Episode): ReadonlyMap<string, ReplayAgent> {
  const declared = new Map<string, AgentDecl>();
  for (const agent of episode.agents) if (!declared.has(agent.name)) declared.set(agent.name, agent);
  const roster = new Map<string, ReplayAgent>();
  const names = [...declared.keys(), ...episode.messages.map((m) => m.agent)];
  for (const name of names) {
    if (roster.has(name)) continue;
    const decl = declared.get(name);
    const logged = episode.messages.find((m) => m.agent === name && m.role === 'system')?.content;
    const systemPrompt = decl?.systemPrompt ?? logged;
    roster.set(name, {
      name,
      isModel: isTrainedAgent(decl?.kind ?? 'llm', undefined),
      ...(systemPrompt !== undefined ? { systemPrompt } : {}),
      ...(decl?.defaultAction !== undefined ? { defaultAction: decl.defaultAction } : {}),
      ...(decl?.policy !== undefined ? { policy: decl.policy } : {}),
    });
  }
  return roster;
}

/**
 * True when `message` is output a model generated, which a replay regenerates: an `assistant` (or
 * role-less) message of a model that is not a tool result or an observation. User turns, tool
 * results, system messages and the messages of tools and environments are kept as logged.
 */
export function isModelOutput(
  message: Pick<ConversationMessage, 'role' | 'channel'>,
  author: ReplayAgent | undefined,
): boolean {
  if (author?.isModel === false) return false;
  if (message.role !== undefined && message.role !== 'assistant') return false;
  return message.channel === undefined || !environmentChannels.has(message.channel);
}

/** The model of `agent`: the config's mapping, else the roster's `policy`, else the default model; an error names the agent. */
export function modelOf(agent: ReplayAgent, config: ReplayConfig): Result<string> {
  const mapped = config.models && Object.hasOwn(config.models, agent.name) ? config.models[agent.name] : undefined;
  const model = mapped ?? agent.policy ?? config.defaultModel;
  if (model !== undefined && model !== '') return ok(model);
  return err(
    `no model for agent "${agent.name}": map it in the replay config (models), declare its policy in the roster, or set a default model`,
  );
}
