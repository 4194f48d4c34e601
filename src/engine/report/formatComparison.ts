import type { AgentComparison, FlagChange, PairedDifference, RunComparison } from '../../core/runComparison';
import { count, csvCell } from './format';
import { pValue, significant, stepSpan } from './flagEvidence';

/**
 * `+0.129 [0.111, 0.147], p < 0.001 (normal, n = 1,280)`; with `points` the figures are percentage
 * points (`+11.0 pp [9.7, 12.3]`); a sentence when no pair has a value.
 */
export function differenceText(d: PairedDifference, points = false): string {
  if (d.n === 0) return 'no pair has a value on both sides';
  const figure = (x: number): string => (points ? (x * 100).toFixed(1).replace('-', '\u2212') : significant(x));
  const sign = d.difference > 0 ? '+' : '';
  const unit = points ? ' pp' : '';
  const spread = Number.isNaN(d.p)
    ? 'no interval (one pair)'
    : `[${figure(d.interval[0])}, ${figure(d.interval[1])}], ${pValue(d.p)}`;
  return `${sign}${figure(d.difference)}${unit} ${spread} (${d.test === 't' ? 't' : 'normal'}, n = ${count(d.n)})`;
}

/** A share in percent to one decimal (`21.0%`), `—` when the side has none. */
function percent(share: number): string {
  return Number.isFinite(share) ? `${(share * 100).toFixed(1)}%` : '—';
}

/**
 * The terminal report of a comparison (docs/credit-methods.md §5.5): the sides and the pairing,
 * the team reward difference, per agent the credit and share differences with intervals, status
 * and sources, the flags that changed, the example pairs and the notes.
 */
export function formatComparison(c: RunComparison): string[] {
  const lines = [
    `Compare ${c.method} credit: A = ${c.a.label}, B = ${c.b.label}`,
    `  paired by ${c.pairing.key === 'none' ? 'nothing (no pair)' : c.pairing.key}: ${count(c.pairing.pairs)} pairs; unpaired ${count(c.pairing.unpairedA)} of ${count(c.pairing.episodesA)} (A), ${count(c.pairing.unpairedB)} of ${count(c.pairing.episodesB)} (B)`,
    `  team reward ${significant(c.reward.meanA)} → ${significant(c.reward.meanB)}: B − A ${differenceText(c.reward)}`,
  ];
  for (const agent of c.agents) lines.push(...agentLines(agent));
  lines.push(...flagLines(c.flags));
  if (c.examples.length > 0) {
    lines.push('  largest changes (pairs):');
    for (const e of c.examples)
      lines.push(
        `    ${e.agent.padEnd(14)} ${e.key}: ${e.episodeA} ${significant(e.creditA)} → ${e.episodeB} ${significant(e.creditB)}`,
      );
  }
  for (const note of c.notes) lines.push(`  note: ${note}`);
  return lines;
}

function agentLines(a: AgentComparison): string[] {
  const status = a.statusA === a.statusB ? a.statusA : `${a.statusA} → ${a.statusB}`;
  const sources = a.sourceA === a.sourceB ? (a.sourceA ?? '') : `${a.sourceA ?? '—'} → ${a.sourceB ?? '—'}`;
  const lines = [
    `  ${a.agent}`,
    `    credit ${significant(a.credit.meanA)} → ${significant(a.credit.meanB)}: B − A ${differenceText(a.credit)}`,
    `    share  ${percent(a.shareA)} → ${percent(a.shareB)}${a.share ? `: B − A ${differenceText(a.share, true)}` : ''}`,
    `    ${status}${sources ? `, from ${sources}` : ''}`,
  ];
  if (a.missing) lines.push(`    ${a.missing}`);
  return lines;
}

function flagLines(flags: readonly FlagChange[]): string[] {
  if (flags.length === 0) return [];
  const window = (steps: readonly [number, number] | undefined): string =>
    steps ? ` (${stepSpan(steps[0], steps[1])})` : '';
  return [
    '  flags:',
    ...flags.map(
      (f) =>
        `    ${f.change.padEnd(11)} ${f.kind.padEnd(11)} ${f.agent || '—'}${f.change === 'appeared' ? window(f.stepsB) : window(f.stepsA)}`,
    ),
  ];
}

/** The comparison as JSON, NaN and infinities as null. */
export function comparisonJson(c: RunComparison): string {
  return JSON.stringify(
    c,
    (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? null : value),
    2,
  );
}

/** The CSV columns of {@link comparisonCsv}: one row per agent and one for the team reward. */
export const comparisonCsvColumns = [
  'row',
  'pairs',
  'credit_a',
  'credit_b',
  'difference',
  'ci_low',
  'ci_high',
  'p',
  'test',
  'share_a',
  'share_b',
  'share_difference',
  'share_ci_low',
  'share_ci_high',
  'share_p',
  'status_a',
  'status_b',
  'source_a',
  'source_b',
] as const;

/** The comparison as CSV lines (header first): the team reward row (`row` = `reward`), then one per agent. */
export function comparisonCsv(c: RunComparison): string[] {
  const number = (x: number | undefined): number | null => (x === undefined || !Number.isFinite(x) ? null : x);
  const cells = (d: PairedDifference): (string | number | null)[] => [
    d.n,
    number(d.meanA),
    number(d.meanB),
    number(d.difference),
    number(d.interval[0]),
    number(d.interval[1]),
    number(d.p),
    d.test,
  ];
  const rows = [
    ['reward', ...cells(c.reward), ...Array<null>(comparisonCsvColumns.length - 9).fill(null)],
    ...c.agents.map((a) => [
      a.agent,
      ...cells(a.credit),
      number(a.shareA),
      number(a.shareB),
      number(a.share?.difference),
      number(a.share?.interval[0]),
      number(a.share?.interval[1]),
      number(a.share?.p),
      a.statusA,
      a.statusB,
      a.sourceA ?? null,
      a.sourceB ?? null,
    ]),
  ];
  return [comparisonCsvColumns.join(','), ...rows.map((r) => r.map(csvCell).join(','))];
}
