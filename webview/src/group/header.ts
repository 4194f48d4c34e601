import type { GroupViewData } from '../../../src/protocol/groupPanel';
import { h } from '../dom';
import { formatInt, formatNumber } from '../kit/format';

/** `step 5`, `steps 5, 6`, or `no step logged`. */
function stepsText(steps: readonly number[]): string {
  if (steps.length === 0) return 'no step logged';
  return `${steps.length === 1 ? 'step' : 'steps'} ${steps.map((s) => formatInt(s)).join(', ')}`;
}

/** The group's title and facts: run, step, rollouts, mean and std of the reward, the advantage convention. */
export function renderGroupHeader(data: GroupViewData, controls: HTMLElement): HTMLElement {
  const n = data.rollouts.length;
  const facts: [string, string][] = [
    ['Run', data.runName || '(root)'],
    ['Step', stepsText(data.steps)],
    ['Rollouts', `${formatInt(n)} rollout${n === 1 ? '' : 's'}`],
    ['Mean reward', formatNumber(data.rewardMean)],
    ['Std of reward', data.rewardStd === null ? 'undefined' : formatNumber(data.rewardStd)],
  ];
  const list = h(
    'dl',
    'facts',
    ...facts.map(([term, value]) => h('div', 'fact', h('dt', undefined, term), h('dd', undefined, value))),
  );
  const header = h('header', 'group-header', h('h1', undefined, `GRPO group ${data.ref.group}`), list, controls);
  const convention = data.convention;
  if (convention)
    header.append(
      h(
        'p',
        'convention',
        h('span', 'convention-label', 'Advantage: '),
        h('strong', undefined, convention.name),
        ` — ${convention.formula} (${convention.detail})`,
      ),
    );
  return header;
}

/** The honest states of the group, one notice each. */
export function renderNotes(notes: readonly string[]): HTMLElement | null {
  if (notes.length === 0) return null;
  const list = h('div', 'notes', ...notes.map((note) => h('p', 'notice', note)));
  list.setAttribute('role', 'status');
  return list;
}
