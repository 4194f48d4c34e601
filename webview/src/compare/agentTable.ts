import type { ComparisonView } from '../../../src/protocol/comparePanel';
import { h } from '../dom';
import { formatCredit, formatInt, formatNumber, formatP } from '../kit/format';
import {
  flagChangeText,
  hasDifference,
  hasInterval,
  intervalText,
  missingText,
  shareChange,
  shareChangeText,
  shareText,
  statusSourceText,
  testText,
  type AgentView,
  type DifferenceView,
} from './compareText';

// The Compare view's data table: the chart's numbers for screen readers (and for anyone who wants
// them), one row for the team reward then one per agent.

const headings = [
  'Agent',
  'Mean A',
  'Mean B',
  'Difference B \u2212 A',
  '95% interval',
  'p',
  'Test',
  'Pairs',
  'Credit share A \u2192 B',
  'Share change (95% interval)',
  'Status A',
  'Status B',
  'Flags',
];

/** The table of the team reward and every agent's change, with statuses and flag changes in words. */
export function renderAgentTable(c: ComparisonView): HTMLElement {
  const head = h('thead', undefined, h('tr', undefined, ...headings.map((t) => h('th', undefined, t))));
  const rows = [rewardRow(c.reward), ...c.agents.map((agent) => agentRow(agent, c.flags))];
  const table = h('table', 'data-table compare-agents', head, h('tbody', undefined, ...rows));
  table.setAttribute('aria-label', `Credit difference per agent, ${c.b.label} minus ${c.a.label}, with 95% intervals`);
  const wrap = h('div', 'table-wrap', table);
  wrap.tabIndex = 0;
  wrap.setAttribute('role', 'region');
  wrap.setAttribute('aria-label', 'Per-agent comparison table');
  return wrap;
}

/** The statistics cells of a paired difference: means, difference, interval, p, test, pairs. */
function differenceCells(d: DifferenceView): HTMLTableCellElement[] {
  const interval = hasInterval(d);
  return [
    h('td', 'num', formatNumber(d.meanA)),
    h('td', 'num', formatNumber(d.meanB)),
    h('td', 'num difference', formatCredit(d.difference)),
    h('td', 'num', intervalText(d)),
    h('td', 'num', interval ? formatP(d.p) : '\u2014'),
    h('td', undefined, interval ? testText(d) : '\u2014'),
    h('td', 'num', formatInt(d.n)),
  ];
}

function rewardRow(reward: DifferenceView): HTMLTableRowElement {
  const none = (): HTMLTableCellElement => h('td', 'empty-cell', '\u2014');
  return h(
    'tr',
    'reward-row',
    h('th', undefined, 'Team reward'),
    ...differenceCells(reward),
    none(),
    none(),
    none(),
    none(),
    none(),
  );
}

function agentRow(agent: AgentView, flags: ComparisonView['flags']): HTMLTableRowElement {
  const own = flags.filter((f) => f.agent === agent.agent).map(flagChangeText);
  const change = shareChange(agent);
  const row = h(
    'tr',
    'agent-row',
    h('th', 'agent-name', agent.agent),
    ...(hasDifference(agent) ? differenceCells(agent.credit) : notIdentifiableCells(agent)),
    h('td', 'num share', shareText(agent)),
    h(
      'td',
      `num share-change${change === null ? '' : change > 0 ? ' up' : change < 0 ? ' down' : ''}`,
      shareChangeText(agent),
    ),
    h('td', `status status-${agent.statusA}`, statusSourceText(agent.statusA, agent.sourceA)),
    h('td', `status status-${agent.statusB}`, statusSourceText(agent.statusB, agent.sourceB)),
    h('td', 'flag-changes', own.length > 0 ? own.join('; ') : 'none'),
  );
  row.dataset['agent'] = agent.agent;
  return row;
}

/** Where the data cannot answer: the means it has, "not identifiable" and what would answer, never a number. */
function notIdentifiableCells(agent: AgentView): HTMLTableCellElement[] {
  const why = h(
    'td',
    'not-identifiable',
    h('span', 'state', 'not identifiable'),
    ': ',
    h('span', 'missing', missingText(agent)),
  );
  why.colSpan = 5;
  return [h('td', 'num', formatNumber(agent.credit.meanA)), h('td', 'num', formatNumber(agent.credit.meanB)), why];
}
