import type { CoalitionEvidence, EpisodeCreditRow, RosterAgent } from '../../store/episodeViewRepository';
import { coalitionMethods, perMessageMethods } from '../credit/creditMethod';
import { joinSources, splitSources, weakerStatus, type ComputedStatus } from '../../core/provenance';
import { firstErrorFields } from './firstErrorView';
import type { AgentCreditView, CreditStatus, EpisodeCreditView, ViewMethod } from './viewTypes';

/** What the credit view of one episode and method is built from. */
export interface CreditViewInput {
  readonly method: ViewMethod;
  readonly evaluatorConfigured: boolean;
  /** The logged team reward. */
  readonly reward: number | null;
  readonly roster: readonly RosterAgent[];
  /** Roster ordinal of each message's author, in message order. */
  readonly authors: readonly number[];
  /** Rows of the parameter set computed last (agent rows and per-message rows). */
  readonly rows: readonly EpisodeCreditRow[];
  readonly error:
    | {
        readonly reason: string;
        readonly computedAt: string;
        readonly status?: string;
        readonly remedy?: string | null;
      }
    | undefined;
  readonly evidence: CoalitionEvidence;
}

/**
 * The episode's credit under one method: `failed` when the latest result is a failure, `computed`
 * from the stored rows (or, for `shared` with none stored, from the logged team reward), otherwise
 * `no-evaluator` when the method needs values that are neither logged nor cached and no evaluator
 * is configured, else `not-computed`. Message credit is the per-message values when stored, else
 * each agent's value spread evenly over its messages (silent agents contribute nothing), so the
 * messages sum to the total of the agents that spoke. A per-message method on a failed episode
 * also carries the first error of the credit it shows (see firstErrorFields).
 */
export function episodeCreditView(input: CreditViewInput): EpisodeCreditView {
  const view = creditViewOf(input);
  return { ...view, ...firstErrorFields({ ...input, rows: view.status === 'computed' ? input.rows : [] }) };
}

function creditViewOf(input: CreditViewInput): EpisodeCreditView {
  const { rows, error, method } = input;
  const latest = rows.reduce<string | null>(
    (max, r) => (max === null || r.computedAt > max ? r.computedAt : max),
    null,
  );
  if (error && (latest === null || error.computedAt > latest)) {
    if (error.status === 'not-identifiable')
      return { ...emptyView(input, 'not-identifiable', error.reason, error.computedAt), remedy: error.remedy ?? null };
    return emptyView(input, 'failed', error.reason, error.computedAt);
  }
  if (rows.length > 0) return storedView(input, latest);
  if (method === 'shared') {
    const reward = input.reward;
    if (reward === null) return emptyView(input, 'not-computed', 'the episode logs no team reward', null);
    const agents = input.roster.map((a) => agentView(a.name, { value: reward, status: 'exact' }));
    return {
      ...base(input, 'computed', null, null),
      source: 'logged',
      valueStatus: 'exact',
      agents,
      messageCredit: spread(input, new Map(input.roster.map((a) => [a.agentId, reward]))),
    };
  }
  const missing = missingValues(input);
  return emptyView(
    input,
    missing ? 'no-evaluator' : 'not-computed',
    missing ?? `not computed yet under ${method}; recompute to compute it`,
    null,
  );
}

function storedView(input: CreditViewInput, computedAt: string | null): EpisodeCreditView {
  const agentRows = new Map(input.rows.filter((r) => r.messageSeq === null).map((r) => [r.agentId, r]));
  const agents = input.roster.map((a) => agentView(a.name, agentRows.get(a.agentId) ?? {}));
  const sources = new Set(input.rows.flatMap((r) => splitSources(r.source)));
  const perMessage = input.rows.some((r) => r.messageSeq !== null);
  const values = new Map([...agentRows].map(([id, r]) => [id, r.value]));
  return {
    ...base(input, 'computed', null, computedAt),
    approximate: input.rows.some((r) => r.approximate),
    source: sources.size === 0 ? null : joinSources(sources),
    valueStatus: input.rows.reduce<ComputedStatus | null>(
      (worst, r) => (worst === null ? asStatus(r.status) : weakerStatus(worst, asStatus(r.status))),
      null,
    ),
    agents,
    messageCredit: perMessage ? messageValues(input) : spread(input, values),
    messageCreditKind: perMessage ? 'per-message' : 'spread',
    ...messageMargins(input),
  };
}

