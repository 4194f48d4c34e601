import type { SamplingParams } from '../../core/chat';
import type { Episode, Message } from '../../core/episode';
import { err, ok, type Result } from '../../core/result';
import { agentView, seesEverything, type ViewContext } from './agentView';
import { isModelOutput, modelOf, replayRoster, type ReplayAgent } from './replayRoster';
import { loggedSampling, replaySampling, samplingForSample } from './replaySampling';
import type {
  ConversationMessage,
  GenerateStep,
  ReplayConfig,
  ReplayIntervention,
  ReplayPlan,
  ReplayStep,
} from './replayTypes';

/**
 * Plans the replay of one counterfactual of `episode` (docs/replay.md, "Replay plans"). The
 * conversation is kept as logged up to the cut — the first message of a removed agent (kind
 * `agents`; no cut when they never speak), message `keep` (kind `messages`) or the first dropped
 * message (kind `drop`, whose messages are left out). After the cut,
 * removed agents' messages are dropped (`remove`) or replaced by their declared default action
 * (`default`); the others' model output is regenerated in the logged order, each message by its
 * agent's model from its system prompt and the conversation as it sees it; user turns, tool results,
 * observations and system messages are kept as logged. Sampling: the trace's, else the config's.
 *
 * Fails, naming the agent, for a removed agent outside the roster, a `default` replay of an agent
 * with no declared default action, or an agent to regenerate with no model; and for a `keep`
 * outside `0 .. messages`.
 */
export function planReplay(
  episode: Episode,
  intervention: ReplayIntervention,
  config: ReplayConfig = {},
): Result<ReplayPlan> {
  const roster = replayRoster(episode);
  const removed = removedAgents(intervention, roster);
  if (!removed.ok) return removed;
  const cut = cutIndex(episode.messages, intervention, removed.value);
  if (!cut.ok) return cut;
  const dropped = new Set(intervention.kind === 'drop' ? intervention.messages : []);
  const context: ViewContext = { roster, task: taskPrompt(episode), visibility: config.visibility ?? seesEverything };
  const sampling = replaySampling(loggedSampling(episode.metadata), config.sampling);
  const steps: ReplayStep[] = [];
  for (let i = cut.value; i < episode.messages.length; i++) {
    if (dropped.has(i)) continue;
    const step = stepFor(episode.messages[i] as Message, i, removed.value, context, { config, sampling });
    if (!step.ok) return step;
    if (step.value) steps.push(step.value);
  }
  const prefix = episode.messages.slice(0, cut.value).map((m) => loggedMessage(m));
  return ok({ prefix, steps, notes: planNotes(steps, roster, hasTask(episode)) });
}

interface StepSettings {
  readonly config: ReplayConfig;
  readonly sampling: SamplingParams;
}

/** The removed agents, each with the text that stands in for its messages (`default` mode) or undefined (`remove`). */
type Removed = ReadonlyMap<string, string | undefined>;

function removedAgents(intervention: ReplayIntervention, roster: ReadonlyMap<string, ReplayAgent>): Result<Removed> {
  const removed = new Map<string, string | undefined>();
  if (intervention.kind !== 'agents') return ok(removed);
  for (const name of intervention.removed) {
    const agent = roster.get(name);
    if (agent === undefined)
      return err(`agent "${name}" is not in the episode's roster (${[...roster.keys()].join(', ') || 'it is empty'})`);
    if (intervention.mode === 'default' && agent.defaultAction === undefined) {
      return err(
        `agent "${name}" declares no default action (defaultAction in the roster), which a "default" replay puts in place of its messages; declare one or replay with mode "remove"`,
      );
    }
    removed.set(name, intervention.mode === 'default' ? agent.defaultAction : undefined);
  }
  return ok(removed);
}

