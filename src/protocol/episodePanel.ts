import { IpcCommand, IpcNotification, IpcRequest, isRecord } from './ipc';
import {
  isEpisodeRef,
  isNonNegativeInt,
  isOneOf,
  isViewMethod,
  type CreditDomainView,
  type CreditStatus,
  type EpisodeRef,
  type FlagView,
  type ViewMethod,
} from './viewData';

// The contract of the "Credit Lens: Episode" webview (host: src/extension/panels/episodePanel.ts,
// webview: webview/src/episode/main.ts).
// Handshake: the webview sends ReadyCommand (again after every reload, with the episode it restored
// from its state, if any); the host answers with DidChangeEpisodeNotification, and sends it again
// when the panel is pointed at another episode or the index changes. The webview then pulls message
// windows with GetMessagesRequest and credit with GetCreditRequest.

/** Version of {@link EpisodeViewState}; bump it when that state changes shape. */
export const episodeStateVersion = 1;

/** Longest message text the host sends; longer text is cut and marked `truncated`. */
export const maxMessageChars = 65_536;
/** Largest message window one GetMessagesRequest may ask for. */
export const maxMessageWindow = 500;
/** Largest metadata (as JSON text) sent with the episode; larger metadata is left to the raw record. */
export const maxMetadataChars = 262_144;
/** Most bytes of the episode's trace record the raw-record view shows. */
export const maxRawRecordBytes = 524_288;

/** An agent of the episode's roster (declared-but-silent agents included). */
export interface EpisodeAgentView {
  readonly name: string;
  readonly kind: string;
  /** In the declared roster (false = only seen speaking). */
  readonly declared: boolean;
  readonly messages: number;
  readonly tokens: number | null;
  /** Logged per-agent reward and advantage, when the trace has them. */
  readonly loggedReward: number | null;
  readonly loggedAdvantage: number | null;
}

/** A label of the trace (e.g. Who&When's blame: `kind` 'mistake', on `agent` at message `message`). */
export interface LabelView {
  readonly kind: string;
  readonly agent: string | null;
  /** 0-based message sequence number the label points at. */
  readonly message: number | null;
  readonly value: string | null;
  readonly reason: string | null;
}

/** One row of the counterfactual table: agents removed or replaced, and the reward obtained. */
export interface CounterfactualView {
  /** Agents left out of (or replaced in) the coalition; empty = the full team. */
  readonly removed: readonly string[];
  /** remove | empty | placeholder | resample_self | resample_ref | replace_text | coalition */
  readonly intervention: string;
  readonly reward: number;
  /** logged = in the trace; cached = an evaluator result from the cache; computed = by the last credit pass. */
  readonly source: 'logged' | 'cached' | 'computed';
  readonly evaluator: string | null;
  /** Rollouts behind the value, when known. */
  readonly n: number | null;
}

/** Which evaluator answers counterfactuals: the built-in checker, an evaluator command, or a replay on a model server. */
export const evaluatorKinds = ['checker', 'command', 'replay'] as const;
export type EvaluatorKind = (typeof evaluatorKinds)[number];

export function isEvaluatorKind(value: unknown): value is EvaluatorKind {
  return isOneOf(evaluatorKinds, value);
}

/** One evaluator a recompute can use. */
export interface EvaluatorOptionView {
  readonly kind: EvaluatorKind;
  /** e.g. "built-in final-answer", "command ./eval.sh", "replay on 127.0.0.1:8000". */
  readonly description: string;
  /** A replay's model server as `host:port` (never its path or query, which may carry a key); null otherwise. */
  readonly endpoint: string | null;
}

/** What evaluator a recompute would use, and why not when none can run. */
export interface EvaluatorView {
  readonly configured: boolean;
  /** e.g. "built-in final-answer (last agent)" or "command ./eval.sh". */
  readonly description: string;
  /** Why no evaluator runs (e.g. "Restricted Mode: evaluator commands from workspace settings are not run"). */
  readonly reason: string | null;
  /** The kind of the evaluator a Recompute uses by default (absent: a checker or command, as `description` says). */
  readonly kind?: EvaluatorKind;
  /** For a replay: the model server as `host:port`. */
  readonly endpoint?: string | null;
  /**
   * Every evaluator the Recompute menu offers, the default first (e.g. the replay, then the checker);
   * a replay is listed only when it is configured and allowed (a trusted workspace).
   */
  readonly options?: readonly EvaluatorOptionView[];
}

