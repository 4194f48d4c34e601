import { h } from '../dom';
import type { CreditDomainView } from '../../../src/protocol/viewData';
import { creditRampColor, creditStateLabels, domainBound, formatBound } from './creditScale';

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

/** Where the fixed domain comes from, in words ("the run's reward span, 0 to 1"). */
export function domainSource(domain: CreditDomainView | undefined): string {
  const reward = domain?.reward ?? null;
  if (reward === null) return 'no reward is logged, so the default';
  if (reward.min === 0 && reward.max === 0) return 'every logged reward is 0, so the default';
  return `the run's reward span, ${shortNumber(reward.min)} to ${shortNumber(reward.max)}`;
}

/**
 * The legend of a credit colour scale on the run's fixed domain: the ramp from −bound through 0 to
 * +bound with its numbers, a swatch for each state (zero, no credit, not identifiable, beyond the
 * scale), and one line of text: `lead` (a view's own sentence, e.g. what a message's colour stands
 * for) then where the domain comes from. The same in every view that colours credit.
 */
export function creditLegend(domain: CreditDomainView | undefined, lead?: HTMLElement): HTMLElement {
  const bound = domainBound(domain);
  const end = formatBound(bound);
  const ramp = h('span', 'ramp');
  ramp.setAttribute('aria-hidden', 'true');
  const steps = 11;
  for (let i = 0; i < steps; i++) {
    const stop = h('span', 'ramp-stop');
    stop.style.setProperty('--stop', creditRampColor((2 * i) / (steps - 1) - 1));
    ramp.append(stop);
  }
  const scale = h('span', 'credit-ramp', h('span', 'ramp-end', `−${end}`), ramp, h('span', 'ramp-end', `+${end}`));
  const states = h(
    'ul',
    'credit-states',
    stateItem('state-zero', creditStateLabels.zero),
    stateItem('state-none', creditStateLabels.none),
    stateItem('state-unidentified', creditStateLabels.unidentified, '?'),
    stateItem('state-beyond', `beyond ±${end}`, '▲'),
  );
  const source = `Scale fixed at ±${end} for every method and episode: ${domainSource(domain)}.`;
  const note = h('p', 'credit-note', ...(lead ? [lead, ' '] : []), h('span', 'credit-domain', source));
  const box = h('div', 'credit-legend', scale, states, note);
  box.setAttribute('role', 'group');
  box.setAttribute(
    'aria-label',
    `Credit colour scale: red negative, blue positive, from −${end} to +${end}; zero is the background's neutral, no credit a dashed outline, not identifiable hatched, values beyond ±${end} outlined.`,
  );
  return box;
}

/** A reward as the legend names it: at most 3 significant digits, no trailing zeros ("0", "1", "−0.25"). */
function shortNumber(value: number): string {
  return String(Number(value.toPrecision(3))).replace('-', '−');
}

function stateItem(className: string, label: string, mark = ''): HTMLLIElement {
  const swatch = h('span', `state-swatch ${className}`, mark);
  swatch.setAttribute('aria-hidden', 'true');
  return h('li', undefined, swatch, label);
}