function cutIndex(messages: readonly Message[], intervention: ReplayIntervention, removed: Removed): Result<number> {
  if (intervention.kind === 'agents') {
    const first = messages.findIndex((m) => removed.has(m.agent));
    return ok(first < 0 ? messages.length : first);
  }
  if (intervention.kind === 'drop') {
    const outside = intervention.messages.find((i) => !Number.isInteger(i) || i < 0 || i >= messages.length);
    if (outside !== undefined)
      return err(
        `message ${outside} is not one of this episode's ${messages.length} messages (0 to ${messages.length - 1})`,
      );
    return ok(intervention.messages.length === 0 ? messages.length : Math.min(...intervention.messages));
  }
  const keep = intervention.keep;
  if (Number.isInteger(keep) && keep >= 0 && keep <= messages.length) return ok(keep);
  return err(`a prefix replay keeps 0 to ${messages.length} messages of this episode, not ${keep}`);
}

/** The step that stands for logged message `index` after the cut; undefined when the message is dropped. */
function stepFor(
  message: Message,
  index: number,
  removed: Removed,
  context: ViewContext,
  settings: StepSettings,
): Result<ReplayStep | undefined> {
  const logged = loggedMessage(message);
  if (removed.has(message.agent)) {
    const stand = removed.get(message.agent);
    // A removed agent's own system prompt has nothing to stand in for.
    if (stand === undefined || message.role === 'system') return ok(undefined);
    const replacement: ConversationMessage = {
      agent: message.agent,
      role: 'assistant',
      content: stand,
      origin: 'default',
      ...channelOf(message),
    };
    return ok({ kind: 'keep', loggedIndex: index, message: replacement });
  }
  const author = context.roster.get(message.agent);
  if (author === undefined || !isModelOutput(message, author))
    return ok({ kind: 'keep', loggedIndex: index, message: logged });
  const model = modelOf(author, settings.config);
  if (!model.ok) return model;
  return ok(generateStep(author, model.value, index, logged, context, settings.sampling));
}

function generateStep(
  agent: ReplayAgent,
  model: string,
  index: number,
  logged: ConversationMessage,
  context: ViewContext,
  sampling: SamplingParams,
): GenerateStep {
  const promptParts = (conversation: readonly ConversationMessage[]) => agentView(agent, conversation, context);
  return {
    kind: 'generate',
    loggedIndex: index,
    agent: agent.name,
    model,
    logged,
    promptParts,
    buildRequest: (conversation, sample = 0) => ({
      model,
      messages: promptParts(conversation).map((p) => p.message),
      sampling: samplingForSample(sampling, sample),
    }),
  };
}

/** A logged message as a conversation message (the fields a replay reads). */
function loggedMessage(m: Message): ConversationMessage {
  return {
    agent: m.agent,
    content: m.content,
    origin: 'logged',
    ...(m.role !== undefined ? { role: m.role } : {}),
    ...channelOf(m),
    ...(m.tokenCount !== undefined ? { tokenCount: m.tokenCount } : {}),
  };
}

function channelOf(m: Message): { channel?: string } {
  return m.channel !== undefined ? { channel: m.channel } : {};
}

/**
 * The task prompt each request starts with: the episode's `prompt`, unless a logged `user` message
 * already says the same (formats that log the prompt as the first turn), or there is none.
 */
function taskPrompt(episode: Episode): string | undefined {
  const prompt = episode.prompt;
  if (prompt === undefined || prompt.trim() === '') return undefined;
  const carried = episode.messages.some((m) => m.role === 'user' && m.content.trim() === prompt.trim());
  return carried ? undefined : prompt;
}

function hasTask(episode: Episode): boolean {
  return (episode.prompt ?? '').trim() !== '' || episode.messages.some((m) => m.role === 'user');
}

function planNotes(steps: readonly ReplayStep[], roster: ReadonlyMap<string, ReplayAgent>, task: boolean): string[] {
  const generating = [...new Set(steps.flatMap((s) => (s.kind === 'generate' ? [s.agent] : [])))];
  const notes = generating
    .filter((name) => roster.get(name)?.systemPrompt === undefined)
    .map(
      (name) => `agent "${name}" has no system prompt (systemPrompt in the roster): its requests start with the task`,
    );
  if (generating.length > 0 && !task)
    notes.push('the episode logs no task prompt: requests carry only the conversation');
  return notes;
}