/** One expert of a logged routing decision, with the router's probability of choosing it. */
export interface RoutingExpertView {
  readonly name: string;
  readonly probability: number;
  /** The behaviour (logging) router's probability, when it differs from the router's and was logged. */
  readonly behaviourProbability: number | null;
}

/** The routing decision of the episode: the expert selected, and every expert by probability (highest first). */
export interface RoutingView {
  readonly selected: string;
  readonly experts: readonly RoutingExpertView[];
}

/** The episode as the panel shows it, without message text (fetched by window) and credit (by method). */
export interface EpisodeViewData {
  readonly ref: EpisodeRef;
  readonly externalId: string;
  readonly runName: string;
  readonly mechanism: string | null;
  readonly step: number | null;
  readonly group: string | null;
  readonly sample: number | null;
  readonly task: string | null;
  /** Team reward as logged (the "shared" credit of every agent). */
  readonly reward: number | null;
  readonly groundTruth: string | null;
  readonly finalAnswer: { readonly answer: string; readonly agent: string | null } | null;
  readonly messageCount: number;
  readonly tokenCount: number | null;
  readonly agents: readonly EpisodeAgentView[];
  readonly labels: readonly LabelView[];
  readonly flags: readonly FlagView[];
  readonly counterfactuals: readonly CounterfactualView[];
  readonly evaluator: EvaluatorView;
  /** Method to show when the webview has none saved (the `creditLens.credit.defaultMethod` setting). */
  readonly defaultMethod: ViewMethod;
  /** True when the episode logs a routing decision (the Routing method is offered only then). */
  readonly routingLogged?: boolean;
  /** The routing decision, from the index; null when none is logged. */
  readonly routing?: RoutingView | null;
  /** The episode's metadata as logged (from the index); null when none, or when {@link metadataNote} says why not. */
  readonly metadata?: Readonly<Record<string, unknown>> | null;
  /** Why the metadata is not shown (e.g. larger than {@link maxMetadataChars}); null otherwise. */
  readonly metadataNote?: string | null;
  /**
   * The method of the view that opened this episode (the dashboard's): shown instead of the saved
   * one. Sent once, with the first episode data after the opening; null or absent otherwise.
   */
  readonly openedMethod?: ViewMethod | null;
  /** Trace file relative to the indexed folder, and the 1-based line of the episode. */
  readonly location: { readonly uri: string; readonly line: number };
  /** Set when the trace line could not be read back: messages are then unavailable. */
  readonly readError: string | null;
  /** Rollouts of the episode's GRPO group (the header links to the group view); null or absent without a group. */
  readonly groupRollouts?: number | null;
  /** The run's fixed credit colour domain, the same for every method (docs/architecture.md §4.4). */
  readonly creditDomain: CreditDomainView;
  /**
   * The run's step windows (step-scope flags) that cover the episode's step: verdicts about the run
   * and its steps, named in one line that opens the dashboard, never listed in `flags`. Absent or null: none.
   */
  readonly runWindows?: RunWindowsView | null;
}

/** The run's flag windows covering one episode's step. */
export interface RunWindowsView {
  readonly runId: number;
  /** How many windows cover `step`. */
  readonly count: number;
  /** The episode's step. */
  readonly step: number;
  /** The span of those windows (the dashboard's step filter when opened from here). */
  readonly steps: readonly [number, number];
}

/** One message of a window. */
export interface MessageView {
  /** 0-based position in the episode. */
  readonly seq: number;
  readonly agent: string;
  readonly turn: number | null;
  readonly role: string | null;
  readonly channel: string | null;
  readonly tokenCount: number | null;
  /** The text, at most {@link maxMessageChars} characters. Shown as text, never parsed as HTML. */
  readonly content: string;
  /** Length of the full text, in characters. */
  readonly contentChars: number;
  readonly truncated: boolean;
  /** Per-token attribution when the trace carries one (same length arrays). */
  readonly tokens: { readonly text: readonly string[]; readonly attribution: readonly number[] } | null;
  /** The tool calls of a `tool_call` message, read from its `name(arguments)` lines; absent when none. */
  readonly toolCalls?: readonly ToolCallView[];
  /** A `tool_result` message's content parsed as JSON, when it is a JSON object or array; absent otherwise. */
  readonly toolResult?: unknown;
}

