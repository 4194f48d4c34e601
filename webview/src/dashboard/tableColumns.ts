import type { EpisodeRow, EpisodeSortKey } from '../../../src/protocol/dashboardPanel';
import { formatInt, formatNumber } from '../kit/format';

/** A column of the episode table. */
export interface Column {
  readonly id: string;
  readonly label: string;
  /** Sort key when the header sorts. */
  readonly sort?: EpisodeSortKey;
  readonly numeric: boolean;
  readonly text: (row: EpisodeRow) => string;
}

export const columns: readonly Column[] = [
  { id: 'id', label: 'Episode', sort: 'externalId', numeric: false, text: (r) => r.externalId },
  { id: 'step', label: 'Step', sort: 'step', numeric: true, text: (r) => formatInt(r.step) },
  { id: 'group', label: 'Group', numeric: false, text: (r) => r.group ?? '—' },
  { id: 'sample', label: 'Sample', numeric: true, text: (r) => formatInt(r.sample) },
  { id: 'reward', label: 'Reward', sort: 'reward', numeric: true, text: (r) => formatNumber(r.reward) },
  { id: 'agents', label: 'Agents', numeric: true, text: (r) => formatInt(r.agents) },
  { id: 'messages', label: 'Messages', sort: 'messages', numeric: true, text: (r) => formatInt(r.messages) },
  { id: 'flags', label: 'Flags', sort: 'flags', numeric: true, text: (r) => formatInt(r.flags) },
];
