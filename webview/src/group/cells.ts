import type { AdvantageSignal, GroupRolloutView, GroupViewData } from '../../../src/protocol/groupPanel';
import type { CreditStatus } from '../../../src/protocol/viewData';
import { beyondMark, creditPaint, domainBound } from '../charts/creditScale';
import { h } from '../dom';
import { formatCredit } from '../kit/format';
import { methodLabels } from '../methodLabels';

// The cells of the group view's tables: credit with its status, advantages, honest empty states.

/** What a rollout without the chosen method's credit says in its agents' cells. */
const statusWords: Readonly<Record<Exclude<CreditStatus, 'computed'>, string>> = {
  'not-computed': 'not computed',
  'no-evaluator': 'no evaluator',
  failed: 'failed',
  'not-identifiable': 'not identifiable',
};

/** The name of a signal in the advantage table's header. */
export function signalLabel(signal: AdvantageSignal): string {
  if (signal.id === 'reward') return 'Team reward';
  if (signal.id === 'logged') return 'Logged by the trainer';
  return `${methodLabels[signal.id]} credit`;
}

/** A cell that says why there is no number (muted, with the reason as its tooltip). */
export function emptyCell(text: string, title?: string | null): HTMLTableCellElement {
  const cell = h('td', 'empty-cell', text);
  if (title) cell.title = title;
  return cell;
}

/** A credit value's colour and its mark beyond the scale, on the run's fixed domain (docs/architecture.md §4.4). */
export type CreditTint = (value: number) => { readonly color: string; readonly glyph: string; readonly text: string };

/** The run's fixed colour domain, shared by every credit cell of the view (the same as the Episode view's). */
export function creditScale(data: GroupViewData): CreditTint {
  const bound = domainBound(data.creditDomain);
  return (value) => {
    const paint = creditPaint(value, bound);
    return { color: paint.color ?? 'transparent', ...beyondMark(paint, bound) };
  };
}

/** Agent `index`'s credit in `rollout` under the chosen method, tinted, with its provenance. */
export function creditCell(rollout: GroupRolloutView, index: number, tint: CreditTint): HTMLTableCellElement {
  if (rollout.inRoster[index] === false)
    return emptyCell('not in roster', 'This agent is not in the rollout\u2019s roster');
  if (rollout.creditStatus !== 'computed') {
    const why = [rollout.creditReason, rollout.creditRemedy].filter((t) => t).join(' — ');
    return emptyCell(statusWords[rollout.creditStatus], why);
  }
  const credit = rollout.credit[index];
  if (!credit || credit.value === null) return emptyCell('no credit', 'The credit pass stored no value for this agent');
  const paint = tint(credit.value);
  const cell = h(
    'td',
    'num credit-cell',
    h('span', 'credit-value', `${formatCredit(credit.value)}${paint.glyph}`),
    ' ',
    h('span', 'credit-status', credit.status ?? ''),
  );
  if (paint.text) cell.title = `${formatCredit(credit.value)}: ${paint.text}`;
  cell.style.setProperty('--tint', paint.color);
  return cell;
}

/** An advantage, or a muted dash with the reason there is none. */
export function advantageCell(value: number | null | undefined, why: string): HTMLTableCellElement {
  return value === null || value === undefined ? emptyCell('—', why) : h('td', 'num', formatCredit(value));
}
