import type { GroupRolloutView, GroupViewData } from '../../../src/protocol/groupPanel';
import { h } from '../dom';
import { formatInt, formatNumber } from '../kit/format';
import { methodLabels } from '../methodLabels';
import { advantageCell, creditCell, creditScale, emptyCell, signalLabel } from './cells';

/** What a click (or Enter) on a rollout does. */
export type OpenRollout = (rollout: GroupRolloutView) => void;

/** Why an advantage cell is empty, for its tooltip. */
function noAdvantage(data: GroupViewData): string {
  return data.rollouts.length === 1
    ? 'Undefined for a group of 1 rollout'
    : 'No advantage: the signal has no value here, or fewer than 2 rollouts have one';
}

/** "Diff with…" of a rollout: the host asks which other rollout to put beside it. */
function diffButton(rollout: GroupRolloutView, diff: OpenRollout): HTMLButtonElement {
  const button = h('button', 'link-button rollout-diff', 'diff with…');
  button.type = 'button';
  button.title = `Diff episode ${rollout.externalId} with another rollout of the group`;
  button.addEventListener('click', () => {
    diff(rollout);
  });
  return button;
}

/** The rollout's episode as a button: Tab reaches it, Enter or a click opens it in the Episode view. */
function episodeButton(rollout: GroupRolloutView, open: OpenRollout): HTMLButtonElement {
  const button = h('button', 'link-button rollout-open', rollout.externalId);
  button.type = 'button';
  button.title = `Open episode ${rollout.externalId} in the Episode view`;
  button.dataset['episode'] = String(rollout.episodeId);
  button.addEventListener('click', () => {
    open(rollout);
  });
  return button;
}

function headerRow(...cells: (string | HTMLElement)[]): HTMLTableRowElement {
  return h('tr', undefined, ...cells.map((c) => (typeof c === 'string' ? h('th', undefined, c) : c)));
}

/** The rollouts side by side, best reward first: reward, its advantage, and each agent's credit under the method. */
export function renderRollouts(data: GroupViewData, open: OpenRollout, diff?: OpenRollout): HTMLElement {
  const tint = creditScale(data);
  const reward = data.signals.findIndex((s) => s.id === 'reward');
  const method = methodLabels[data.method];
  const agentHeads = data.agents.flatMap((agent) => [
    h('th', 'agent-head', h('span', 'agent-name', agent), ` · ${method}`),
    h('th', 'agent-head', h('span', 'agent-name', agent), ' · advantage'),
  ]);
  const head = h(
    'thead',
    undefined,
    headerRow('#', 'Episode', 'Sample', 'Reward', 'Advantage (reward)', ...agentHeads),
  );
  const rows = data.rollouts.map((rollout, rank) =>
    h(
      'tr',
      'rollout',
      h('td', 'num', formatInt(rank + 1)),
      h('td', 'episode-cell', episodeButton(rollout, open), ...(diff ? [' ', diffButton(rollout, diff)] : [])),
      h('td', 'num', formatInt(rollout.sample)),
      rollout.reward === null
        ? emptyCell('no reward', 'The rollout logs no team reward')
        : h('td', 'num reward-cell', formatNumber(rollout.reward)),
      advantageCell(rollout.advantages[reward]?.[0], noAdvantage(data)),
      ...data.agents.flatMap((_, i) => [
        creditCell(rollout, i, tint),
        rollout.creditStatus === 'computed' && rollout.inRoster[i] !== false
          ? advantageCell(rollout.credit[i]?.advantage, noAdvantage(data))
          : emptyCell('—'),
      ]),
    ),
  );
  const table = h('table', 'data-table rollouts', head, h('tbody', undefined, ...rows));
  table.setAttribute('aria-label', `Rollouts of group ${data.ref.group}, best reward first`);
  return table;
}

/** Every signal's advantage per rollout: the team reward, the trainer's logged advantages, each stored method. */
export function renderSignals(data: GroupViewData): HTMLElement {
  const total = data.rollouts.length;
  const top = data.signals.map((signal) => {
    const cell = h(
      'th',
      'signal-head',
      signalLabel(signal),
      h('span', 'coverage', ` (${formatInt(signal.covered)} of ${formatInt(total)})`),
    );
    if (signal.perAgent) cell.colSpan = Math.max(1, data.agents.length);
    return cell;
  });
  const second = data.signals.flatMap((signal) =>
    signal.perAgent ? data.agents.map((agent) => h('th', 'agent-name', agent)) : [h('th', undefined, 'team')],
  );
  const head = h('thead', undefined, headerRow('Episode', ...top), headerRow('', ...second));
  const why = noAdvantage(data);
  const rows = data.rollouts.map((rollout) =>
    h(
      'tr',
      undefined,
      h('td', 'episode-name', rollout.externalId),
      ...data.signals.flatMap((signal, s) => {
        const values = rollout.advantages[s] ?? [];
        const width = signal.perAgent ? data.agents.length : 1;
        return Array.from({ length: width }, (_, i) => advantageCell(values[i], why));
      }),
    ),
  );
  const table = h('table', 'data-table signals', head, h('tbody', undefined, ...rows));
  table.setAttribute('aria-label', 'Advantage of every rollout under every signal the index has');
  return table;
}
