import type { FlagView } from '../../../src/protocol/viewData';
import type { CreditStatus } from '../../../src/protocol/viewData';
import type { CreditCoverage } from '../../../src/protocol/dashboardPanel';
import { formatInt } from '../kit/format';
import { windowClass, type WindowMark } from '../charts/windowModel';
import { h } from '../dom';
import { button } from '../kit/controls';
import { plural } from '../../../src/core/plural';

const statusText: Readonly<Record<Exclude<CreditStatus, 'computed'>, (method: string) => string>> = {
  'not-computed': (m) => `No credit is stored for ${m} yet. Recompute to fill the credit charts.`,
  'no-evaluator': (m) =>
    `${m} needs coalition values that are neither logged nor computable: no evaluator is configured. Configure creditLens.evaluator.* (or pick another method), then recompute.`,
  failed: (m) => `The last ${m} pass failed. Check the Credit Lens log, then recompute.`,
  'not-identifiable': (m) => `${m} credit is not identifiable for this run: no chart is drawn from it.`,
};

/**
 * The notice above the charts: when the method's credit is not there (with a Recompute button), and
 * what the charts leave out (approximate and not-identifiable episodes are never drawn), in words.
 */
export function creditNotice(
  status: CreditStatus,
  coverage: CreditCoverage,
  methodLabel: string,
  recompute: () => void,
): HTMLElement[] {
  const left = coverageText(coverage, methodLabel);
  if (status === 'computed')
    return left.length === 0 ? [] : [h('div', 'notice coverage', ...left.map((t) => h('p', undefined, t)))];
  const action = button('Recompute credit', recompute, 'primary');
  action.id = 'notice-recompute';
  const notice = h(
    'div',
    `notice status-${status}`,
    h('p', undefined, statusSentence(status, methodLabel)),
    ...left.map((t) => h('p', undefined, t)),
    action,
  );
  notice.setAttribute('role', 'status');
  return [notice];
}

/** Why the method's credit is not shown (no credit stored, not identifiable, ...), as one sentence. */
export function statusSentence(status: Exclude<CreditStatus, 'computed'>, methodLabel: string): string {
  return statusText[status](methodLabel);
}

/** What the charts are drawn from and what they leave out, as sentences (none when nothing is left out). */
export function coverageText(c: CreditCoverage, methodLabel: string): string[] {
  const left = leftOutText(c);
  if (left.length === 0) return left;
  return [
    `Charts are drawn from ${formatInt(c.drawn)} of ${plural(c.episodes, 'episode')} with exact or estimated ${methodLabel} credit.`,
    ...left,
  ];
}

/** The episodes no credit is drawn from, with the reason and what would answer it (none when every episode is drawn). */
export function leftOutText(c: CreditCoverage): string[] {
  const lines: string[] = [];
  if (c.notIdentifiable > 0) {
    lines.push(`${formatInt(c.notIdentifiable)} not identifiable${c.reason ? `: ${c.reason}` : ''}.`);
    if (c.remedy) lines.push(`What would answer it: ${c.remedy}.`);
  }
  if (c.approximate > 0)
    lines.push(
      `${formatInt(c.approximate)} approximate (an agent whose output later agents read was removed without re-generating them): not drawn.`,
    );
  if (c.failed > 0) lines.push(`${formatInt(c.failed)} failed (see the Credit Lens log).`);
  return lines;
}

/** The flag windows as a list under the credit-share chart: swatch, "kind · agent (steps)", and the flag's summary. */
export function windowList(marks: readonly WindowMark[], flags: readonly FlagView[]): HTMLElement {
  if (marks.length === 0) return h('p', 'placeholder window-none', 'No step-range flags for this run.');
  const summaries = new Map(flags.map((f) => [f.flagId, f.summary]));
  const items = marks.map((mark) => {
    const swatch = h('span', `swatch ${windowClass(mark.kind)}`);
    swatch.setAttribute('aria-hidden', 'true');
    const summary = summaries.get(mark.flagId);
    return h(
      'li',
      'window-item',
      swatch,
      h('span', 'window-name', mark.label),
      ...(summary ? [h('span', 'window-summary', ` — ${summary}`)] : []),
    );
  });
  const list = h('ul', 'window-list', ...items);
  list.setAttribute('aria-label', 'Flag windows');
  return list;
}
