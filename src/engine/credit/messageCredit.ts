import type { CreditRow } from '../../core/creditInput';
import { firstError, type FirstErrorResult } from '../../credit/game/firstError';
import { owenValues } from '../../credit/game/owenValues';
import { prefixValueCredit } from '../../credit/game/prefixValueCredit';
import type { CoalitionValues } from './coalitionValues';
import { maxOwenMessages } from './creditMethod';

/** Per-message credit of one episode, with the first error of a failed episode (prefix only). */
export interface MessageCreditResult {
  readonly rows: CreditRow[];
  readonly firstError?: FirstErrorResult;
}

/** Messages addressable by one bitmask. */
const maxMaskMessages = 30;
/** Drop in prefix value that counts as an error (credit-methods.md §3.13, E11). */
const firstErrorDelta = 0.25;

/**
 * Per-message credit that conserves the episode's credit (credit-methods.md §3.12): `prefix`
 * gives message t the change in value its addition makes, V(h_t) − V(h_{t−1}) (summing to
 * V(h_T) − V(h_0)); `owen` gives Owen values with messages grouped by author, so each agent's
 * messages sum to its Shapley value. Agent rows are the sums of their messages.
 */
export async function messageCredit(values: CoalitionValues, method: 'prefix' | 'owen'): Promise<MessageCreditResult> {
  const episode = values.episode;
  const authors = values.episode.messageAuthors;
  const t = authors.length;
  if (t > maxMaskMessages || (method === 'owen' && t > maxOwenMessages)) {
    throw new Error(`${method} credit is limited to ${method === 'owen' ? maxOwenMessages : maxMaskMessages} messages; this episode has ${t}`);
  }
  let credit: Float64Array;
  let error: FirstErrorResult | undefined;
  if (method === 'prefix') {
    const prefixes = Array.from({ length: t + 1 }, (_, k) => (k === 0 ? 0 : 2 ** k - 1));
    await values.require(prefixes);
    const v = prefixes.map((mask) => values.value(mask));
    credit = prefixValueCredit(v);
    if ((episode.reward ?? 0) <= 0) error = firstError(v, firstErrorDelta);
  } else {
    const unions = episode.agents.map((_, agent) => authors.flatMap((author, seq) => (author === agent ? [seq] : [])));
    await values.require(Array.from({ length: 2 ** t }, (_, mask) => mask));
    credit = owenValues(unions, t, (mask) => values.value(mask));
  }
  return { rows: rowsOf(values, authors, credit, method === 'prefix'), ...(error ? { firstError: error } : {}) };
}

/** Message and agent rows: one per message, then each agent's sum. */
function rowsOf(values: CoalitionValues, authors: readonly number[], credit: Float64Array, approximate: boolean): CreditRow[] {
  const episode = values.episode;
  const source = values.source();
  const base = { stderr: null, ciLow: null, ciHigh: null, n: null, approximate, source, advantage: null } as const;
  const sums = new Float64Array(episode.agents.length);
  const rows: CreditRow[] = authors.map((author, seq) => {
    sums[author] = (sums[author] ?? 0) + (credit[seq] ?? 0);
    return { ...base, episodeId: episode.episodeId, agentId: episode.agents[author]?.agentId ?? -1, messageSeq: seq, value: credit[seq] ?? Number.NaN };
  });
  episode.agents.forEach((agent, i) => rows.push({ ...base, episodeId: episode.episodeId, agentId: agent.agentId, messageSeq: null, value: sums[i] ?? 0 }));
  return rows;
}
