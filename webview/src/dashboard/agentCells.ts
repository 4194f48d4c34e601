import type { AgentSummary, AgentSummaryRow } from '../../../src/protocol/dashboardPanel';
import { formatCredit, formatInt, formatInterval, formatPercent } from '../kit/format';
import { plural } from '../../../src/core/plural';

// The text of each cell of the agent summary table. Pure: no DOM. Every absent value says why it
// is absent ("no credit", "not identifiable", "not audited yet", "text not read") instead of reading as 0.

/** A cell's text and its kind: `value`, or why there is none (styled apart from a zero). */
export interface Cell {
  readonly text: string;
  readonly kind: 'value' | 'none' | 'not-audited';
}

const value = (text: string): Cell => ({ text, kind: 'value' });
const none = (text: string): Cell => ({ text, kind: 'none' });
const notAudited: Cell = { text: 'not audited yet', kind: 'not-audited' };

/** The cells of one agent row, in the order of {@link agentColumns}. */
export function agentCells(row: AgentSummaryRow, summary: AgentSummary): Cell[] {
  const audited = summary.audit !== null;
  // No credit because the data cannot answer reads differently from none stored yet.
  const noCredit = none(summary.status === 'not-identifiable' ? 'not identifiable' : 'no credit');
  const rate = (r: number | null): Cell =>
    !audited ? notAudited : r === null ? none('text not read') : value(formatPercent(r));
  return [
    value(row.agent),
    value(formatInt(row.episodes)),
    row.meanCredit === null ? noCredit : value(formatCredit(row.meanCredit)),
    row.ci === null ? none('—') : value(formatInterval(row.ci[0], row.ci[1])),
    row.creditShare === null ? noCredit : value(formatPercent(row.creditShare)),
    row.tokenShare === null ? none('no tokens logged') : value(formatPercent(row.tokenShare)),
    rate(row.emptyRate),
    rate(row.copyRate),
    !audited
      ? notAudited
      : row.flags.length === 0
        ? none('none')
        : value(row.flags.map((f) => `${f.kind} ${formatInt(f.count)}`).join(', ')),
  ];
}

/** Column headings of the agent summary table. */
export const agentColumns: readonly string[] = [
  'Agent',
  'Episodes with credit',
  'Mean credit',
  '95% interval',
  'Credit share',
  'Token share',
  'Empty messages',
  'Copied messages',
  'Flags',
];

/** "LOO: 1 of 1,280 episodes" when the method covers part of the run; '' when it covers it all. */
export function coverageCaption(summary: AgentSummary, methodLabel: string): string {
  const { drawn, episodes } = summary.coverage;
  if (drawn === episodes) return '';
  return `${methodLabel}: ${formatInt(drawn)} of ${plural(episodes, 'episode')}`;
}

/** What the audit state says above the table. */
export function auditCaption(summary: AgentSummary): string {
  const audit = summary.audit;
  if (!audit) return 'Not audited yet: empty and copied message rates and flags appear after "Credit Lens: Run Audit".';
  const when = audit.auditedAt.slice(0, 16).replace('T', ' ');
  const missed = audit.unreachable.length;
  return `Audited ${when} UTC under ${audit.method}${missed > 0 ? `; ${formatInt(missed)} ${missed === 1 ? 'verdict' : 'verdicts'} could not be reached` : ''}.`;
}
