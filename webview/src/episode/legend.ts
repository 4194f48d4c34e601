import { h } from '../dom';
import { formatCredit } from '../kit/format';
import { methodLabels } from '../methodLabels';
import { kindDescription, legendStops, type CreditTint } from './tint';

/**
 * The colour legend of the message tint: the diverging scale from −magnitude through 0 to
 * +magnitude, what the colours mean, and the kind of message credit shown.
 */
export function renderLegend(tint: CreditTint | null): HTMLElement {
  if (!tint)
    return h('div', 'legend is-empty', h('span', 'legend-title', 'No message credit to colour under this method yet.'));
  const bar = h('div', 'legend-bar');
  bar.style.backgroundImage = `linear-gradient(to right, ${legendStops(tint.magnitude)
    .map((s) => `${s.color} ${String(s.offset)}%`)
    .join(', ')})`;
  bar.setAttribute('aria-hidden', 'true');
  const zero = h('span', 'legend-zero');
  zero.setAttribute('aria-hidden', 'true');
  const ticks = h(
    'div',
    'legend-ticks',
    h('span', undefined, formatCredit(-tint.magnitude)),
    h('span', undefined, '0'),
    h('span', undefined, formatCredit(tint.magnitude)),
  );
  const scale = h('div', 'legend-scale', h('div', 'legend-bar-wrap', bar, zero), ticks);
  const none = h('span', 'legend-none', h('span', 'legend-none-swatch'), 'no credit');
  const text = `${methodLabels[tint.method]}: ${kindDescription(tint.kind, tint.replayed)}. Red is negative credit, blue positive, white zero; the scale spans ±${formatCredit(tint.magnitude).slice(1)}.`;
  const legend = h(
    'div',
    'legend',
    h('span', 'legend-title', 'Message credit'),
    h('span', 'legend-end', 'negative'),
    scale,
    h('span', 'legend-end', 'positive'),
    none,
    h('span', 'legend-kind', `· ${kindDescription(tint.kind, tint.replayed)}`),
  );
  legend.setAttribute('role', 'img');
  legend.setAttribute('aria-label', text);
  legend.title = text;
  return legend;
}
