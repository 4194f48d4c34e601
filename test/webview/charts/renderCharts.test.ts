import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JSDOM } from 'jsdom';
import { heatmapModel } from '../../../webview/src/charts/heatmapModel';
import { idleModel } from '../../../webview/src/charts/idleModel';
import { agentPalette } from '../../../webview/src/charts/palette';
import { renderHeatmap } from '../../../webview/src/charts/renderHeatmap';
import { renderIdle } from '../../../webview/src/charts/renderIdle';
import { renderShare } from '../../../webview/src/charts/renderShare';
import { shareModel } from '../../../webview/src/charts/shareModel';
import { windowMarks } from '../../../webview/src/charts/windowModel';
import { agents, smallOverview } from './fixtures';

// d3-brush asks `navigator.maxTouchPoints`; Node 20 has no global navigator.
const dom = new JSDOM('<!DOCTYPE html><body></body>');
(globalThis as { navigator?: unknown }).navigator ??= dom.window.navigator;

function svg(): SVGSVGElement {
  const element = dom.window.document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  dom.window.document.body.append(element);
  return element;
}

const color = agentPalette(agents);

test('renderShare draws stacked layers or lines, keyed by agent, with the windows shaded and labelled', () => {
  const element = svg();
  const overview = smallOverview();
  const windows = windowMarks(overview.windows);
  renderShare(element, shareModel(overview, agents), {
    width: 600,
    label: 'Credit share',
    mode: 'stacked',
    color,
    windows,
  });
  assert.equal(element.getAttribute('aria-label'), 'Credit share');
  assert.equal(element.getAttribute('role'), 'img');
  assert.equal(element.querySelectorAll('path.layer').length, 3);
  assert.equal(element.querySelectorAll('path.series').length, 0);
  const layer = element.querySelector('path.layer[data-key="verifier"]');
  renderShare(element, shareModel(overview, agents), {
    width: 600,
    label: 'Credit share',
    mode: 'lines',
    color,
    windows,
  });
  assert.equal(element.querySelectorAll('path.layer').length, 0);
  assert.equal(element.querySelectorAll('path.series').length, 3);
  assert.ok(layer && !layer.isConnected, 'leaving stacked mode removes the layers');
  assert.deepEqual(
    [...element.querySelectorAll('rect.window')].map((r) => r.getAttribute('class')),
    ['window window-decoupling', 'window window-idle'],
  );
  assert.deepEqual(
    [...element.querySelectorAll('.window-label text')].map((t) => t.textContent),
    ['decoupling · verifier (steps 3–5)', 'idle · verifier (steps 3–5)'],
  );
  assert.equal(element.querySelectorAll('rect.hit title').length, 6, 'one tooltip column per step');
  assert.equal(element.querySelectorAll('g.axis-x').length, 1, 'the x and y axes are separate layers');
  assert.equal(element.querySelectorAll('g.axis-y').length, 1);
});

test('renderHeatmap keys cells by agent and step, reuses them on update and labels the svg', () => {
  const element = svg();
  const calls: unknown[] = [];
  const options = { width: 500, label: 'Heatmap', selected: undefined, onBrush: (r: unknown) => calls.push(r) };
  renderHeatmap(element, heatmapModel(smallOverview(), agents), options);
  assert.equal(element.getAttribute('aria-label'), 'Heatmap');
  const cells = element.querySelectorAll('rect.cell');
  assert.equal(cells.length, 18);
  assert.equal(element.querySelectorAll('rect.cell.empty').length, 1);
  const first = cells[0];
  renderHeatmap(element, heatmapModel(smallOverview(), agents), { ...options, selected: [1, 2] });
  assert.equal(element.querySelectorAll('rect.cell')[0], first, 'the same key keeps its element');
  assert.equal(element.querySelectorAll('g.brush').length, 1);
  assert.equal(calls.length, 0, 'a programmatic brush does not report back');
  renderHeatmap(element, heatmapModel(smallOverview(), agents, 2), options);
  assert.equal(element.querySelectorAll('rect.cell').length, 6, 'binned columns replace the per-step ones');
});

test('renderHeatmap classes cells by state: zero, no credit, not identifiable (hatched), beyond', () => {
  const element = svg();
  const overview = smallOverview();
  const model = heatmapModel(
    { ...overview, colour: { domain: { bound: 0.25, reward: null }, unidentifiedSteps: [5] } },
    agents,
  );
  renderHeatmap(element, model, { width: 500, label: 'Heatmap', selected: undefined, onBrush: () => undefined });
  const cell = (agent: number, col: number) => element.querySelectorAll<SVGRectElement>('rect.cell')[agent * 6 + col];
  assert.equal(cell(2, 4)?.getAttribute('class'), 'cell zero');
  assert.equal(cell(2, 4)?.style.fill, 'var(--credit-zero)');
  assert.equal(cell(2, 5)?.getAttribute('class'), 'cell unidentified');
  assert.equal(cell(2, 5)?.style.fill, '', 'the hatch comes from the stylesheet');
  assert.equal(cell(2, 3)?.getAttribute('class'), 'cell value beyond');
  assert.equal(cell(0, 0)?.getAttribute('class'), 'cell value');
  assert.match(cell(0, 0)?.style.fill ?? '', /^color-mix\(in oklab, var\(--credit-positive\) 40%/);
  assert.equal(element.querySelectorAll('pattern#credit-lens-unidentified').length, 1);
  renderHeatmap(element, model, { width: 500, label: 'Heatmap', selected: undefined, onBrush: () => undefined });
  assert.equal(element.querySelectorAll('pattern').length, 1, 'the hatch is defined once');
});

test('chart text from the trace stays text: agent names with markup make no elements', () => {
  const element = svg();
  const evil = '<img src=x onerror="window.__xss=1">';
  const overview = smallOverview();
  const names = ['planner', 'solver', evil];
  const renamed = { ...overview, meanCredit: { ...overview.meanCredit, rows: names } };
  renderHeatmap(element, heatmapModel(renamed, names), {
    width: 500,
    label: 'Heatmap',
    selected: undefined,
    onBrush: () => undefined,
  });
  assert.equal(element.querySelectorAll('img').length, 0);
  assert.equal(element.querySelectorAll('style').length, 0);
  assert.ok([...element.querySelectorAll('.row-label title')].some((t) => t.textContent === evil));
});

test('renderIdle draws the idle lines and a flag mark per flagged step in the agent row', () => {
  const element = svg();
  renderIdle(element, idleModel(smallOverview(), agents), { width: 500, label: 'Idle', color });
  assert.equal(element.querySelectorAll('path.series').length, 3);
  const marks = [...element.querySelectorAll('rect.flag-mark')];
  assert.equal(marks.length, 3);
  assert.deepEqual(
    marks.map((m) => m.querySelector('title')?.textContent),
    ['verifier, step 3: 2 flags', 'verifier, step 4: 2 flags', 'verifier, step 5: 1 flag'],
  );
  assert.deepEqual(
    [...element.querySelectorAll('.strip-label')].map((t) => t.textContent),
    agents,
  );
});
