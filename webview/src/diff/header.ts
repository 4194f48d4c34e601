import type { AgentTotalDiff, DiffSideView, EpisodeDiffData } from '../../../src/protocol/episodeDiffPanel';
import { h } from '../dom';
import { formatCredit, formatInt, formatNumber, formatPosition } from '../kit/format';
import { methodLabels } from '../methodLabels';
import { linkButton } from '../episode/linkButton';
import { renderNotes } from '../group/header';
import { creditProvenance } from '../episode/status';
import { countsLine } from './model';
import { noCreditText, sideNotices } from './credit';

// The top of the diff view: both episodes' facts and credit state, then the rewards and each
// agent's credit total on both sides with the difference.

/** Which side of the pair. */
export type Side = 'a' | 'b';

function facts(side: DiffSideView): HTMLElement {
  const rows: [string, string][] = [
    ['Run', side.runName || '(root)'],
    ['Position', formatPosition(side.step, side.group, side.sample) || '—'],
    ['Reward', formatNumber(side.reward)],
    ['Messages', formatInt(side.messageCount)],
  ];
  return h(
    'dl',
    'facts',
    ...rows.map(([term, value]) => h('div', 'fact', h('dt', undefined, term), h('dd', undefined, value))),
  );
}

/** One episode of the pair: its facts, where its credit comes from (or why it has none), a link to the Episode view. */
function sideCard(name: Side, side: DiffSideView, method: EpisodeDiffData['method'], open: () => void): HTMLElement {
  const card = h(
    'section',
    `side-card side-${name}`,
    h('h2', undefined, `${name.toUpperCase()} · Episode ${side.externalId}`),
    facts(side),
  );
  const provenance = creditProvenance({ ...side.credit, messageCredit: [] });
  if (provenance) card.append(h('p', 'provenance', `${methodLabels[method]}: ${provenance}`));
  for (const notice of sideNotices(side, method)) {
    const element = h('p', `notice is-${notice.level}`, h('strong', undefined, notice.title), ' ', notice.text);
    element.dataset['notice'] = notice.key;
    card.append(element);
  }
  if (side.readError !== null) card.append(h('p', 'error', `Messages unavailable: ${side.readError}`));
  card.append(
    h('p', 'open-side', linkButton('open in the Episode view', open, `Open ${side.externalId} in the Episode view`)),
  );
  return card;
}

function valueCell(
  value: number | null,
  present: boolean,
  side: DiffSideView,
  method: EpisodeDiffData['method'],
): HTMLElement {
  if (!present) return h('td', 'empty-cell', 'not in roster');
  if (value === null) {
    const cell = h('td', 'empty-cell', 'no credit');
    cell.title = noCreditText(side, method).replace('for this message', 'for this agent');
    return cell;
  }
  return h('td', 'num', formatCredit(value));
}

function deltaCell(total: AgentTotalDiff): HTMLElement {
  if (total.delta === null) {
    const cell = h('td', 'empty-cell', '—');
    cell.title = 'No difference: a side has no value';
    return cell;
  }
  return h('td', 'num delta-cell', formatCredit(total.delta));
}

/** The rewards and each agent's credit total on both sides, with B − A and its status. */
export function renderTotals(data: EpisodeDiffData): HTMLElement {
  const head = h(
    'tr',
    undefined,
    ...['', `A · ${data.a.externalId}`, `B · ${data.b.externalId}`, 'B − A', 'status'].map((t) =>
      h('th', undefined, t),
    ),
  );
  const reward = h(
    'tr',
    'reward-row',
    h('th', undefined, 'Team reward'),
    data.a.reward === null ? h('td', 'empty-cell', 'no reward') : h('td', 'num', formatNumber(data.a.reward)),
    data.b.reward === null ? h('td', 'empty-cell', 'no reward') : h('td', 'num', formatNumber(data.b.reward)),
    data.rewardDelta === null ? h('td', 'empty-cell', '—') : h('td', 'num delta-cell', formatCredit(data.rewardDelta)),
    h('td', undefined, 'logged'),
  );
  const agents = data.agents.map((total) =>
    h(
      'tr',
      'agent-total',
      h('th', 'agent-name', total.agent),
      valueCell(total.a, total.inA, data.a, data.method),
      valueCell(total.b, total.inB, data.b, data.method),
      deltaCell(total),
      h('td', undefined, total.status ?? ''),
    ),
  );
  const table = h('table', 'totals', h('thead', undefined, head), h('tbody', undefined, reward, ...agents));
  table.setAttribute('aria-label', `Rewards and ${methodLabels[data.method]} credit totals of A and B, with B − A`);
  return table;
}

/** Both episodes' cards, the totals and counts, and the notes. */
export function renderDiffHeader(
  data: EpisodeDiffData,
  controls: HTMLElement,
  open: (side: Side) => void,
): HTMLElement {
  const header = h(
    'header',
    'diff-header',
    h('h1', undefined, `Diff: ${data.a.externalId} ↔ ${data.b.externalId}`),
    controls,
    h(
      'div',
      'side-cards',
      sideCard('a', data.a, data.method, () => open('a')),
      sideCard('b', data.b, data.method, () => open('b')),
    ),
    renderTotals(data),
    h('p', 'counts', countsLine(data)),
  );
  const notes = renderNotes(data.notes);
  if (notes) header.append(notes);
  return header;
}
