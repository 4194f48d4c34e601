import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DashboardRun, DashboardRunsData } from '../../../src/protocol/dashboardPanel';
import {
  initialViewState,
  pickMethod,
  pickRun,
  restoreViewState,
  stateForRun,
  stateForRuns,
} from '../../../webview/src/dashboard/viewState';

const run = (runId: number, agents: string[] = ['a', 'b']): DashboardRun => ({
  runId,
  name: `run${String(runId)}`,
  mechanism: null,
  episodes: 10,
  agents,
  steps: { min: 0, max: 9, count: 10 },
  flags: 0,
});

const data = (over: Partial<DashboardRunsData> = {}): DashboardRunsData => ({
  folder: '/f',
  folderName: 'f',
  runs: [run(1), run(2, ['c'])],
  selectedRunId: 2,
  defaultMethod: 'shapley',
  revision: 1,
  ...over,
});

test('restoreViewState drops state of another version and anything that is not a record', () => {
  assert.equal(restoreViewState(undefined), initialViewState);
  assert.equal(restoreViewState({ ...initialViewState, version: 0 }), initialViewState);
  assert.equal(restoreViewState('x'), initialViewState);
});

test('restoreViewState keeps valid fields and resets invalid ones one by one', () => {
  const saved = {
    version: 1,
    folder: '/f',
    runId: 3,
    method: 'owen',
    chart: 'lines',
    filter: { agent: 'a', stepFrom: 2 },
    sort: { key: 'reward', descending: true },
    topRow: 40,
  };
  assert.deepEqual(
    restoreViewState(saved),
    { ...saved, hiddenColumns: [], focusId: null },
    'a state saved before the agent columns and the focus',
  );
  const withColumns = {
    ...saved,
    sort: { key: 'credit:verifier', descending: false },
    hiddenColumns: ['planner'],
    focusId: 7,
  };
  assert.deepEqual(restoreViewState(withColumns), withColumns);
  assert.deepEqual(restoreViewState({ ...withColumns, hiddenColumns: [3] }).hiddenColumns, []);
  const bad = {
    version: 1,
    folder: 3,
    runId: -1,
    method: 'magic',
    chart: 'pie',
    filter: { stepFrom: 'x' },
    sort: { key: 'agents', descending: true },
    topRow: 1.5,
  };
  assert.deepEqual(restoreViewState(bad), initialViewState);
});

test('pickRun prefers the saved run, then the host choice, then the first; pickMethod the saved one', () => {
  assert.equal(pickRun(data(), 1)?.runId, 1);
  assert.equal(pickRun(data(), 99)?.runId, 2);
  assert.equal(pickRun(data({ selectedRunId: null }), null)?.runId, 1);
  assert.equal(pickRun(data({ runs: [] }), 1), undefined);
  assert.equal(pickMethod(null, data()), 'shapley');
  assert.equal(pickMethod('loo', data()), 'loo');
});

/** A state saved on run 1 of folder /f, filtered to agent a, scrolled down. */
const savedOnRun1 = {
  ...initialViewState,
  folder: '/f',
  runId: 1,
  method: 'loo' as const,
  filter: { agent: 'a' },
  topRow: 30,
};

test('stateForRuns keeps the state of the same folder and its run', () => {
  const state = savedOnRun1;
  assert.deepEqual(stateForRuns(state, data()), { state, notes: [] });
});

test('stateForRuns drops run, filter and scroll of another folder and takes the host defaults', () => {
  const state = {
    ...initialViewState,
    folder: '/other',
    runId: 1,
    filter: { agent: 'a' },
    topRow: 30,
    chart: 'lines' as const,
  };
  assert.deepEqual(stateForRuns(state, data()).state, {
    ...initialViewState,
    folder: '/f',
    runId: 2,
    method: 'shapley',
    chart: 'lines',
  });
});

test('stateForRun drops an agent the new run lacks, says so, and scrolls to the top', () => {
  const state = { ...initialViewState, folder: '/f', runId: 1, filter: { agent: 'a', flag: 'idle' }, topRow: 30 };
  assert.deepEqual(stateForRun(state, run(2, ['c'])), {
    state: { ...state, runId: 2, filter: { agent: null, flag: 'idle' }, topRow: 0 },
    notes: ['agent a dropped (not in this run)'],
  });
  assert.equal(stateForRun(state, run(1)).state, state);
  const fresh = { ...initialViewState, folder: '/f', topRow: 12 };
  assert.equal(stateForRun(fresh, run(1)).state.topRow, 12, 'the first pick keeps the restored scroll position');
});

