import {
  dashboardStateVersion,
  isEpisodeFilter,
  isEpisodeSortKey,
  type DashboardRun,
  type DashboardRunsData,
  type DashboardViewState,
  type EpisodeFilter,
} from '../../../src/protocol/dashboardPanel';
import { isRecord } from '../../../src/protocol/ipc';
import { isNonNegativeInt, isViewMethod, type ViewMethod } from '../../../src/protocol/viewData';
import { fitChoice, fitRange, orNull, restoreFields, type FieldChecks } from '../kit/state';

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
  hiddenColumns: [],
  focusId: null,
};

function isSort(value: unknown): value is EpisodeSort {
  return isRecord(value) && isEpisodeSortKey(value['key']) && typeof value['descending'] === 'boolean';
}

const isFolder = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isChartMode = (v: unknown): v is ChartMode => v === 'stacked' || v === 'lines';

const checks: FieldChecks<Omit<DashboardViewState, 'version'>> = {
  folder: orNull(isFolder),
  runId: orNull(isNonNegativeInt),
  method: orNull(isViewMethod),
  chart: isChartMode,
  filter: isEpisodeFilter,
  sort: isSort,
  topRow: isNonNegativeInt,
  hiddenColumns: (v: unknown): v is readonly string[] => Array.isArray(v) && v.every((a) => typeof a === 'string'),
  focusId: orNull(isNonNegativeInt),
};

/** The saved state under the views' one restore policy (kit/state.ts); the run it names is fitted when the runs arrive. */
export function restoreViewState(saved: unknown): DashboardViewState {
  return restoreFields(saved, initialViewState, checks);
}

/** A state for the runs or the run shown, with what of its filter did not fit the run (said in the filter bar). */
export interface RunState {
  readonly state: DashboardViewState;
  readonly notes: readonly string[];
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
 * position; a different run fits the filter to it and scrolls back to the top; `restoring` (the
 * first runs after a reload) fits the restored filter to the run even when it stays the same. A
 * focus not applied yet (the dashboard opened on a run, or on a flag's steps) comes first: see
 * {@link stateForFocus}.
 */
export function stateForRuns(state: DashboardViewState, data: DashboardRunsData, restoring = false): RunState {
  const sameFolder = state.folder === data.folder;
  const base = sameFolder ? state : { ...state, folder: data.folder, runId: null, filter: {}, topRow: 0 };
  const focused = stateForFocus(base, data);
  if (focused) return focused;
  const run = pickRun(data, base.runId);
  const method = pickMethod(base.method, data);
  if (!run) return { state: { ...base, method, runId: null }, notes: [] };
  if (run.runId !== base.runId) return stateForRun({ ...base, method }, run);
  return restoring ? fitToRun({ ...base, method }, run) : { state: { ...base, method }, notes: [] };
}

/**
 * The state for the host's focus when it is new (its id not applied yet) and names a run of the
 * folder: that run, and with steps the filter set to just those steps, fitted to the run's steps
 * like a restored filter (clamped or dropped, with a note). Undefined when there is nothing to apply.
 */
export function stateForFocus(state: DashboardViewState, data: DashboardRunsData): RunState | undefined {
  const focus = data.focus;
  if (!focus || focus.id === state.focusId) return undefined;
  const run = data.runs.find((r) => r.runId === focus.runId);
  if (!run) return undefined;
  const method = pickMethod(state.method, data);
  const applied = { ...state, method, focusId: focus.id };
  if (!focus.steps) return stateForRun(applied, run);
  const filter = { stepFrom: focus.steps.from, stepTo: focus.steps.to };
  const fitted = fitToRun({ ...applied, filter, runId: run.runId }, run);
  return { state: { ...fitted.state, topRow: 0 }, notes: fitted.notes };
}

/** The state when `run` becomes the shown run: its filter fitted to the run. */
export function stateForRun(state: DashboardViewState, run: DashboardRun): RunState {
  if (state.runId === run.runId) return { state, notes: [] };
  const fitted = fitToRun(state, run);
  const topRow = state.runId === null ? fitted.state.topRow : 0;
  return { state: { ...fitted.state, runId: run.runId, topRow }, notes: fitted.notes };
}

/** `state` with its filter fitted to `run` (steps it has, agents of its roster); a changed filter scrolls to the top. */
function fitToRun(state: DashboardViewState, run: DashboardRun): RunState {
  const { filter } = state;
  const notes: string[] = [];
  let fitted: EpisodeFilter = filter;
  const steps = fitRange({ from: filter.stepFrom ?? null, to: filter.stepTo ?? null }, run.steps, 'steps');
  if (steps.note !== null) {
    notes.push(steps.note);
    fitted = { ...fitted, stepFrom: steps.value.from, stepTo: steps.value.to };
  }
  const agent = fitChoice(filter.agent, (a) => run.agents.includes(a), 'agent');
  if (agent.note !== null) {
    notes.push(agent.note);
    fitted = { ...fitted, agent: null };
  }
  const credit = fitChoice(filter.agentCredit?.agent, (a) => run.agents.includes(a), 'credit filter of agent');
  if (credit.note !== null) {
    notes.push(credit.note);
    fitted = { ...fitted, agentCredit: null };
  }
  // A sort by the credit of an agent the run lacks falls back to the step order.
  const sortAgent = state.sort.key.startsWith('credit:') ? state.sort.key.slice('credit:'.length) : null;
  const sort = sortAgent !== null && !run.agents.includes(sortAgent) ? initialViewState.sort : state.sort;
  if (notes.length === 0 && sort === state.sort) return { state, notes };
  return { state: { ...state, filter: fitted, sort, topRow: 0 }, notes };
}