/** One tool call of a message. */
export interface ToolCallView {
  readonly name: string;
  /** The arguments as logged: parsed JSON, or the text when it is not JSON. */
  readonly args: unknown;
  /** The line of the message's `content` the call was read from (the view shows the call in its place). */
  readonly line: string;
}

/** The episode's task prompt, read back from the trace (as the messages are). */
export interface PromptView {
  /** At most {@link maxMessageChars} characters; null when the trace logs no prompt. */
  readonly text: string | null;
  /** Length of the full prompt, in characters. */
  readonly chars: number;
  readonly truncated: boolean;
}

/** The episode's own record in the trace, for reading it as logged. */
export interface RawRecordView {
  /** The record, pretty-printed when it is whole and JSON; else its first bytes as they are. */
  readonly text: string;
  /** Size of the whole record, in bytes (for a record read through an archive or a table: of its JSON text). */
  readonly bytes: number;
  readonly pretty: boolean;
  /** What is left out (e.g. "Showing the first 0.5 MB of 3.1 MB; …"); null when the whole record is shown. */
  readonly note: string | null;
}

/** Params of the requests that are only about the shown episode. */
export interface EpisodeParams {
  readonly ref: EpisodeRef;
}

export interface GetMessagesParams {
  readonly ref: EpisodeRef;
  readonly offset: number;
  readonly limit: number;
}

export interface MessageWindow {
  readonly offset: number;
  readonly messages: readonly MessageView[];
}

/** Bits of {@link TimelineView.flags}: what a message carries besides its text. */
export const timelineFlags = {
  /** The message logs its tokens (text, log-probabilities or attributions). */
  tokenDetail: 1,
  /** A `tool_call` message. */
  toolCall: 2,
  /** A `tool_result` message. */
  toolResult: 4,
} as const;

/**
 * Every message of the episode in one compact reply, for the swimlane timeline: parallel arrays
 * indexed by seq (not one object per message, so a 100,000-message episode stays a few hundred KB).
 * Credit is not repeated here: the timeline tints with the {@link EpisodeCreditView} the view has.
 */
export interface TimelineView {
  /** Position in {@link EpisodeViewData.agents} of each message's author; -1 when not in the roster. */
  readonly authors: readonly number[];
  /** Tokens of each message as indexed; null where the trace logs none. */
  readonly tokens: readonly (number | null)[];
  /** {@link timelineFlags} bits of each message. */
  readonly flags: readonly number[];
}

/** An agent's credit under one method. */
export interface AgentCreditView {
  readonly agent: string;
  readonly value: number | null;
  readonly ciLow: number | null;
  readonly ciHigh: number | null;
  /** Samples behind the value (Monte-Carlo permutations, evaluator rollouts), when known. */
  readonly n: number | null;
  /** GRPO group-relative advantage of the value. */
  readonly advantage: number | null;
  /** exact | estimated | approximate (docs/credit-provenance.md); null without a value. */
  readonly status?: string | null;
}

export interface GetCreditParams {
  readonly ref: EpisodeRef;
  readonly method: ViewMethod;
}

/** The episode's credit under one method. */
export interface EpisodeCreditView {
  readonly method: ViewMethod;
  readonly status: CreditStatus;
  /** Why the status is not `computed` (a failure reason, or what is missing). */
  readonly reason: string | null;
  /** What would answer a `not-identifiable` episode (log counterfactuals, configure a replay evaluator, …). */
  readonly remedy?: string | null;
  /** The weakest status of the values shown: exact | estimated | approximate; null when none are. */
  readonly valueStatus?: string | null;
  /** Some values rest on a removal without a replay (credit-methods.md §3.1: LOO under a pipeline). */
  readonly approximate: boolean;
  /** Where the values came from: logged, replayed, checked, cached, estimated, joined by `+`. */
  readonly source: string | null;
  readonly computedAt: string | null;
  /** The team reward, for comparison with every agent's bar. */
  readonly shared: number | null;
  readonly agents: readonly AgentCreditView[];
  /**
   * Credit of every message (index = seq; null = none). `per-message`: values of a per-message
   * method; `spread`: each agent's credit divided evenly over its messages, so the messages of an
   * episode sum to the agents' total.
   */
  readonly messageCredit: readonly (number | null)[];
  readonly messageCreditKind: 'per-message' | 'spread';
  /**
   * The half-width of each estimated message credit's 95% interval (Monte-Carlo Owen values, whose t
   * intervals are `value ± half-width`; index = seq; null = none); absent when no message has one,
   * so a long exact episode sends nothing more, and a long estimated one a single number a message.
   */
  readonly messageMargin?: readonly (number | null)[];
  /**
   * A per-message method on a failed episode: its first error (credit-methods.md §3.13), or null
   * when the data cannot name one ({@link firstErrorNote} says why and what would); absent for
   * agent-level methods.
   */
  readonly firstError?: FirstErrorView | null;
  /** Why {@link firstError} is null (a successful episode, Owen values, no stored prefix values, …). */
  readonly firstErrorNote?: string | null;
}

