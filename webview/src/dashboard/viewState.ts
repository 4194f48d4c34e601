import {
  dashboardStateVersion,
  episodeSortKeys,
  isEpisodeFilter,
  type DashboardRun,
  type DashboardRunsData,
  type DashboardViewState,
  type EpisodeFilter,
  type EpisodeSortKey,
} from '../../../src/protocol/dashboardPanel';
import { isRecord } from '../../../src/protocol/ipc';
import { isViewMethod, type ViewMethod } from '../../../src/protocol/viewData';

export type ChartMode = DashboardViewState['chart'];
export type EpisodeSort = DashboardViewState['sort'];

/** The state of a dashboard that has never been shown. */
export const initialViewState: DashboardViewState = {
  version: dashboardStateVersion,
  folder: null,
  runId: null,
  method: null,
  chart: 'stacked',
  filter: {},
  sort: { key: 'step', descending: false },
  topRow: 0,
};

function isSort(value: unknown): value is EpisodeSort {
  return (
    isRecord(value) &&
    episodeSortKeys.includes(value['key'] as EpisodeSortKey) &&
    typeof value['descending'] === 'boolean'
  );
}

const nullOr = <T>(value: unknown, check: (v: unknown) => v is T): T | null => (check(value) ? value : null);
const isNonNegativeInt = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/**
 * The saved state when it has the current version (anything else is dropped: the initial state);
 * fields of the wrong type fall back one by one to their initial values.
 */
export function restoreViewState(saved: unknown): DashboardViewState {
  if (!isRecord(saved) || saved['version'] !== dashboardStateVersion) return initialViewState;
  const chart = saved['chart'] === 'lines' ? 'lines' : 'stacked';
  return {
    version: dashboardStateVersion,
    folder: nullOr(saved['folder'], isString),
    runId: nullOr(saved['runId'], isNonNegativeInt),
    method: nullOr(saved['method'], isViewMethod),
    chart,
    filter: isEpisodeFilter(saved['filter']) ? saved['filter'] : {},
    sort: isSort(saved['sort']) ? saved['sort'] : initialViewState.sort,
    topRow: isNonNegativeInt(saved['topRow']) ? saved['topRow'] : 0,
  };
}

/** The run to show: the saved one if the folder still has it, else the host's choice, else the first. */
export function pickRun(data: DashboardRunsData, savedRunId: number | null): DashboardRun | undefined {
  const byId = (id: number | null): DashboardRun | undefined =>
    id === null ? undefined : data.runs.find((r) => r.runId === id);
  return byId(savedRunId) ?? byId(data.selectedRunId) ?? data.runs[0];
}

/** The method to show: the saved one, else the host's default. */
export function pickMethod(saved: ViewMethod | null, data: Pick<DashboardRunsData, 'defaultMethod'>): ViewMethod {
  return saved ?? data.defaultMethod;
}

/**
 * The state after the host's runs arrive: another folder drops the saved run, filter and scroll
 * position; a different run keeps the filter but forgets an agent the new run does not have, and
 * scrolls back to the top.
 */
export function stateForRuns(state: DashboardViewState, data: DashboardRunsData): DashboardViewState {
  const sameFolder = state.folder === data.folder;
  const base = sameFolder ? state : { ...state, folder: data.folder, runId: null, filter: {}, topRow: 0 };
  const run = pickRun(data, base.runId);
  const method = pickMethod(base.method, data);
  if (!run) return { ...base, method, runId: null };
  return run.runId === base.runId ? { ...base, method } : stateForRun({ ...base, method }, run);
}

/** The state when `run` becomes the shown run. */
export function stateForRun(state: DashboardViewState, run: DashboardRun): DashboardViewState {
  if (state.runId === run.runId) return state;
  const agent = state.filter.agent;
  const filter: EpisodeFilter =
    agent !== undefined && agent !== null && !run.agents.includes(agent)
      ? { ...state.filter, agent: null }
      : state.filter;
  return { ...state, runId: run.runId, filter, topRow: state.runId === null ? state.topRow : 0 };
}