test('a restored step brush outside the run is dropped, one that overlaps it is clamped, and both are said', () => {
  const twentySteps = { ...run(1), steps: { min: 0, max: 19, count: 20 } };
  const restored = { ...initialViewState, folder: '/f', runId: 1, filter: { stepFrom: 24, stepTo: 40 }, topRow: 30 };
  const outside = stateForRuns(restored, data({ runs: [twentySteps] }), true);
  assert.deepEqual(outside.state.filter, { stepFrom: null, stepTo: null });
  assert.equal(outside.state.topRow, 0);
  assert.deepEqual(outside.notes, ['steps 24–40 dropped (this run has steps 0–19)']);
  const overlapping = { ...restored, filter: { stepFrom: 15, stepTo: 40 } };
  const clamped = stateForRuns(overlapping, data({ runs: [twentySteps] }), true);
  assert.deepEqual(clamped.state.filter, { stepFrom: 15, stepTo: 19 });
  assert.deepEqual(clamped.notes, ['steps 15–40 clamped to 15–19 (this run has steps 0–19)']);
  // Not restoring (a new revision of the same run): the user's own filter is left as it is.
  assert.deepEqual(stateForRuns(restored, data({ runs: [twentySteps] })).state.filter, restored.filter);
  // A switch to a run without the brushed steps drops it too.
  const switched = stateForRun({ ...restored, runId: 2 }, twentySteps);
  assert.deepEqual(switched.notes, ['steps 24–40 dropped (this run has steps 0–19)']);
});

test("a new focus (a quick fix's steps) selects its run over the saved one and sets the step filter, once", () => {
  const saved = savedOnRun1;
  const focus = { id: 5, runId: 2, steps: { from: 3, to: 6 } };
  const focused = stateForRuns(saved, data({ focus }), true);
  assert.deepEqual(focused, {
    state: { ...saved, runId: 2, filter: { stepFrom: 3, stepTo: 6 }, topRow: 0, focusId: 5 },
    notes: [],
  });
  // The same focus posted again (a refresh) leaves what the user did since alone.
  const moved = { ...focused.state, runId: 1, filter: { stepFrom: 1, stepTo: 2 } };
  assert.deepEqual(stateForRuns(moved, data({ focus })).state, moved);
  // Steps the run lacks are fitted like a restored brush: clamped (or dropped) and said.
  const wide = stateForRuns(saved, data({ focus: { id: 6, runId: 2, steps: { from: 5, to: 40 } } }));
  assert.deepEqual(
    [wide.state.filter, wide.notes],
    [{ stepFrom: 5, stepTo: 9 }, ['steps 5–40 clamped to 5–9 (this run has steps 0–9)']],
  );
  const outside = stateForRuns(saved, data({ focus: { id: 7, runId: 2, steps: { from: 24, to: 40 } } }));
  assert.deepEqual(outside.state.filter, { stepFrom: null, stepTo: null });
  assert.deepEqual(outside.notes, ['steps 24–40 dropped (this run has steps 0–9)']);
  // A focus without steps switches the run, its filter fitted as on any switch; one naming no run of the folder does nothing.
  const runOnly = stateForRuns(saved, data({ focus: { id: 8, runId: 2, steps: null } }));
  assert.deepEqual([runOnly.state.runId, runOnly.state.filter, runOnly.state.focusId], [2, { agent: null }, 8]);
  assert.deepEqual(stateForRuns(saved, data({ focus: { id: 9, runId: 99, steps: null } })).state, saved);
});

test('stateForRun drops a credit filter and a credit sort of an agent the new run lacks', () => {
  const state = {
    ...initialViewState,
    folder: '/f',
    runId: 1,
    filter: { agentCredit: { agent: 'a', max: 0.05 } },
    sort: { key: 'credit:a' as const, descending: false },
  };
  const fitted = stateForRun(state, run(2, ['c']));
  assert.deepEqual(fitted.state.filter, { agentCredit: null });
  assert.deepEqual(fitted.state.sort, initialViewState.sort);
  assert.deepEqual(fitted.notes, ['credit filter of agent a dropped (not in this run)']);
  assert.equal(stateForRun({ ...state, runId: 2 }, run(1)).state.sort.key, 'credit:a', 'kept where the agent is');
});
