import type { EpisodeCreditView } from '../../../src/protocol/episodePanel';
import { h } from '../dom';
import type { AgentBar, AgentBarsModel } from './bars';
import { formatCredit, formatInt, formatInterval, formatMargin, formatNumber } from '../kit/format';
import { methodLabels } from '../methodLabels';
import { creditProvenance } from './status';
import { plural } from '../../../src/core/plural';

/** The agent summary: a bar per agent (credit, interval) against zero and the shared reward. */
export function renderAgents(model: AgentBarsModel, credit: EpisodeCreditView | null): HTMLElement {
  const section = h('section', 'agents', h('h2', undefined, 'Agents'));
  const method = credit ? methodLabels[credit.method] : 'Credit';
  const shared = model.shared === null ? '' : ` The dashed line is the shared reward (${formatNumber(model.shared)}).`;
  section.append(h('p', 'caption', `${method} per agent, with its interval where known.${shared}`));
  if (model.bars.length === 0) {
    section.append(h('p', 'placeholder', 'No agents.'));
    return section;
  }
  section.append(h('ul', 'agent-bars', ...model.bars.map((bar) => renderBar(bar, model))));
  section.append(
    h(
      'div',
      'bar-axis',
      h('span', undefined, formatNumber(model.domain[0])),
      h('span', undefined, formatNumber(model.domain[1])),
    ),
  );
  const provenance = creditProvenance(credit);
  if (provenance) section.append(h('p', 'provenance', provenance));
  return section;
}

function renderBar(bar: AgentBar, model: AgentBarsModel): HTMLElement {
  const c = bar.credit;
  const meta = bar.messages === 0 ? 'silent' : plural(bar.messages, 'message');
  const value = h('span', 'agent-value', formatCredit(c?.value ?? null));
  // Exact values need no word; estimated and approximate ones say so beside the number.
  const status = c?.status && c.status !== 'exact' ? c.status : '';
  const details = [
    status,
    formatInterval(c?.ciLow ?? null, c?.ciHigh ?? null),
    c?.n == null ? '' : `n = ${formatInt(c.n)}`,
    c?.advantage == null ? '' : `advantage ${formatCredit(c.advantage)}`,
  ]
    .filter(Boolean)
    .join(' · ');
  // An estimated total (Monte-Carlo) is marked with its interval's half-width, as estimated message rows are.
  const margin = c?.status === 'estimated' ? formatMargin(c.ciLow, c.ciHigh) : '';
  const label = h(
    'div',
    'agent-bar-label',
    h('span', 'agent-name', bar.agent),
    h('span', 'agent-meta', bar.declared ? meta : `${meta}, undeclared`),
    value,
    ...(margin ? [h('span', 'agent-margin', margin)] : []),
  );
  const track = h('div', 'bar-track', positioned('bar-zero', model.zeroAt));
  track.setAttribute('aria-hidden', 'true');
  if (model.sharedAt !== null) track.append(positioned('bar-shared', model.sharedAt));
  if (bar.bar) {
    const fill = positioned('bar-fill', bar.bar.left, bar.bar.width);
    fill.classList.toggle('is-negative', bar.negative);
    track.append(fill);
  }
  if (bar.interval) track.append(positioned('bar-ci', bar.interval.left, bar.interval.width));
  const item = h('li', 'agent-bar', label, track);
  if (status) item.dataset['status'] = status;
  if (details) item.append(h('div', 'agent-details', details));
  item.dataset['agent'] = bar.agent;
  return item;
}

function positioned(className: string, left: number, width?: number): HTMLElement {
  const element = h('div', className);
  element.style.left = `${String(left)}%`;
  if (width !== undefined) element.style.width = `${String(width)}%`;
  return element;
}