/** Which rule located a first error: the replayed point of no return, or the first drop of at least δ. */
export const firstErrorOrigins = ['replayed', 'drop'] as const;

/** The first error of a failed episode, from its prefix values (credit-methods.md §3.13). */
export interface FirstErrorView {
  /** 0-based index of the first error. */
  readonly message: number;
  /** Its author's name; null when the author is not in the roster. */
  readonly agent: string | null;
  /** Every harmful message (the first error included), ascending. */
  readonly harmful: readonly number[];
  /** Messages after the first error that recovered the value, ascending. */
  readonly repairs: readonly number[];
  /** `replayed`: the message after which replays never succeeded again; `drop`: the first drop of at least `threshold`. */
  readonly origin: (typeof firstErrorOrigins)[number];
  /** δ of a `drop`, the near-zero ε of a `replayed` first error. */
  readonly threshold: number;
  /** Every value it rests on is exact (no removal without a replay, no estimate). */
  readonly exact: boolean;
}

/** Whether `value` is a {@link FirstErrorView} (the webview reads the field through it, so bad data shows nothing). */
export function isFirstErrorView(value: unknown): value is FirstErrorView {
  if (!isRecord(value)) return false;
  const { message, agent, harmful, repairs, origin, threshold, exact } = value;
  const indices = (list: unknown): boolean => Array.isArray(list) && list.every(isNonNegativeInt);
  return (
    isNonNegativeInt(message) &&
    (agent === null || typeof agent === 'string') &&
    indices(harmful) &&
    indices(repairs) &&
    isOneOf(firstErrorOrigins, origin) &&
    typeof threshold === 'number' &&
    Number.isFinite(threshold) &&
    typeof exact === 'boolean'
  );
}

export interface RecomputeParams {
  readonly ref: EpisodeRef;
  readonly method: ViewMethod;
  /** The evaluator chosen in the Recompute menu (one of `EvaluatorView.options`); absent: the default. */
  readonly evaluator?: EvaluatorKind;
}

/**
 * Where a recompute stands. A replay first `estimating` its cost, then `confirming` (the host asks
 * in a modal dialog; `message` carries the estimate), then `running`.
 */
export type RecomputeState = 'estimating' | 'confirming' | 'running' | 'done' | 'cancelled' | 'failed';

/** Progress of a recompute started from the panel. */
export interface RecomputeProgress {
  readonly method: ViewMethod;
  readonly state: RecomputeState;
  readonly done: number;
  readonly total: number;
  /** A failure reason, or a short note ("12 evaluator calls, 8 from the cache"; for a replay, tokens and time). */
  readonly message: string | null;
  /** What `done` / `total` count (default episodes; a replay counts model calls against the estimate). */
  readonly unit?: 'episodes' | 'calls';
  /** The recompute replays on a model server (its `host:port`). */
  readonly replay?: string | null;
}

export interface NavigateParams {
  readonly direction: 'next' | 'previous';
}

/** What the webview persists with `setState` (UI state only; data is asked from the host again). */
export interface EpisodeViewState {
  readonly version: number;
  readonly ref: EpisodeRef;
  readonly method: ViewMethod;
  /** First message visible when the state was saved. */
  readonly topSeq: number;
  /** Message with keyboard focus. */
  readonly focusedSeq: number;
  /** Messages the user expanded (long messages start collapsed). */
  readonly expanded: readonly number[];
}

export interface EpisodeReadyParams {
  readonly stateVersion: number;
  /** The episode restored from the webview's state, if any. */
  readonly ref: EpisodeRef | null;
}

function isEpisodeReadyParams(value: unknown): value is EpisodeReadyParams {
  return (
    isRecord(value) && isNonNegativeInt(value['stateVersion']) && (value['ref'] === null || isEpisodeRef(value['ref']))
  );
}

