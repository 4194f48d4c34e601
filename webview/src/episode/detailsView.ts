import type {
  CounterfactualView,
  EpisodeViewData,
  LabelView,
  RunWindowsView,
} from '../../../src/protocol/episodePanel';
import type { EvidenceRowView, FlagView } from '../../../src/protocol/viewData';
import { h } from '../dom';
import { linkButton } from './linkButton';
import { formatInt, formatNumber } from '../kit/format';

// The episode's evidence beside the timeline: counterfactuals, flags, outcome and labels.

export function renderCounterfactuals(rows: readonly CounterfactualView[]): HTMLElement {
  const section = h('section', 'counterfactuals', h('h2', undefined, `Counterfactuals (${formatInt(rows.length)})`));
  if (rows.length === 0) {
    section.append(h('p', 'placeholder', 'No counterfactual rewards logged or computed.'));
    return section;
  }
  const head = h(
    'tr',
    undefined,
    ...['Removed / replaced', 'Intervention', 'Reward', 'Source', 'Evaluator', 'n'].map((t) =>
      h('th', t === 'Reward' || t === 'n' ? 'num' : undefined, t),
    ),
  );
  const body = rows.map((row) =>
    h(
      'tr',
      undefined,
      h('td', undefined, row.removed.length === 0 ? '∅ (none)' : row.removed.join(', ')),
      h('td', undefined, row.intervention),
      h('td', 'num', formatNumber(row.reward)),
      h('td', undefined, h('span', `source source-${row.source}`, row.source)),
      h('td', undefined, row.evaluator ?? '—'),
      h('td', 'num', row.n === null ? '—' : formatInt(row.n)),
    ),
  );
  section.append(
    h('div', 'table-wrap', h('table', 'cf-table', h('thead', undefined, head), h('tbody', undefined, ...body))),
  );
  return section;
}

/**
 * The episode's own flags, then one line for the run's windows over its step (verdicts about the
 * run's steps, not this episode: counted and linked to the dashboard, never listed as its flags).
 */
export function renderFlags(
  flags: readonly FlagView[],
  runWindows: RunWindowsView | null | undefined,
  openWindows: () => void,
): HTMLElement {
  const section = h('section', 'flags', h('h2', undefined, `Flags (${formatInt(flags.length)})`));
  if (flags.length === 0) section.append(h('p', 'placeholder', 'No flags on this episode.'));
  else section.append(h('ul', 'flag-list', ...flags.map(renderFlag)));
  if (runWindows) section.append(runWindowsLine(runWindows, openWindows));
  return section;
}

/** "2 run-level windows cover step 12 — open in the dashboard". */
function runWindowsLine({ count, step, steps }: RunWindowsView, open: () => void): HTMLElement {
  const covers = count === 1 ? 'window covers' : 'windows cover';
  const title = `Open the Run Dashboard on steps ${formatInt(steps[0])}–${formatInt(steps[1])}`;
  return h(
    'p',
    'run-windows',
    `${formatInt(count)} run-level ${covers} step ${formatInt(step)} — `,
    linkButton('open in the dashboard', open, title),
  );
}

function renderFlag(flag: FlagView): HTMLElement {
  const scope = flag.steps ? `${flag.scope} ${String(flag.steps[0])}–${String(flag.steps[1])}` : flag.scope;
  const head = h(
    'div',
    'flag-head',
    h('span', `flag-kind flag-${flag.kind}`, flag.kind),
    flag.agent ? h('span', 'agent-name', flag.agent) : '',
    h('span', 'flag-meta', `${scope}${flag.score === null ? '' : ` · score ${formatNumber(flag.score)}`}`),
  );
  const evidence = evidenceRows(flag.evidence, 0);
  const details = h(
    'details',
    'flag-evidence',
    h('summary', undefined, 'Evidence'),
    h('table', undefined, h('tbody', undefined, ...evidence)),
  );
  return h('li', 'flag', head, h('p', 'flag-summary', flag.summary), details);
}

/** The evidence rows in words as table rows, the rows under a row (a window's figures) indented below it. */
function evidenceRows(rows: readonly EvidenceRowView[], depth: number): HTMLElement[] {
  return rows.flatMap((row) => {
    const tr = h('tr', depth > 0 ? `evidence-depth-${String(Math.min(depth, 3))}` : undefined);
    tr.append(h('th', undefined, row.label), h('td', undefined, row.value));
    return [tr, ...evidenceRows(row.children ?? [], depth + 1)];
  });
}

export function renderOutcome(data: EpisodeViewData, goTo: (seq: number) => void): HTMLElement {
  const answer = data.finalAnswer
    ? [data.finalAnswer.answer, data.finalAnswer.agent ? h('span', 'agent-note', ` — ${data.finalAnswer.agent}`) : '']
    : ['—'];
  const list = h(
    'dl',
    'outcome-list',
    h('dt', undefined, 'Ground truth'),
    h('dd', 'answer', data.groundTruth ?? '—'),
    h('dt', undefined, 'Final answer'),
    h('dd', 'answer', ...answer),
  );
  const section = h('section', 'outcome', h('h2', undefined, 'Outcome'), list);
  if (data.labels.length > 0)
    section.append(
      h('h3', undefined, 'Labels'),
      h('ul', 'label-list', ...data.labels.map((l) => renderLabel(l, goTo))),
    );
  return section;
}

function renderLabel(label: LabelView, goTo: (seq: number) => void): HTMLElement {
  const item = h('li', 'label-item', h('strong', undefined, label.kind), label.value ? `: ${label.value}` : '');
  if (label.agent) item.append(' · ', h('span', 'agent-name', label.agent));
  if (label.message !== null) {
    const seq = label.message;
    item.append(
      ' · ',
      linkButton(`message #${formatInt(seq)}`, () => goTo(seq), 'Go to the labelled message'),
    );
  }
  if (label.reason) item.append(h('p', 'label-reason', label.reason));
  return item;
}
