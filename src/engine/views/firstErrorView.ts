import { splitSources } from '../../core/provenance';
import { defaultNearZero } from '../../credit/replay/firstErrorFromPrefixValues';
import type { EpisodeCreditRow, RosterAgent } from '../../store/episodeViewRepository';
import { perMessageMethods } from '../credit/creditMethod';
import { firstErrorByOrigin, firstErrorDelta, type FirstErrorOrigin } from '../credit/messageCredit';
import type { EpisodeCreditView, ViewMethod } from './viewTypes';

/** What the first error of one episode's credit view is read from. */
export interface FirstErrorInput {
  readonly method: ViewMethod;
  /** The logged team reward R = V(h_T). */
  readonly reward: number | null;
  readonly roster: readonly RosterAgent[];
  readonly authors: readonly number[];
  /** The rows the view shows (none when it shows no credit). */
  readonly rows: readonly EpisodeCreditRow[];
}

type FirstErrorFields = Pick<EpisodeCreditView, 'firstError' | 'firstErrorNote'>;

/**
 * The first error of a failed episode under a per-message method (credit-methods.md §3.13), read
 * from the stored prefix credit: message t's credit is `V(h_{t+1}) − V(h_t)` and `V(h_T)` is the
 * logged reward, so the prefix values are `V(h_t) = R − Σ_{j ≥ t} r_j`, and the rule is the credit
 * pass's own ({@link firstErrorByOrigin}): the point of no return when every value is replayed (the
 * rows' sources are `replayed`, with the logged reward), else the first drop of at least δ. Values
 * read back from the evaluator cache say `cached`, not whether they were replayed, so they take the
 * δ rule. Null with the reason (and what would answer) when the data cannot name one; no fields
 * for agent-level methods.
 */
export function firstErrorFields(input: FirstErrorInput): FirstErrorFields | Record<string, never> {
  if (!perMessageMethods.has(input.method)) return {};
  const { reward, method } = input;
  if (reward === null) return none('the episode logs no team reward, so it is not known to have failed');
  if (reward > 0) return none(`the episode succeeded (reward ${String(reward)}); first errors are located in failures`);
  if (method !== 'prefix')
    return none(
      'Owen values are not prefix values: the first error needs V(h_0) … V(h_T); compute Prefix credit to locate it',
    );
  const credit = messageCredit(input);
  if (credit === undefined)
    return none('no prefix values are stored for this episode: recompute Prefix credit to locate its first error');
  return located(input, credit, reward);
}

function located(input: FirstErrorInput, credit: readonly number[], reward: number): FirstErrorFields {
  const rows = input.rows.filter((r) => r.messageSeq !== null);
  const origin = originOf(rows);
  const values = prefixValues(credit, reward);
  const found = firstErrorByOrigin(values, origin);
  const threshold = origin === 'replayed' ? defaultNearZero : firstErrorDelta;
  if (found.index === undefined) return none(noErrorReason(origin, found.harmful.length > 0));
  const author = input.authors[found.index];
  return {
    firstError: {
      message: found.index,
      agent: input.roster.find((a) => a.ordinal === author)?.name ?? null,
      harmful: found.harmful,
      repairs: found.repairs,
      origin,
      threshold,
      exact: rows.every((r) => r.status === 'exact' && !r.approximate),
    },
    firstErrorNote: null,
  };
}

/** Every message's stored credit, in order; undefined when one is missing or not finite. */
function messageCredit({ rows, authors }: FirstErrorInput): number[] | undefined {
  if (authors.length === 0) return undefined;
  const credit: (number | undefined)[] = authors.map(() => undefined);
  for (const r of rows)
    if (r.messageSeq !== null && r.messageSeq >= 0 && r.messageSeq < credit.length && r.value !== null)
      credit[r.messageSeq] = r.value;
  return credit.every((c): c is number => c !== undefined && Number.isFinite(c)) ? credit : undefined;
}

/** `V(h_0) .. V(h_T)` from the per-message differences and `V(h_T) = R`. */
function prefixValues(credit: readonly number[], reward: number): Float64Array {
  const values = new Float64Array(credit.length + 1);
  values[credit.length] = reward;
  for (let t = credit.length - 1; t >= 0; t--) values[t] = (values[t + 1] as number) - (credit[t] as number);
  return values;
}

/** `replayed` when the rows rest on replays (and the logged reward) only. */
function originOf(rows: readonly EpisodeCreditRow[]): FirstErrorOrigin {
  const sources = new Set(rows.flatMap((r) => splitSources(r.source)));
  const onlyReplays = [...sources].every((s) => s === 'replayed' || s === 'logged');
  return sources.has('replayed') && onlyReplays ? 'replayed' : 'drop';
}

function noErrorReason(origin: FirstErrorOrigin, dropped: boolean): string {
  if (origin === 'drop')
    return `no message drops the prefix value by δ = ${String(firstErrorDelta)} or more, so none is named the first error`;
  return dropped
    ? 'every message that dropped the replayed value to near zero was repaired later: none lost the episode for good'
    : `the replayed value never falls from above ε = ${String(defaultNearZero)} to near zero: the episode was lost from the prompt on`;
}

function none(reason: string): FirstErrorFields {
  return { firstError: null, firstErrorNote: reason };
}
