import { creditShares } from '../../credit/audit/creditShare';
import { joinSources, splitSources, weakerStatus, type ComputedStatus, type ValueSource } from '../../core/provenance';
import type { CreditOutputRow, CreditProblemRow } from '../../store/creditRepository';
import { AgentSummaryTally } from '../credit/creditSummary';

/** One window of consecutive training steps of one agent's credit (`from` null: the episodes without a step). */
export interface CreditWindow {
  readonly from: number | null;
  readonly to: number | null;
  /** Episodes whose credit is in the mean (exact or estimated values). */
  readonly episodes: number;
  readonly mean: number | null;
  /** Normal-approximation 95% interval of the mean (credit-methods.md §5.3, as the CLI's credit summary); null below 2 episodes. */
  readonly ci95: readonly [number, number] | null;
  /** The agent's share of the window's positive mean credit among the run's agents (credit-methods.md §5.3). */
  readonly share: number | null;
  /** The weakest status of the values in the mean; null without one. */
  readonly status: ComputedStatus | null;
  readonly statusCounts: Readonly<Record<ComputedStatus, number>>;
  /** Where the values came from (logged, replayed, checked, cached, estimated), joined by `+`. */
  readonly source: string | null;
  /** Approximate values, left out of the mean as the dashboard leaves them out (docs/credit-provenance.md). */
  readonly approximateLeftOut: number;
  readonly notIdentifiable: number;
  readonly failed: number;
}

interface Bucket {
  readonly tally: AgentSummaryTally;
  readonly sources: Map<string, Set<ValueSource>>;
  readonly approximate: Map<string, number>;
  notIdentifiable: number;
  failed: number;
}

/**
 * `agent`'s agent-level credit of `method` in windows of `width` training steps starting at `base`
 * (the windows that hold a value or a problem, ascending; the step-less episodes last). Means and
 * intervals are over exact and estimated values (AgentSummaryTally); shares compare the agent's
 * window mean with every agent's (creditShares). NaN values are skipped.
 */
export function creditWindows(
  rows: Iterable<CreditOutputRow>,
  problems: readonly CreditProblemRow[],
  options: { readonly agent: string; readonly method: string; readonly width: number; readonly base: number },
): CreditWindow[] {
  const buckets = new Map<number | null, Bucket>();
  const keyOf = (step: number | null): number | null =>
    step === null ? null : Math.floor((step - options.base) / options.width);
  for (const row of rows) {
    if (row.message_seq !== null || row.method !== options.method || row.value === null) continue;
    const bucket = open(buckets, keyOf(row.train_step));
    if (row.status === 'approximate') {
      bucket.approximate.set(row.agent, (bucket.approximate.get(row.agent) ?? 0) + 1);
      continue;
    }
    bucket.tally.add(row.agent, row.train_step ?? 0, row.value, row.status === 'estimated' ? 'estimated' : 'exact');
    const sources = bucket.sources.get(row.agent) ?? new Set<ValueSource>();
    for (const s of splitSources(row.source)) sources.add(s);
    bucket.sources.set(row.agent, sources);
  }
  for (const p of problems) {
    if (p.method !== options.method) continue;
    const bucket = open(buckets, keyOf(p.train_step));
    if (p.status === 'not-identifiable') bucket.notIdentifiable++;
    else bucket.failed++;
  }
  const keys = [...buckets.keys()].sort((a, b) => (a === null ? 1 : b === null ? -1 : a - b));
  return keys.map((key) => windowOf(key, buckets.get(key) as Bucket, options));
}

function open(buckets: Map<number | null, Bucket>, key: number | null): Bucket {
  let bucket = buckets.get(key);
  if (!bucket) {
    bucket = {
      tally: new AgentSummaryTally(),
      sources: new Map(),
      approximate: new Map(),
      notIdentifiable: 0,
      failed: 0,
    };
    buckets.set(key, bucket);
  }
  return bucket;
}

function windowOf(
  key: number | null,
  bucket: Bucket,
  options: { readonly agent: string; readonly width: number; readonly base: number },
): CreditWindow {
  const summaries = bucket.tally.summaries();
  const mine = summaries.find((s) => s.agent === options.agent);
  const shares = creditShares(summaries.map((s) => (s.episodes > 0 ? s.mean : 0)));
  const at = summaries.findIndex((s) => s.agent === options.agent);
  const n = mine?.episodes ?? 0;
  const counts = mine?.status ?? { exact: 0, estimated: 0, approximate: 0 };
  const from = key === null ? null : options.base + key * options.width;
  return {
    from,
    to: from === null ? null : from + options.width - 1,
    episodes: n,
    mean: n > 0 && mine ? mine.mean : null,
    ci95: n >= 2 && mine ? mine.ci : null,
    share: n > 0 ? (shares[at] ?? null) : null,
    status: statusOf(counts),
    statusCounts: counts,
    source: sourceOf(bucket.sources.get(options.agent)),
    approximateLeftOut: bucket.approximate.get(options.agent) ?? 0,
    notIdentifiable: bucket.notIdentifiable,
    failed: bucket.failed,
  };
}

function statusOf(counts: Readonly<Record<ComputedStatus, number>>): ComputedStatus | null {
  const present = (['exact', 'estimated'] as const).filter((s) => counts[s] > 0);
  return present.reduce<ComputedStatus | null>((w, s) => (w === null ? s : weakerStatus(w, s)), null);
}

function sourceOf(sources: ReadonlySet<ValueSource> | undefined): string | null {
  return sources && sources.size > 0 ? joinSources(sources) : null;
}
