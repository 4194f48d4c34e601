import type { FlagView } from '../../../src/protocol/viewData';
import type { CreditStatus } from '../../../src/protocol/viewData';
import { windowClass, type WindowMark } from '../charts/windowModel';
import { h } from '../dom';
import { button } from './controls';

const statusText: Readonly<Record<Exclude<CreditStatus, 'computed'>, (method: string) => string>> = {
  'not-computed': (m) => `No credit is stored for ${m} yet. Recompute to fill the credit charts.`,
  'no-evaluator': (m) =>
    `${m} needs coalition values that are neither logged nor computable: no evaluator is configured. Configure creditLens.evaluator.* (or pick another method), then recompute.`,
  failed: (m) => `The last ${m} pass failed. Check the Credit Lens log, then recompute.`,
};

/** The notice above the charts when the method's credit is not there, with a Recompute button. */
export function creditNotice(status: CreditStatus, methodLabel: string, recompute: () => void): HTMLElement[] {
  if (status === 'computed') return [];
  const action = button('Recompute credit', recompute, 'primary');
  action.id = 'notice-recompute';
  const notice = h('div', `notice status-${status}`, h('p', undefined, statusText[status](methodLabel)), action);
  notice.setAttribute('role', 'status');
  return [notice];
}

/** The flag windows as a list under the credit-share chart: swatch, "kind · agent (steps)", and the flag's summary. */
export function windowList(marks: readonly WindowMark[], flags: readonly FlagView[]): HTMLElement {
  if (marks.length === 0) return h('p', 'placeholder window-none', 'No step-range flags for this run.');
  const summaries = new Map(flags.map((f) => [f.flagId, f.summary]));
  const items = marks.map((mark) => {
    const swatch = h('span', `swatch ${windowClass(mark.kind)}`);
    swatch.setAttribute('aria-hidden', 'true');
    const summary = summaries.get(mark.flagId);
    return h('li', 'window-item', swatch, h('span', 'window-name', mark.label), ...(summary ? [h('span', 'window-summary', ` — ${summary}`)] : []));
  });
  const list = h('ul', 'window-list', ...items);
  list.setAttribute('aria-label', 'Flag windows');
  return list;
}
