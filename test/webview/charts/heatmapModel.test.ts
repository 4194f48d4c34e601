import assert from 'node:assert/strict';
import { test } from 'node:test';
import { columnSteps, columnsInPixels, heatmapModel, stepColumns } from '../../../webview/src/charts/heatmapModel';
import { stepBins } from '../../../webview/src/charts/stepBins';
import { agents, smallOverview } from './fixtures';

test('heatmapModel has one cell per agent and step, keyed, with explicit empty cells', () => {
  const model = heatmapModel(smallOverview(), agents);
  assert.equal(model.cells.length, 18);
  assert.equal(new Set(model.cells.map((c) => c.key)).size, 18, 'keys are unique');
  const last = model.cells.find((c) => c.agent === 'verifier' && c.col === 5);
  assert.equal(last?.value, null);
  assert.equal(last?.paint.state, 'none');
  assert.equal(last?.text, 'verifier, step 5: no credit');
  assert.equal(model.bound, 1, "the run's fixed domain, not the largest |mean| (0.3)");
  const zero = model.cells.find((c) => c.agent === 'verifier' && c.col === 4);
  assert.equal(zero?.paint.state, 'zero');
  assert.equal(zero?.paint.color, 'var(--credit-zero)');
});

test('heatmapModel hatches cells without credit at not-identifiable steps and marks values beyond the domain', () => {
  const overview = smallOverview();
  const model = heatmapModel(
    {
      ...overview,
      coverage: { ...overview.coverage, notIdentifiable: 4, reason: 'no counterfactuals <img src=x onerror=alert(1)>' },
      colour: { domain: { bound: 0.25, reward: { min: 0, max: 0.25 } }, unidentifiedSteps: [5] },
    },
    agents,
  );
  const unknown = model.cells.find((c) => c.agent === 'verifier' && c.col === 5);
  assert.equal(unknown?.paint.state, 'unidentified');
  assert.equal(unknown?.text, 'verifier, step 5: not identifiable (no counterfactuals <img src=x onerror=alert(1)>)');
  const valued = model.cells.find((c) => c.agent === 'planner' && c.col === 5);
  assert.equal(valued?.paint.state, 'value', 'a cell with credit at that step keeps its value');
  const beyond = model.cells.find((c) => c.agent === 'verifier' && c.col === 3);
  assert.equal(beyond?.paint.beyond, 'below');
  assert.equal(beyond?.text, "verifier, step 3: mean credit -0.300 (beyond the scale's −0.25, drawn at its end)");
  assert.equal(model.cells.filter((c) => c.paint.beyond !== null).length, 1);
  const binned = heatmapModel({ ...overview, colour: { ...overview.colour, unidentifiedSteps: [5] } }, agents, 3);
  assert.equal(
    binned.cells.find((c) => c.agent === 'verifier' && c.col === 2)?.paint.state,
    'zero',
    'bin 4–5 has a value',
  );
});

test('heatmapModel bins steps into at most maxColumns columns (mean of each bin)', () => {
  const model = heatmapModel(smallOverview(), agents, 3);
  assert.equal(model.columns.length, 3);
  const cell = model.cells.find((c) => c.agent === 'verifier' && c.col === 1);
  assert.ok(cell?.value !== null && cell?.value !== undefined && Math.abs(cell.value - (0.1 - 0.3) / 2) < 1e-12);
  assert.equal(cell.text, 'verifier, steps 2–3: mean credit -0.100');
});

test('columnsInPixels maps a pixel range to the columns it touches', () => {
  assert.deepEqual(columnsInPixels(10, 100, [0, 100]), [0, 9]);
  assert.deepEqual(columnsInPixels(10, 100, [25, 31]), [2, 3]);
  assert.deepEqual(columnsInPixels(10, 100, [20, 30]), [2, 2], 'a range ending on a boundary stops before it');
  assert.deepEqual(columnsInPixels(10, 100, [-5, 500]), [0, 9], 'clamped');
  assert.equal(columnsInPixels(10, 100, [30, 30]), undefined);
  assert.equal(columnsInPixels(0, 100, [0, 10]), undefined);
});

test('columnSteps and stepColumns convert between columns and a step filter', () => {
  const columns = stepBins([0, 2, 4, 6, 8, 10], 3);
  assert.deepEqual(columnSteps(columns, [1, 2]), { stepFrom: 4, stepTo: 10 });
  assert.equal(columnSteps(columns, [1, 7]), undefined);
  assert.deepEqual(stepColumns(columns, 3, 5), [1, 1]);
  assert.deepEqual(stepColumns(columns, null, 4), [0, 1]);
  assert.deepEqual(stepColumns(columns, null, 3), [0, 0], 'a column starting after stepTo is out');
  assert.deepEqual(stepColumns(columns, 9, null), [2, 2]);
  assert.equal(stepColumns(columns, null, null), undefined);
  assert.equal(stepColumns(columns, 20, 30), undefined);
});
