import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InfluenceEdgeView, InfluenceGraphView } from '../../../src/protocol/influence';
import { edgeLabel, influenceModel, influenceStatus } from '../../../webview/src/influence/influenceModel';

const edge = (from: string, to: string | null, kind: InfluenceEdgeView['kind'], value: number): InfluenceEdgeView => ({
  from,
  to,
  kind,
  value,
  exact: true,
  provenance: '',
  connections: 0,
  episodes: 1,
});

const graph: InfluenceGraphView = {
  agents: [
    { name: 'p', noInfluence: false },
    { name: 's', noInfluence: null },
    { name: 'v', noInfluence: true },
  ],
  edges: [
    edge('p', 's', 'logged', 0.8),
    edge('s', 's', 'logged', 5),
    edge('p', null, 'counterfactual', -0.5),
    edge('s', null, 'counterfactual', 1),
    edge('v', null, 'counterfactual', 0),
  ],
  episodes: 1,
  skipped: 0,
  missing: null,
};

test('influenceModel(graph) puts the agents on one line in roster order and the outcome last', () => {
  const model = influenceModel(graph);
  assert.deepEqual(
    model.nodes.map((n) => [n.name, n.outcome]),
    [
      ['p', false],
      ['s', false],
      ['v', false],
      ['outcome', true],
    ],
  );
  const xs = model.nodes.map((n) => n.x);
  assert.ok(xs.every((x, i) => i === 0 || x > (xs[i - 1] ?? 0)));
  assert.equal(model.width, (xs.at(-1) ?? 0) + (xs[0] ?? 0));
});

test('influenceModel(graph) draws logged arcs above the line and counterfactual arcs below, no self-loop', () => {
  const model = influenceModel(graph);
  assert.equal(model.arcs.length, 4, 'the s → s logged edge is only in the table');
  for (const arc of model.arcs) {
    const control = Number(/Q[\d.]+,([\d.]+)/.exec(arc.path)?.[1]);
    if (arc.kind === 'logged') assert.ok(control < model.lineY, arc.path);
    else assert.ok(control > model.lineY, arc.path);
  }
});

test('influenceModel(graph) scales width by |value| within each kind, and colours by sign', () => {
  const model = influenceModel(graph);
  const byKey = new Map(model.arcs.map((a) => [`${a.from}>${a.to}:${a.kind}`, a]));
  // Every edge of a kind sets its scale, drawn or not: 0.8 next to the self-edge's 5 is thin.
  const logged = byKey.get('p>s:logged');
  const solver = byKey.get('s>outcome:counterfactual');
  const planner = byKey.get('p>outcome:counterfactual');
  const verifier = byKey.get('v>outcome:counterfactual');
  assert.ok(logged && solver && planner && verifier);
  assert.equal(solver.width, 7);
  assert.ok(planner.width > 1 && planner.width < solver.width);
  assert.equal(verifier.width, 1);
  assert.ok(logged.width < 3, String(logged.width));
  assert.deepEqual([solver.sign, planner.sign, verifier.sign], ['positive', 'negative', 'zero']);
});

test('labels say the value, the kind, exactness and the no-influence state in words', () => {
  assert.equal(
    edgeLabel({ ...edge('p', null, 'counterfactual', -0.5), exact: false }),
    'p → outcome: −0.500 (counterfactual, approximate)',
  );
  assert.equal(edgeLabel(edge('p', 's', 'logged', Number.NaN)), 'p → s: — (logged, exact)');
  assert.deepEqual([true, false, null].map(influenceStatus), [
    'no influence',
    'influences others or the outcome',
    'effect of its removal not logged',
  ]);
  assert.equal(influenceModel(graph).nodes[2]?.label, 'v: no influence');
});

test('replayed edges: an output distance arcs above, higher than a logged weight between the same pair; a message edge is not drawn', () => {
  const replayed: InfluenceGraphView = {
    ...graph,
    edges: [
      edge('p', 's', 'logged', 0.8),
      edge('p', 's', 'replayed-output', 0.4),
      { ...edge('p', null, 'counterfactual', 1), message: 2 },
    ],
  };
  const model = influenceModel(replayed);
  assert.deepEqual(
    model.arcs.map((a) => a.kind),
    ['logged', 'replayed-output'],
  );
  // p at x 44, s at 128: the control point is lineY − 2·lift, lift (18 + 84/4) = 39, ×1.4 for replayed output.
  const controlY = (path: string): number => Number(/Q[\d.]+,(-?[\d.]+)/.exec(path)?.[1]);
  assert.equal(controlY(model.arcs[0]?.path ?? ''), 92 - 2 * 39);
  assert.ok(Math.abs(controlY(model.arcs[1]?.path ?? '') - (92 - 2 * 39 * 1.4)) < 1e-9);
  // Each kind has its own scale: the lone replayed-output arc is the widest of its kind.
  assert.equal(model.arcs[1]?.width, 7);
  assert.equal(
    edgeLabel({ ...edge('p', null, 'counterfactual', 1), message: 2 }),
    'p, message #3 → outcome: +1.000 (counterfactual, exact)',
  );
});
