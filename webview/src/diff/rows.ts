import type { DiffRowView, DiffTextRow, DiffTextSide, EpisodeDiffData } from '../../../src/protocol/episodeDiffPanel';
import { h } from '../dom';
import { formatInt } from '../kit/format';
import { creditChip, deltaChip } from './credit';
import { noDeltaReason, rowChanges } from './model';

// The aligned rows of the diff view: each row a message of A beside its partner in B (or an empty
// side where a message is only on one side), each side's credit, and the difference. The texts
// arrive later, by window (fillTexts); every text is a text node (docs/architecture.md §4.2).

const kindWords: Readonly<Record<DiffRowView['kind'], string>> = {
  paired: '',
  deleted: 'only in A',
  inserted: 'only in B',
};

function sideCell(data: EpisodeDiffData, row: DiffRowView, which: 'a' | 'b', bound: number): HTMLElement {
  const seq = row[which];
  if (seq === null)
    return h('div', `side side-${which} is-absent`, h('span', 'absent', which === 'a' ? 'not in A' : 'not in B'));
  const value = which === 'a' ? row.creditA : row.creditB;
  const meta = h(
    'div',
    'side-meta',
    h('span', 'seq', `#${formatInt(seq)}`),
    ' ',
    creditChip(value, data[which], data.method, bound),
  );
  return h('div', `side side-${which}`, meta, h('div', 'text is-loading', '…'));
}

/** The element of row `index` of `data`, its texts still to come. */
export function rowElement(data: EpisodeDiffData, index: number, bound: number): HTMLElement {
  const row = data.rows[index];
  if (!row) return h('div', 'diff-row');
  const changes = rowChanges(row);
  const classes = ['diff-row', `is-${row.kind}`];
  if (row.textChanged === true) classes.push('is-changed');
  if (changes.length > 0) classes.push('is-difference');
  const label = h('div', 'row-label', h('span', 'agent-name', row.agent), ` · turn ${formatInt(row.turn + 1)}`);
  if (kindWords[row.kind]) label.append(h('span', 'kind-mark', kindWords[row.kind]));
  if (row.textChanged === null && row.kind === 'paired') label.append(h('span', 'kind-mark', 'text not compared'));
  const element = h(
    'div',
    classes.join(' '),
    label,
    sideCell(data, row, 'a', bound),
    sideCell(data, row, 'b', bound),
    h('div', 'delta', deltaChip(row.delta, bound, noDeltaReason(row))),
  );
  element.dataset['row'] = String(index);
  element.tabIndex = -1;
  element.setAttribute('role', 'listitem');
  element.setAttribute(
    'aria-label',
    `${row.agent}, turn ${formatInt(row.turn + 1)}: ${changes.length > 0 ? changes.join(', ') : 'no difference'}`,
  );
  return element;
}

function spansOf(side: DiffTextSide): HTMLElement {
  const text = h('div', 'text');
  for (const span of side.spans) text.append(span.changed ? h('mark', 'changed', span.text) : span.text);
  if (side.truncated)
    text.append(
      h('span', 'truncated-note', ` … (${formatInt(side.chars)} characters; the first part is shown and compared)`),
    );
  return text;
}

/** Puts the word-diffed texts of one row into its element. */
export function fillTexts(element: HTMLElement, texts: DiffTextRow): void {
  for (const which of ['a', 'b'] as const) {
    const cell = element.querySelector(`.side-${which}`);
    const slot = cell?.querySelector('.text');
    if (!cell || !slot) continue;
    const side = texts[which];
    slot.replaceWith(side ? spansOf(side) : h('div', 'text is-unavailable', 'text unavailable'));
  }
  if (texts.capped !== null) element.append(h('p', 'capped-note', `Word diff not computed: ${texts.capped}.`));
}
