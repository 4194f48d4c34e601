import type { RunOverview } from '../../../src/protocol/dashboardPanel';
import { methodLabels } from '../../../src/protocol/viewData';
import { agentLegend } from '../charts/legend';
import { renderSignal } from '../charts/renderSignal';
import { signalCellText, signalModel, signalSummary, type SignalModel } from '../charts/signalModel';
import { windowMarks } from '../charts/windowModel';
import { h, replaceChildren } from '../dom';
import { figureWidth, type Figure } from './figures';

/**
 * Fills the "Signal disagreement" figure (credit-methods.md §3.18): each agent's share of samples
 * the shared reward pushes the wrong way, per step, with the flag windows; the same numbers with
 * ρ and n in a table; or, without stored counts, what would give them.
 */
export function renderSignalFigure(
  figure: Figure,
  overview: RunOverview,
  agents: readonly string[],
  color: (agent: string) => string,
): void {
  const view = overview.signal;
  const width = figureWidth(figure);
  if (!view || width <= 0) {
    figure.element.hidden = !view;
    return;
  }
  figure.element.hidden = false;
  const label = methodLabels[view.method];
  if (view.missing !== null) {
    figure.svg.replaceChildren();
    figure.body.hidden = true;
    replaceChildren(figure.legend);
    figure.caption.textContent = view.missing;
    replaceChildren(figure.footer);
    return;
  }
  figure.body.hidden = false;
  const model = signalModel(view, agents, Math.floor(width / 3));
  const summary = signalSummary(model);
  renderSignal(figure.svg, model, {
    width,
    color,
    windows: windowMarks(overview.windows),
    label: `Share of each agent's samples whose GRPO advantage under the shared reward has the opposite sign of its advantage under ${label}. ${summary}`,
  });
  replaceChildren(figure.legend, agentLegend(agents, color));
  figure.caption.textContent = `${summary} Compared with ${label}; hover a step for Spearman's ρ and the samples.${excludedText(view.excluded)}`;
  // A re-render (a resize, which opening the table itself causes) keeps the table open or closed.
  const open = figure.footer.querySelector('details')?.open ?? false;
  const details = signalTable(model, label);
  details.open = open;
  replaceChildren(figure.footer, details);
}

function excludedText(e: NonNullable<RunOverview['signal']>['excluded']): string {
  const parts = [
    e.noGroup > 0 ? `${String(e.noGroup)} without a GRPO group` : '',
    e.noCredit > 0 ? `${String(e.noCredit)} without exact or estimated credit` : '',
    e.noReward > 0 ? `${String(e.noReward)} without a team reward` : '',
  ].filter(Boolean);
  return parts.length === 0 ? '' : ` Left out (agent rows): ${parts.join(', ')}.`;
}

/** The chart's numbers as a table, one row per step and a cell per agent, in a collapsed section. */
function signalTable(model: SignalModel, methodLabel: string): HTMLDetailsElement {
  const head = h('tr', undefined, h('th', undefined, 'step'), ...model.agents.map((a) => h('th', undefined, a.agent)));
  for (const th of head.children) th.setAttribute('scope', 'col');
  const rows = model.lines.steps.map((step, i) => {
    const stepCell = h('th', undefined, String(step));
    stepCell.setAttribute('scope', 'row');
    return h('tr', undefined, stepCell, ...model.agents.map((a) => h('td', undefined, signalCellText(a, i))));
  });
  const table = h('table', 'signal-table', h('thead', undefined, head), h('tbody', undefined, ...rows));
  table.setAttribute('aria-label', `Signal disagreement per step: shared reward vs ${methodLabel}`);
  return h('details', 'signal-details', h('summary', undefined, 'Table: per step and agent'), table);
}
