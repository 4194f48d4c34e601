import type { EpisodeCreditView } from '../../../src/protocol/episodePanel';
import type { DiffSideView } from '../../../src/protocol/episodeDiffPanel';
import type { ViewMethod } from '../../../src/protocol/viewData';
import { beyondMark, creditPaint, creditStateLabels } from '../charts/creditScale';
import { h } from '../dom';
import { formatCredit } from '../kit/format';
import { methodLabels } from '../methodLabels';
import { creditNotices, type Notice } from '../episode/status';
import { creditText } from '../episode/tint';

// The credit cells of the diff view: one side's message credit (or "no credit" with what would give
// it, in the Episode view's words) and the difference, on the pair's one colour scale.

/** The side's credit as the Episode view's notices read it (they use its status, reason and remedy only). */
function asCreditView(side: DiffSideView): EpisodeCreditView {
  return { ...side.credit, messageCredit: [] };
}

/** The Episode view's notices for one side's credit under the method (not computed, no evaluator, failed, …). */
export function sideNotices(side: DiffSideView, method: ViewMethod): Notice[] {
  return creditNotices({ method, credit: asCreditView(side), loading: false, error: null }, side.evaluator);
}

/**
 * What a message without credit says, in the Episode view's words: "No credit for this message
 * under …", then what would give it (its notice: not computed yet, no evaluator, not identifiable).
 */
export function noCreditText(side: DiffSideView, method: ViewMethod): string {
  const why = sideNotices(side, method).find((n) => n.key !== 'approximate');
  return `${creditText(null, method, side.credit.messageCreditKind)}${why ? `. ${why.title}: ${why.text}` : ''}`;
}

/** A message's credit on one side: its value tinted on ±`bound`, or "no credit" / "not identifiable" in words. */
export function creditChip(value: number | null, side: DiffSideView, method: ViewMethod, bound: number): HTMLElement {
  const unidentified = side.credit.status === 'not-identifiable';
  const paint = creditPaint(value, bound, unidentified);
  if (value === null) {
    const chip = h('span', `credit-chip is-${paint.state}`, creditStateLabels[paint.state]);
    chip.title = unidentified
      ? `Not identifiable under ${methodLabels[method]}: ${side.credit.reason ?? 'the data cannot answer'}${side.credit.remedy ? `. What would answer it: ${side.credit.remedy}` : ''}`
      : noCreditText(side, method);
    return chip;
  }
  const beyond = beyondMark(paint, bound);
  const chip = h('span', `credit-chip is-${paint.state}`, `${formatCredit(value)}${beyond.glyph}`);
  chip.style.setProperty('--tint', paint.color ?? 'transparent');
  const text = creditText(value, method, side.credit.messageCreditKind);
  chip.title = beyond.text ? `${text}; ${beyond.text}` : text;
  return chip;
}

/** The difference B − A on the same scale, or a dash that says why there is none. */
export function deltaChip(delta: number | null, bound: number, noDelta: string | null): HTMLElement {
  if (delta === null) {
    const none = h('span', 'delta-chip is-none', '—');
    if (noDelta) none.title = noDelta;
    return none;
  }
  const paint = creditPaint(delta, bound);
  const beyond = beyondMark(paint, bound);
  const chip = h('span', `delta-chip is-${paint.state}`, `Δ ${formatCredit(delta)}${beyond.glyph}`);
  chip.style.setProperty('--tint', paint.color ?? 'transparent');
  chip.title = `Credit difference B − A: ${formatCredit(delta)}${beyond.text ? `; ${beyond.text}` : ''}`;
  return chip;
}