function base(
  input: CreditViewInput,
  status: CreditStatus,
  reason: string | null,
  computedAt: string | null,
): EpisodeCreditView {
  return {
    method: input.method,
    status,
    reason,
    remedy: null,
    valueStatus: null,
    approximate: false,
    source: null,
    computedAt,
    shared: input.reward,
    agents: [],
    messageCredit: [],
    messageCreditKind: 'spread',
  };
}

/** Every roster agent without a value, and no message credit. */
function emptyView(
  input: CreditViewInput,
  status: CreditStatus,
  reason: string,
  computedAt: string | null,
): EpisodeCreditView {
  return {
    ...base(input, status, reason, computedAt),
    agents: input.roster.map((a) => agentView(a.name, {})),
    messageCredit: input.authors.map(() => null),
  };
}

function agentView(
  agent: string,
  row: Partial<Pick<EpisodeCreditRow, 'value' | 'ciLow' | 'ciHigh' | 'n' | 'advantage' | 'status'>>,
): AgentCreditView {
  return {
    agent,
    value: row.value ?? null,
    ciLow: row.ciLow ?? null,
    ciHigh: row.ciHigh ?? null,
    n: row.n ?? null,
    advantage: row.advantage ?? null,
    status: row.value === undefined || row.value === null ? null : (row.status ?? null),
  };
}

/** A stored row's status as a computed one (anything unknown reads as exact, as the credit pass writes it). */
export function asStatus(status: string): ComputedStatus {
  return status === 'estimated' || status === 'approximate' ? status : 'exact';
}

function messageValues(input: CreditViewInput): (number | null)[] {
  const credit: (number | null)[] = input.authors.map(() => null);
  for (const r of input.rows)
    if (r.messageSeq !== null && r.messageSeq >= 0 && r.messageSeq < credit.length) credit[r.messageSeq] = r.value;
  return credit;
}

/** The interval half-widths of estimated message rows (Monte-Carlo Owen), when at least one message has one. */
function messageMargins(input: CreditViewInput): Pick<EpisodeCreditView, 'messageMargin'> {
  let margins: (number | null)[] | undefined;
  for (const r of input.rows) {
    if (r.messageSeq === null || r.messageSeq < 0 || r.messageSeq >= input.authors.length) continue;
    if (r.ciLow === null || r.ciHigh === null || r.value === null) continue;
    margins ??= input.authors.map(() => null);
    margins[r.messageSeq] = (r.ciHigh - r.ciLow) / 2;
  }
  return margins ? { messageMargin: margins } : {};
}

/** Each agent's value (by agent id) divided evenly over its messages. */
function spread(input: CreditViewInput, values: ReadonlyMap<number, number | null>): (number | null)[] {
  const byOrdinal = new Map(input.roster.map((a) => [a.ordinal, a.agentId]));
  const counts = new Map<number, number>();
  for (const author of input.authors) counts.set(author, (counts.get(author) ?? 0) + 1);
  return input.authors.map((author) => {
    const agentId = byOrdinal.get(author);
    const value = agentId === undefined ? null : (values.get(agentId) ?? null);
    return value === null ? null : value / (counts.get(author) ?? 1);
  });
}

/** Why the method cannot run on this episode without an evaluator; undefined when it can (or might). */
function missingValues({ method, evidence, evaluatorConfigured }: CreditViewInput): string | undefined {
  if (method === 'routing')
    return evidence.routing
      ? undefined
      : "routing credit needs the router's logged probabilities; this episode has none";
  if (evaluatorConfigured) return undefined;
  if (coalitionMethods.has(method) && !evidence.coalitions && !evidence.counterfactuals && !evidence.agentEvaluations) {
    return `${method} needs coalition values: the trace logs none, none are cached and no evaluator is configured`;
  }
  if (perMessageMethods.has(method) && !evidence.messageEvaluations) {
    return `${method} needs the value of message subsets: none are cached and no evaluator is configured`;
  }
  return undefined;
}