function isGetMessagesParams(value: unknown): value is GetMessagesParams {
  if (!isRecord(value) || !isEpisodeRef(value['ref'])) return false;
  const { offset, limit } = value;
  return (
    isNonNegativeInt(offset) && offset < 2 ** 31 && isNonNegativeInt(limit) && limit >= 1 && limit <= maxMessageWindow
  );
}

function isEpisodeParams(value: unknown): value is EpisodeParams {
  return isRecord(value) && isEpisodeRef(value['ref']);
}

function isMethodParams(value: unknown): value is GetCreditParams {
  return isRecord(value) && isEpisodeRef(value['ref']) && isViewMethod(value['method']);
}

function isRecomputeParams(value: unknown): value is RecomputeParams {
  if (!isMethodParams(value)) return false;
  const evaluator = (value as { evaluator?: unknown }).evaluator;
  return evaluator === undefined || isEvaluatorKind(evaluator);
}

function isNavigateParams(value: unknown): value is NavigateParams {
  return isRecord(value) && (value['direction'] === 'next' || value['direction'] === 'previous');
}

function isEmptyParams(value: unknown): value is Record<string, never> {
  return isRecord(value);
}

/** Webview → host: the script runs; (re)send the episode. */
export const EpisodeReadyCommand = new IpcCommand<EpisodeReadyParams>('episode/ready', isEpisodeReadyParams);
/** Webview → host: messages `[offset, offset + limit)` of the shown episode. */
export const GetMessagesRequest = new IpcRequest<GetMessagesParams, MessageWindow>(
  'episode/messages/get',
  isGetMessagesParams,
);
/** Webview → host: the task prompt of the shown episode (read back from the trace once per opening). */
export const GetPromptRequest = new IpcRequest<EpisodeParams, PromptView>('episode/prompt/get', isEpisodeParams);
/** Webview → host: the shown episode's own record in the trace, size-capped. */
export const GetRawRecordRequest = new IpcRequest<EpisodeParams, RawRecordView>('episode/raw/get', isEpisodeParams);
/** Webview → host: the per-message summary of the shown episode (authors, tokens, flags) for the swimlanes. */
export const GetTimelineRequest = new IpcRequest<EpisodeParams, TimelineView>('episode/timeline/get', isEpisodeParams);
/** Webview → host: the stored credit of the shown episode under one method. */
export const GetCreditRequest = new IpcRequest<GetCreditParams, EpisodeCreditView>(
  'episode/credit/get',
  isMethodParams,
);
/** Webview → host: recompute this episode's credit under one method (progress by {@link DidChangeRecomputeNotification}). */
export const RecomputeCommand = new IpcCommand<RecomputeParams>('episode/credit/recompute', isRecomputeParams);
/** Webview → host: cancel the running recompute. */
export const CancelRecomputeCommand = new IpcCommand<Record<string, never>>('episode/credit/cancel', isEmptyParams);
/** Webview → host: show the next or previous episode of the run (by step, group, sample). */
export const NavigateEpisodeCommand = new IpcCommand<NavigateParams>('episode/navigate', isNavigateParams);
/** Webview → host: open the trace file at the episode's line. */
export const RevealTraceLineCommand = new IpcCommand<Record<string, never>>('episode/traceLine/reveal', isEmptyParams);

/** Host → webview: the episode to show. */
export const DidChangeEpisodeNotification = new IpcNotification<EpisodeViewData>('episode/episode/didChange');
/** Host → webview: progress of a recompute; after `done` the webview asks for the credit again. */
export const DidChangeRecomputeNotification = new IpcNotification<RecomputeProgress>('episode/recompute/didChange');
/** Webview → host: open the shown episode's GRPO group in the group view, under the webview's method. */
export const OpenGroupCommand = new IpcCommand<GetCreditParams>('episode/group/open', isMethodParams);
/** Webview → host: open the dashboard on the run's flag windows that cover the shown episode's step. */
export const OpenRunWindowsCommand = new IpcCommand<EpisodeParams>('episode/runWindows/open', isEpisodeParams);
/** Webview → host: diff the shown episode with another, picked by the host (its group's rollouts first), under the webview's method. */
export const DiffWithCommand = new IpcCommand<GetCreditParams>('episode/diff/open', isMethodParams);
