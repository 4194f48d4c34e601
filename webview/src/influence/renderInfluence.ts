import { select } from 'd3-selection';
import type { InfluenceEdgeView, InfluenceGraphView } from '../../../src/protocol/influence';
import { h } from '../dom';
import { formatCredit, formatInt } from '../kit/format';
import { edgeSource, influenceModel, outcomeName, type InfluenceArc, type InfluenceNode } from './influenceModel';

const svgNs = 'http://www.w3.org/2000/svg';
const graphKey =
  'Arcs above the agents: logged attribution weights; higher above: replayed output (how far an agent’s replayed output moves without the other agent, 1 − token-set Jaccard, 0 to 1); ' +
  'below: the effect of removing an agent (on the outcome, or its interaction with a later agent). Replayed message → outcome effects are in the table. ' +
  'Width: |influence| within each kind (their units differ). Blue: positive, red: negative, dashed: approximate.';

/**
 * The influence graph and its table (credit-methods.md §3.17): an arc diagram (agents as nodes,
 * edge width |influence|, colour its sign, logged weights above the line and counterfactual effects
 * below, approximate edges dashed) and a table with the same numbers for screen readers. Agents
 * with no influence are outlined dashed and labelled. Each node is focusable: focusing one marks
 * its rows in the table. Trace text (agent names) only ever becomes text nodes.
 */
export function renderInfluence(graph: InfluenceGraphView, scope: string): HTMLElement {
  const section = h('section', 'influence', h('h2', undefined, 'Influence (not credit)'));
  section.append(
    h(
      'p',
      'influence-intro',
      `How much each agent's output moved another agent or the outcome, ${scope}. It does not add up to the reward.`,
    ),
  );
  const quiet = graph.agents.filter((a) => a.noInfluence === true).map((a) => a.name);
  if (quiet.length > 0) section.append(h('p', 'influence-quiet', `No influence: ${quiet.join(', ')}.`));
  if (graph.edges.length === 0) {
    section.append(h('p', 'placeholder', graph.missing ?? 'No influence edges.'));
    return section;
  }
  const table = edgeTable(graph.edges);
  // The table keeps readable columns in the Episode view's narrow side column: it scrolls sideways.
  const scroller = h('div', 'influence-table-scroll', table);
  section.append(h('div', 'influence-figure', drawGraph(graph, table)), h('p', 'influence-key', graphKey), scroller);
  if (graph.missing !== null) section.append(h('p', 'influence-missing placeholder', graph.missing));
  return section;
}

function drawGraph(graph: InfluenceGraphView, table: HTMLElement): SVGSVGElement {
  const model = influenceModel(graph);
  const svg = document.createElementNS(svgNs, 'svg');
  const root = select(svg)
    .attr('class', 'influence-graph')
    .attr('viewBox', `0 0 ${String(model.width)} ${String(model.height)}`)
    .attr('width', model.width)
    .attr('height', model.height)
    .attr('role', 'group')
    .attr('aria-label', 'Influence graph; the table below lists the same edges');
  root
    .append('g')
    .attr('class', 'influence-arcs')
    .selectAll<SVGPathElement, InfluenceArc>('path')
    .data(model.arcs, (d) => d.key)
    .join('path')
    .attr('class', (d) => `influence-arc influence-${d.sign} influence-${d.kind}${d.exact ? '' : ' influence-approx'}`)
    .attr('d', (d) => d.path)
    .attr('stroke-width', (d) => d.width)
    .append('title')
    .text((d) => d.label);
  const nodes = root
    .append('g')
    .attr('class', 'influence-nodes')
    .selectAll<SVGGElement, InfluenceNode>('g')
    .data(model.nodes, (d) => d.name)
    .join('g')
    .attr(
      'class',
      (d) => `influence-node${d.outcome ? ' influence-outcome' : ''}${d.noInfluence === true ? ' influence-none' : ''}`,
    )
    .attr('transform', (d) => `translate(${String(d.x)},${String(model.lineY)})`)
    .attr('tabindex', 0)
    .attr('role', 'button')
    .attr('aria-label', (d) => d.label)
    .on('focus', (_event, d) => markRows(table, d.name))
    .on('blur', () => markRows(table, null));
  nodes.append('circle').attr('r', 13);
  nodes
    .append('text')
    .attr('class', 'influence-name')
    .attr('y', 28)
    .attr('text-anchor', 'middle')
    .text((d) => shortName(d.name));
  nodes
    .filter((d) => d.noInfluence === true)
    .append('text')
    .attr('class', 'influence-none-label')
    .attr('y', 41)
    .attr('text-anchor', 'middle')
    .text('no influence');
  nodes.append('title').text((d) => d.label);
  return svg;
}

/** Marks the table rows of edges out of `agent` (null clears). */
function markRows(table: HTMLElement, agent: string | null): void {
  for (const row of table.querySelectorAll<HTMLTableRowElement>('tbody tr'))
    row.classList.toggle(
      'influence-marked',
      agent !== null && (row.dataset['from'] === agent || row.dataset['to'] === agent),
    );
}

function edgeTable(edges: readonly InfluenceEdgeView[]): HTMLElement {
  const head = h(
    'tr',
    undefined,
    ...['From', 'To', 'Kind', 'Influence', 'Exact', 'Episodes', 'Where from'].map((t) =>
      h('th', t === 'Influence' || t === 'Episodes' ? 'num' : undefined, t),
    ),
  );
  const rows = edges.map((e) => {
    const row = h(
      'tr',
      undefined,
      h('td', undefined, edgeSource(e)),
      h('td', undefined, e.to ?? outcomeName),
      h('td', undefined, e.kind),
      h('td', 'num', formatCredit(e.value)),
      h('td', undefined, e.exact ? 'exact' : 'approximate'),
      h('td', 'num', formatInt(e.episodes)),
      h('td', 'influence-provenance', e.provenance),
    );
    row.dataset['from'] = e.from;
    row.dataset['to'] = e.to ?? outcomeName;
    return row;
  });
  const table = h('table', 'influence-table', h('thead', undefined, head), h('tbody', undefined, ...rows));
  table.setAttribute('aria-label', 'Influence edges');
  const wrap = h('div', 'table-wrap influence-table-wrap', table);
  wrap.tabIndex = 0;
  wrap.setAttribute('role', 'region');
  wrap.setAttribute('aria-label', 'Influence edges table');
  return wrap;
}

/** A node's label under the circle; the full name is in its title and the table. */
function shortName(name: string): string {
  return name.length > 11 ? `${name.slice(0, 10)}…` : name;
}
