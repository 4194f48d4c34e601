import type { IssueSummary, RunSummary } from '../../src/core/indexSummary';
import type { RunSummaryData } from '../../src/protocol/runSummaryPanel';
import { h } from './dom';
import { formatInt } from './kit/format';

/** What the rendered summary can ask of the page around it. */
export interface SummaryActions {
  /** The user clicked a problem's location. */
  openIssue(issue: IssueSummary): void;
}

/**
 * The Run Summary view of `data`: header, totals, one section per run with its agents, and the
 * first problems as `file:line: reason`. Built with DOM APIs only; every trace-derived string is a
 * text node.
 */
export function renderSummary(data: RunSummaryData, actions: SummaryActions): HTMLElement[] {
  return [renderHeader(data), renderTotals(data), renderRuns(data.summary.runs), renderProblems(data, actions)];
}

/** The page before the host's first message arrives. */
export function renderLoading(): HTMLElement {
  return h('p', 'placeholder', 'Loading the run summary…');
}

function renderHeader(data: RunSummaryData): HTMLElement {
  const header = h(
    'header',
    'summary-header',
    h('h1', undefined, data.folderName),
    h('p', 'path', data.folderPath),
    h('p', 'path', `Index: ${data.indexPath}`),
  );
  if (data.cancelled) {
    header.append(
      h(
        'p',
        'notice',
        'The last indexing pass was cancelled, so the index holds only part of the folder. Index it again to finish.',
      ),
    );
  }
  return header;
}

function renderTotals({ summary }: RunSummaryData): HTMLElement {
  const stats: [string, number][] = [
    ['Files', summary.files],
    ['Runs', summary.runs.length],
    ['Episodes', summary.episodes],
    ['Messages', summary.messages],
    ['Agents', summary.agents],
    ['Steps', summary.steps],
    ['Lines with errors', summary.errorCount],
  ];
  const list = h(
    'dl',
    'stats',
    ...stats.map(([label, value]) => h('div', 'stat', h('dt', undefined, label), h('dd', undefined, formatInt(value)))),
  );
  return h('section', 'totals', h('h2', 'visually-hidden', 'Totals'), list);
}

function renderRuns(runs: readonly RunSummary[]): HTMLElement {
  const section = h('section', 'runs', h('h2', undefined, `Runs (${formatInt(runs.length)})`));
  if (runs.length === 0) {
    section.append(h('p', 'placeholder', 'No runs in this index yet.'));
    return section;
  }
  section.append(renderRunTable(runs), ...runs.map(renderRunAgents));
  return section;
}

function renderRunTable(runs: readonly RunSummary[]): HTMLTableElement {
  const head = row('th', ['Run', 'Mechanism', 'Episodes', 'Messages', 'Steps', 'Mean reward'], [2, 3, 5]);
  const body = runs.map((run) =>
    row(
      'td',
      [
        runName(run),
        run.mechanism ?? '—',
        formatInt(run.episodes),
        formatInt(run.messages),
        stepRange(run),
        meanReward(run),
      ],
      [2, 3, 5],
    ),
  );
  return h('table', 'runs-table', h('thead', undefined, head), h('tbody', undefined, ...body));
}

function renderRunAgents(run: RunSummary): HTMLElement {
  const section = h('section', 'run', h('h3', undefined, `Agents of ${runName(run)}`));
  if (run.agents.length === 0) {
    section.append(h('p', 'placeholder', 'No agents.'));
    return section;
  }
  const head = row('th', ['Agent', 'Kind', 'Episodes', 'Messages'], [2, 3]);
  const body = run.agents.map((agent) =>
    row('td', [agent.name, agent.kind, formatInt(agent.episodes), formatInt(agent.messages)], [2, 3]),
  );
  section.append(h('table', 'agents-table', h('thead', undefined, head), h('tbody', undefined, ...body)));
  return section;
}

function renderProblems({ summary }: RunSummaryData, actions: SummaryActions): HTMLElement {
  const section = h('section', 'problems', h('h2', undefined, `Problems (${formatInt(summary.errorCount)})`));
  if (summary.errorCount === 0) {
    section.append(h('p', 'placeholder', 'No lines with errors.'));
    return section;
  }
  section.append(h('ul', 'issues', ...summary.errors.map((issue) => renderIssue(issue, actions))));
  const unlisted = summary.errorCount - summary.errors.length;
  if (unlisted > 0)
    section.append(
      h('p', 'more', `… and ${formatInt(unlisted)} more; the Credit Lens log and \`credit-lens info\` list them.`),
    );
  return section;
}

function renderIssue(issue: IssueSummary, actions: SummaryActions): HTMLLIElement {
  const location = h('button', 'link-button issue-location', `${issue.file}:${String(issue.line)}`);
  location.type = 'button';
  location.title = 'Open the file at this line';
  location.addEventListener('click', () => {
    actions.openIssue(issue);
  });
  return h('li', 'issue', location, h('span', 'issue-reason', `: ${issue.reason}`));
}

/** A table row; the cells at `numeric` indexes are right-aligned numbers. */
function row(cell: 'th' | 'td', values: readonly string[], numeric: readonly number[]): HTMLTableRowElement {
  return h('tr', undefined, ...values.map((value, i) => h(cell, numeric.includes(i) ? 'num' : undefined, value)));
}

function runName(run: RunSummary): string {
  return run.name || '(root)';
}

function stepRange({ steps }: RunSummary): string {
  if (steps.min === null || steps.max === null) return '—';
  const range = steps.min === steps.max ? String(steps.min) : `${String(steps.min)}–${String(steps.max)}`;
  return `${range} (${formatInt(steps.count)} distinct)`;
}

function meanReward(run: RunSummary): string {
  return run.meanReward === null ? '—' : run.meanReward.toFixed(3);
}
