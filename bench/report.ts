import type { IndexTally } from '../src/core/indexProgress';
import type { CreditPass } from './creditBench';
import type { ConvergenceRow } from './monteCarloConvergence';
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

/** The credit benchmark table: episodes/s and where the coalition values came from. */
export function formatCreditPasses(dataset: string, passes: readonly CreditPass[]): string {
  const header = [
    `Credit passes on the ${dataset} run (planner-solver-verifier, built-in final-answer evaluator):`,
    '"graded": the index copy whose logged coalition values are distinct fractions (bench/gradedValues.ts), where the run\'s 0/1 rewards give three credit values.',
    '',
    '| pass | method | values from | episodes | seconds | episodes/s | logged | cached | evaluated | cache hit rate | peak RSS MB |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const rows = passes.map((p, i) => {
    const lookups = p.cached + p.evaluated;
    const source = p.useLogged ? `trace (logged${p.graded === true ? ', graded' : ''})` : 'evaluator + cache';
    return [
      i + 1,
      p.method,
      source,
      p.episodes.toLocaleString('en-US'),
      (p.ms / 1000).toFixed(2),
      Math.round((p.episodes / p.ms) * 1000).toLocaleString('en-US'),
      p.logged.toLocaleString('en-US'),
      p.cached.toLocaleString('en-US'),
      p.evaluated.toLocaleString('en-US'),
      lookups > 0 ? `${((p.cached / lookups) * 100).toFixed(1)}%` : 'n/a',
      mb(p.maxRssBytes),
    ].join(' | ');
  });
  return [...header, ...rows.map((r) => `| ${r} |`)].join('\n');
}

/** Monte-Carlo Shapley convergence table. */
export function formatConvergence(rows: readonly ConvergenceRow[]): string {
  const header = [
    'Monte-Carlo Shapley vs exact, 200 seeded 8-agent threshold games (1,600 agent values per row):',
    '',
    '| permutations | mean abs error | max abs error | mean stderr | 95% CI coverage | distinct v(S) per game |',
    '|---|---|---|---|---|---|',
  ];
  const body = rows.map(
    (r) =>
      `| ${r.permutations} | ${r.meanAbsError.toFixed(4)} | ${r.maxAbsError.toFixed(3)} | ${r.meanStderr.toFixed(4)} | ${(r.coverage * 100).toFixed(1)}% | ${r.evaluationsPerGame.toFixed(0)} |`,
  );
  return [...header, ...body].join('\n');
}
