import { agentCreditSortKey, type EpisodeRow, type EpisodeSortKey } from '../../../src/protocol/dashboardPanel';
import { formatCredit, formatInt, formatNumber } from '../kit/format';

/** A column of the episode table. */
export interface Column {
  readonly id: string;
  readonly label: string;
  /** Sort key when the header sorts. */
  readonly sort?: EpisodeSortKey;
  readonly numeric: boolean;
  readonly text: (row: EpisodeRow) => string;
  /** A cell that also opens something: the tooltip of its link, or null when the row has nothing to open. */
  readonly link?: (row: EpisodeRow) => string | null;
}

export const columns: readonly Column[] = [
  { id: 'id', label: 'Episode', sort: 'externalId', numeric: false, text: (r) => r.externalId },
  { id: 'step', label: 'Step', sort: 'step', numeric: true, text: (r) => formatInt(r.step) },
  {
    id: 'group',
    label: 'Group',
    numeric: false,
    text: (r) => r.group ?? '—',
    link: (r) => (r.group === null ? null : `Open GRPO group ${r.group} side by side`),
  },
  { id: 'sample', label: 'Sample', numeric: true, text: (r) => formatInt(r.sample) },
  { id: 'reward', label: 'Reward', sort: 'reward', numeric: true, text: (r) => formatNumber(r.reward) },
  { id: 'agents', label: 'Agents', numeric: true, text: (r) => formatInt(r.agents) },
  { id: 'messages', label: 'Messages', sort: 'messages', numeric: true, text: (r) => formatInt(r.messages) },
  { id: 'flags', label: 'Flags', sort: 'flags', numeric: true, text: (r) => formatInt(r.flags) },
];

/**
 * One column per agent of the run (W&B-style user columns): the agent's credit under the
 * dashboard's method, sortable. `credit[i]` of a row is agent `agents[i]`'s (the host sends it in
 * the run's agent order).
 */
export function agentColumns(agents: readonly string[]): Column[] {
  return agents.map((agent, i) => ({
    id: `agent-${String(i)}`,
    label: agent,
    sort: agentCreditSortKey(agent),
    numeric: true,
    text: (r) => formatCredit(r.credit?.[i] ?? null),
  }));
}

/** The table's columns: the fixed ones, then the agent columns not in `hidden`. */
export function shownColumns(agents: readonly string[], hidden: readonly string[]): Column[] {
  return [...columns, ...agentColumns(agents).filter((c) => !hidden.includes(c.label))];
}
