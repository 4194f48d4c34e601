import { creditLegend } from '../charts/legend';
import { h } from '../dom';
import { kindSentence, type CreditTint } from './tint';

/**
 * The colour legend of the message tint: the run's fixed credit scale and its states (the
 * dashboard's legend), and one sentence on what a message's colour stands for under the method.
 */
export function renderLegend(tint: CreditTint | null): HTMLElement {
  if (!tint)
    return h('div', 'legend is-empty', h('span', 'legend-title', 'No message credit to colour under this method yet.'));
  const sentence = tint.unidentified
    ? `This episode is not identifiable under the method: ${tint.unidentified.replace(/\.+$/, '')}.`
    : kindSentence(tint.method, tint.kind, tint.replayed);
  return h(
    'div',
    'legend',
    h('span', 'legend-title', 'Message credit'),
    creditLegend(tint.domain, h('span', 'legend-kind', sentence)),
  );
}
