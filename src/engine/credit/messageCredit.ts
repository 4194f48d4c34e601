import type { CreditRow } from '../../core/creditInput';
import { firstError, type FirstErrorResult } from '../../credit/game/firstError';
import { firstErrorFromPrefixValues } from '../../credit/replay/firstErrorFromPrefixValues';
import { owenValues } from '../../credit/game/owenValues';
import { prefixValueCredit } from '../../credit/game/prefixValueCredit';
import type { CoalitionValues } from './coalitionValues';
import { maxOwenMessages } from './creditMethod';
import { isConserved } from '../../credit/game/conservation';
import { provenanceOf, type RowProvenance } from './creditRows';

/** Per-message credit of one episode, with the first error of a failed episode (prefix only). */
export interface MessageCreditResult {
  readonly rows: CreditRow[];
  readonly firstError?: FirstErrorResult;
}

/** Drop in prefix value that counts as an error (credit-methods.md §3.13, E11). */
const firstErrorDelta = 0.25;

/**
 * Per-message credit that conserves the episode's credit (credit-methods.md §3.12): `prefix`
 * gives message t the change in value its addition makes, V(h_t) − V(h_{t−1}) (m + 1 values, any
 * length; summing to V(h_T) − V(h_0)); `owen` gives Owen values with messages grouped by author, so
 * each agent's messages sum to its Shapley value (exact up to {@link maxOwenMessages} messages).
 * Agent rows are the sums of their messages. The full transcript's value is the logged reward when
 * there is one (and a message subset that keeps whole agents takes the logged coalition value), so
 * the credit conserves the logged reward; the sum is checked, and an episode whose credit does not
 * add up fails with the reason rather than being stored.
 */
export async function messageCredit(values: CoalitionValues, method: 'prefix' | 'owen'): Promise<MessageCreditResult> {
  const episode = values.episode;
  const authors = values.episode.messageAuthors;
  const t = authors.length;
  if (method === 'owen' && t > maxOwenMessages) {
    throw new Error(
      `exact Owen values need 2^${t} message subsets and are limited to ${maxOwenMessages} messages; this episode has ${t} (use prefix credit, or owen on shorter episodes)`,
    );
  }
  let credit: Float64Array;
  let error: FirstErrorResult | undefined;
  let used: bigint[];
  if (method === 'prefix') {
    used = Array.from({ length: t + 1 }, (_, k) => (1n << BigInt(k)) - 1n);
    await values.require(used);
    const v = used.map((mask) => values.value(mask));
    credit = prefixValueCredit(v);
    if ((episode.reward ?? 0) <= 0) error = firstErrorOf(v, used, values);
  } else {
    const unions = episode.agents.map((_, agent) => authors.flatMap((author, seq) => (author === agent ? [seq] : [])));
    used = Array.from({ length: 2 ** t }, (_, mask) => BigInt(mask));
    await values.require(used);
    credit = owenValues(unions, t, (mask) => values.value(BigInt(mask)));
  }
  checkConservation(credit, values.value(values.full) - values.value(0n), method);
  const provenance = provenanceOf(used.map((m) => values.info(m)));
  return { rows: rowsOf(values, authors, credit, provenance), ...(error ? { firstError: error } : {}) };
}

/**
 * The first error of a failed episode from its prefix values: the point of no return when every
 * prefix value before the last was replayed (docs/replay.md, "Per-message credit and first errors"),
 * else the first drop of at least δ (credit-methods.md §3.13).
 */
function firstErrorOf(v: readonly number[], prefixes: readonly bigint[], values: CoalitionValues): FirstErrorResult {
  const replayed = v.length > 1 && prefixes.slice(0, -1).every((mask) => values.info(mask).replayed === true);
  return replayed ? firstErrorFromPrefixValues(v) : firstError(v, firstErrorDelta);
}

function checkConservation(credit: Float64Array, total: number, method: string): void {
  if (!isConserved(credit, total, 1e-6)) {
    const sum = credit.reduce((s, c) => s + c, 0);
    throw new Error(
      `${method} credit does not conserve: the messages sum to ${sum} but v(all) − v(none) = ${total} (a NaN value, or an evaluator that is not deterministic)`,
    );
  }
}

/** Message and agent rows: one per message, then each agent's sum. */
function rowsOf(
  values: CoalitionValues,
  authors: readonly number[],
  credit: Float64Array,
  provenance: RowProvenance,
): CreditRow[] {
  const episode = values.episode;
  const base = {
    stderr: null,
    ciLow: null,
    ciHigh: null,
    n: null,
    ...provenance,
    intervention: null,
    advantage: null,
  } as const;
  const sums = new Float64Array(episode.agents.length);
  const rows: CreditRow[] = authors.map((author, seq) => {
    sums[author] = (sums[author] ?? 0) + (credit[seq] ?? 0);
    return {
      ...base,
      episodeId: episode.episodeId,
      agentId: episode.agents[author]?.agentId ?? -1,
      messageSeq: seq,
      value: credit[seq] ?? Number.NaN,
    };
  });
  episode.agents.forEach((agent, i) =>
    rows.push({ ...base, episodeId: episode.episodeId, agentId: agent.agentId, messageSeq: null, value: sums[i] ?? 0 }),
  );
  return rows;
}
