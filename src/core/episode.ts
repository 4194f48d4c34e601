/**
 * The canonical trace model, format v1 (docs/trace-format.md, schema/episode.v1.schema.json).
 * One {@link Episode} per JSONL line. Every importer maps its source format onto these types.
 */

/** What an agent is: only `llm` agents are trained, the rest are part of the environment. */
export type AgentKind = 'llm' | 'tool' | 'env' | 'human' | 'user_sim' | 'orchestrator' | 'system' | 'judge';

/** Kinds that are part of the environment: never trained, so never idle or free-riding. */
const environmentKinds: ReadonlySet<string> = new Set(['tool', 'env', 'human', 'user_sim', 'system']);

/**
 * Whether an agent is one that training updates, and so one a verdict (idle, free-rider) can be
 * about: never a human, tool, environment, user simulator or system prompt, whatever `trainable`
 * says; otherwise unless the roster marks it `trainable: false`.
 */
export function isTrainedAgent(kind: string, trainable: boolean | null | undefined): boolean {
  return !environmentKinds.has(kind) && trainable !== false;
}

/** A member of the declared roster. Declared agents that never speak are still listed. */
export interface AgentDecl {
  readonly name: string;
  readonly kind: AgentKind;
  /** Shared-weights / LoRA / model id; undefined when unknown. */
  readonly policy?: string;
  /** True when this agent is updated by RL. */
  readonly trainable?: boolean;
  readonly description?: string;
  /** The system prompt the agent was given, for replaying it (docs/replay.md). */
  readonly systemPrompt?: string;
  /** The agent's declared default action: the text put in place of its messages when it is replaced by its default. */
  readonly defaultAction?: string;
}

/** One message (turn, step, span) in the order it happened. */
export interface Message {
  readonly agent: string;
  /** Debate round / turn index; undefined when the source has none. */
  readonly turn?: number;
  /** Wire role as logged (system, user, assistant, tool). */
  readonly role?: string;
  /** speech | thought | instruct | tool_call | tool_result | observation | final, free text otherwise. */
  readonly channel?: string;
  readonly content: string;
  readonly tokenCount?: number;
  /** Token strings, aligned with `logprobs` and `attribution` when those are present. */
  readonly tokens?: readonly string[];
  readonly logprobs?: readonly number[];
  /** Per-token attribution scores logged by the trainer. */
  readonly attribution?: readonly number[];
  /**
   * Logged attribution between messages (AgentChord/GBC-style): the indices of earlier messages this
   * one drew on, aligned with `weights` (docs/trace-format.md §2.2). Influence, not credit.
   */
  readonly connections?: readonly number[];
  /** The logged weight of each of `connections`, in the producer's units. */
  readonly weights?: readonly number[];
}

/** How an agent was taken out of the episode in a counterfactual (credit-methods.md §2). */
export type Intervention = 'remove' | 'empty' | 'placeholder' | 'resample_self' | 'resample_ref' | 'replace_text';

/** A logged counterfactual: the reward obtained when `agents` were removed or replaced. */
export interface Counterfactual {
  readonly intervention: Intervention;
  readonly agents: readonly string[];
  readonly replacement?: string;
  /** Mean reward under the intervention. */
  readonly reward: number;
  /** Individual rollout rewards behind `reward`, when more than one was sampled. */
  readonly rewards?: readonly number[];
  /** True when agents downstream of the intervention were re-generated. */
  readonly replayed?: boolean;
  readonly evaluator?: string;
}

/** A logged coalition value v(S): the reward with only `agents` acting as logged. */
export interface CoalitionValue {
  readonly agents: readonly string[];
  readonly value: number;
  /** Rollouts behind the value. */
  readonly n?: number;
}

/** One routing decision: the router's probabilities over *all* experts and the one it chose. */
export interface RoutingDecision {
  readonly probs: Readonly<Record<string, number>>;
  readonly selected: string;
  /** Probabilities of the behaviour (logging) router when it differs from `probs`. */
  readonly behaviourProbs?: Readonly<Record<string, number>>;
}

/** A blame or failure annotation, optionally anchored on an agent and a message index. */
export interface Label {
  readonly kind: string;
  readonly agent?: string;
  /** 0-based index into `messages`. */
  readonly message?: number;
  readonly value?: string;
  readonly reason?: string;
  readonly annotator?: string;
}

/** The final answer and the agent whose message produced it. */
export interface FinalAnswer {
  readonly answer: string;
  readonly agent?: string;
}

/** One episode (rollout) of a multi-agent team. */
export interface Episode {
  readonly id: string;
  readonly step?: number;
  readonly group?: string;
  readonly sample?: number;
  readonly task?: string;
  readonly split?: string;
  readonly prompt?: string;
  /** The declared roster (from the line, else from run.json); speakers missing from it are undeclared. */
  readonly agents: readonly AgentDecl[];
  readonly messages: readonly Message[];
  readonly final?: FinalAnswer;
  /** The team (shared) reward. */
  readonly reward?: number;
  readonly agentRewards?: Readonly<Record<string, number>>;
  readonly advantages?: Readonly<Record<string, number>>;
  readonly routing?: RoutingDecision;
  readonly counterfactuals?: readonly Counterfactual[];
  readonly coalitions?: readonly CoalitionValue[];
  /** Ground truth as text (numbers and objects are serialised). */
  readonly groundTruth?: string;
  readonly labels?: readonly Label[];
  readonly metadata?: Readonly<Record<string, unknown>>;
}
