import type { CreditRow } from '../../core/creditInput';
import { firstError, type FirstErrorResult } from '../../credit/game/firstError';
import { firstErrorFromPrefixValues } from '../../credit/replay/firstErrorFromPrefixValues';
import { owenValues } from '../../credit/game/owenValues';
import { prefixValueCredit } from '../../credit/game/prefixValueCredit';
import type { CoalitionValues } from './coalitionValues';
import { maxOwenMessages } from './creditMethod';
import { isConserved } from '../../credit/game/conservation';
import {
  defaultMonteCarlo,
  estimateInterval,
  estimateProvenance,
  owenMonteCarloCredit,
  unionInterval,
  type MonteCarloSettings,
} from './monteCarloCredit';
import { provenanceOf, type RowProvenance } from './creditRows';

/** Per-message credit of one episode, with the first error of a failed episode (prefix only). */
export interface MessageCreditResult {
  readonly rows: CreditRow[];
  readonly firstError?: FirstErrorResult;
}

/** Drop in prefix value that counts as an error (credit-methods.md §3.13, E11). */
export const firstErrorDelta = 0.25;

/** Which rule located a first error: the replayed point of no return, or the first drop of at least δ. */
export type FirstErrorOrigin = 'replayed' | 'drop';

/**
 * Per-message credit that conserves the episode's credit (credit-methods.md §3.12): `prefix`
 * gives message t the change in value its addition makes, V(h_t) − V(h_{t−1}) (m + 1 values, any
 * length; summing to V(h_T) − V(h_0)); `owen` gives Owen values with messages grouped by author, so
 * each agent's messages sum to its Shapley value: exact up to {@link maxOwenMessages} messages, by
 * Monte Carlo beyond (`monteCarlo`: two-level permutations, estimates with 95% intervals, rows
 * `estimated`). Agent rows are the sums of their messages. The full transcript's value is the
 * logged reward when there is one (and a message subset that keeps whole agents takes the logged
 * coalition value), so the credit conserves the logged reward; the sum is checked, and an episode
 * whose credit does not add up fails with the reason rather than being stored.
 */
export async function messageCredit(
  values: CoalitionValues,
  method: 'prefix' | 'owen',
  monteCarlo: MonteCarloSettings = defaultMonteCarlo,
): Promise<MessageCreditResult> {
  const authors = values.episode.messageAuthors;
  const t = authors.length;
  if (method === 'prefix') return prefixCredit(values);
  const unions = values.episode.agents.map(() => [] as number[]);
  authors.forEach((author, seq) => unions[author]?.push(seq));
  if (t > maxOwenMessages) return sampledOwenCredit(values, unions, monteCarlo);
  const used = Array.from({ length: 2 ** t }, (_, mask) => BigInt(mask));
  await values.require(used);
  const credit = owenValues(unions, t, (mask) => values.value(BigInt(mask)));
  checkConservation(credit, values, method);
  return { rows: rowsOf(values, credit, provenanceOf(used.map((m) => values.info(m)))) };
}

/** Prefix credit from the `t + 1` prefix masks (resolved once each), with the first error of a failed episode. */
async function prefixCredit(values: CoalitionValues): Promise<MessageCreditResult> {
  const t = values.episode.messageAuthors.length;
  const used = Array.from({ length: t + 1 }, (_, k) => (1n << BigInt(k)) - 1n);
  await values.require(used);
  const v = used.map((mask) => values.value(mask));
  const credit = prefixValueCredit(v);
  checkConservation(credit, values, 'prefix');
  const rows = rowsOf(values, credit, provenanceOf(used.map((m) => values.info(m))));
  return (values.episode.reward ?? 0) <= 0 ? { rows, firstError: firstErrorOf(v, used, values) } : { rows };
}

/**
 * Monte-Carlo Owen rows: each message's estimate with its standard error, 95% interval and the
 * permutations walked, `estimated` (or `approximate` when a value used is, `exact` when a one-agent
 * episode was enumerated), source `+estimated`; each agent's row (the sum of its messages) with the
 * interval of its own total over the same orders.
 */
async function sampledOwenCredit(
  values: CoalitionValues,
  unions: readonly (readonly number[])[],
  settings: MonteCarloSettings,
): Promise<MessageCreditResult> {
  const r = await owenMonteCarloCredit(values, unions, settings);
  checkConservation(r.values, values, 'owen');
  const provenance = estimateProvenance(values, r);
  return {
    rows: rowsOf(values, r.values, provenance, {
      message: (seq) => estimateInterval(r, seq),
      agent: (i) => unionInterval(r, i),
    }),
  };
}

/**
 * The first error of a failed episode from its prefix values: the point of no return when every
 * prefix value before the last was replayed (docs/replay.md, "Per-message credit and first errors"),
 * else the first drop of at least δ (credit-methods.md §3.13).
 */
function firstErrorOf(v: readonly number[], prefixes: readonly bigint[], values: CoalitionValues): FirstErrorResult {
  const replayed = v.length > 1 && prefixes.slice(0, -1).every((mask) => values.info(mask).replayed === true);
  return firstErrorByOrigin(v, replayed ? 'replayed' : 'drop');
}

/**
 * The first error of `V(h_0) .. V(h_T)` under one rule (credit-methods.md §3.13): `replayed`, the
 * point of no return ({@link firstErrorFromPrefixValues}); `drop`, the first drop of at least
 * {@link firstErrorDelta}. The credit pass and the Episode view both locate first errors here.
 */
export function firstErrorByOrigin(v: ArrayLike<number>, origin: FirstErrorOrigin): FirstErrorResult {
  return origin === 'replayed' ? firstErrorFromPrefixValues(v) : firstError(v, firstErrorDelta);
}

function checkConservation(credit: Float64Array, values: CoalitionValues, method: string): void {
  const total = values.value(values.full) - values.value(0n);
  if (!isConserved(credit, total, 1e-6)) {
    const sum = credit.reduce((s, c) => s + c, 0);
    throw new Error(
      `${method} credit does not conserve: the messages sum to ${sum} but v(all) − v(none) = ${total} (a NaN value, or an evaluator that is not deterministic)`,
    );
  }
}

/** The interval fields of estimated rows: of message `seq`, of agent `i` (roster order). */
interface RowIntervals {
  readonly message?: (seq: number) => Partial<CreditRow>;
  readonly agent?: (i: number) => Partial<CreditRow>;
}

/** Message and agent rows: one per message, then each agent's sum. */
function rowsOf(
  values: CoalitionValues,
  credit: Float64Array,
  provenance: RowProvenance,
  interval: RowIntervals = {},
): CreditRow[] {
  const episode = values.episode;
  const authors = episode.messageAuthors;
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
      ...interval.message?.(seq),
    };
  });
  episode.agents.forEach((agent, i) =>
    rows.push({
      ...base,
      episodeId: episode.episodeId,
      agentId: agent.agentId,
      messageSeq: null,
      value: sums[i] ?? 0,
      ...interval.agent?.(i),
    }),
  );
  return rows;
}
