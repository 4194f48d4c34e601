import { h } from '../dom';
import { creditColorScale } from './creditScale';

/** A legend entry: a swatch (coloured inline through the CSSOM, or by class) and its label. */
export interface LegendItem {
  readonly label: string;
  readonly color?: string;
  readonly className?: string;
}

/** `<ul class="legend">` of swatches; labels are text nodes. */
export function legend(items: readonly LegendItem[], label: string): HTMLUListElement {
  const list = h('ul', 'legend', ...items.map(legendItem));
  list.setAttribute('aria-label', label);
  return list;
}

function legendItem(item: LegendItem): HTMLLIElement {
  const swatch = h('span', `swatch ${item.className ?? ''}`.trim());
  swatch.setAttribute('aria-hidden', 'true');
  if (item.color !== undefined) swatch.style.backgroundColor = item.color;
  return h('li', undefined, swatch, item.label);
}

/** The agents in their chart colours. */
export function agentLegend(agents: readonly string[], color: (agent: string) => string): HTMLUListElement {
  return legend(
    agents.map((agent) => ({ label: agent, color: color(agent) })),
    'Agents',
  );
}

/** A ramp of the diverging credit scale from −magnitude to +magnitude, plus the empty-cell swatch. */
export function creditLegend(magnitude: number): HTMLElement {
  const scale = creditColorScale(magnitude);
  const m = scale.domain()[2];
  const steps = 11;
  const ramp = h('span', 'ramp');
  ramp.setAttribute('aria-hidden', 'true');
  for (let i = 0; i < steps; i++) {
    const stop = h('span', 'ramp-stop');
    stop.style.backgroundColor = scale(-m + (2 * m * i) / (steps - 1));
    ramp.append(stop);
  }
  const fmt = (v: number): string => (Math.abs(v) >= 10 ? v.toFixed(0) : v.toFixed(2));
  const box = h(
    'div',
    'credit-legend',
    h('span', 'ramp-end', `−${fmt(m)}`),
    ramp,
    h('span', 'ramp-end', `+${fmt(m)}`),
    legend([{ label: 'no credit', className: 'swatch-empty' }], 'Empty cells'),
  );
  box.setAttribute(
    'aria-label',
    `Mean credit colour scale: red negative, blue positive, from −${fmt(m)} to +${fmt(m)}`,
  );
  box.setAttribute('role', 'img');
  return box;
}
