import type { IndexTally } from '../src/core/indexProgress';
import type { IndexSummary } from '../src/core/indexSummary';

type Pass = IndexTally & { readonly maxRssBytes: number; readonly wallMs: number };

export interface DatasetResult {
  readonly name: string;
  readonly bare: { readonly bytes: number; readonly lines: number; readonly ms: number; readonly maxRssBytes: number };
  readonly cold: Pass;
  readonly warm: Pass;
  readonly summary: IndexSummary;
  readonly indexBytes: number;
}

const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);
const rate = (bytes: number, ms: number): string => (ms > 0 ? ((bytes / 1e6 / ms) * 1000).toFixed(1) : '∞');

/** The benchmark table in Markdown, one row per dataset. */
export function formatReport(results: readonly DatasetResult[]): string {
  const header = [
    '| dataset | trace MB | episodes | messages | bare JSON.parse MB/s | index MB/s | ratio | episodes/s | search phase s | total cold s | peak RSS MB | re-run s | index MB (% of trace) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const rows = results.map((r) => {
    const bareRate = (r.bare.bytes / r.bare.ms) * 1000;
    const indexRate = (r.cold.bytesRead / r.cold.indexMs) * 1000;
    return [
      r.name,
      mb(r.bare.bytes),
      r.summary.episodes.toLocaleString('en-US'),
      r.summary.messages.toLocaleString('en-US'),
      rate(r.bare.bytes, r.bare.ms),
      rate(r.cold.bytesRead, r.cold.indexMs),
      `${((indexRate / bareRate) * 100).toFixed(0)}%`,
      Math.round((r.cold.episodesAdded / r.cold.indexMs) * 1000).toLocaleString('en-US'),
      (r.cold.searchMs / 1000).toFixed(2),
      (r.cold.wallMs / 1000).toFixed(2),
      mb(r.cold.maxRssBytes),
      (r.warm.wallMs / 1000).toFixed(2),
      `${mb(r.indexBytes)} (${((r.indexBytes / r.bare.bytes) * 100).toFixed(0)}%)`,
    ].join(' | ');
  });
  return [...header, ...rows.map((row) => `| ${row} |`)].join('\n');
}
