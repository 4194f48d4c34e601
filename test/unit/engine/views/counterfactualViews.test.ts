import assert from 'node:assert/strict';
import { test } from 'node:test';
import { counterfactualViews } from '../../../../src/engine/views/counterfactualViews';

const roster = [1, 2, 3, 4, 5, 6, 7].map((agentId) => ({ agentId, name: `a${String(agentId)}` }));
const names = new Map([...roster.map((a) => [a.agentId, a.name] as const), [9, 'outsider']]);

test('counterfactualViews(sources) keeps the 64 most informative rows of a 7-agent coalition table: singletons, the full team, then pairs', () => {
  const values: Record<string, number> = {};
  for (let mask = 0; mask < 1 << 7; mask++)
    values[
      roster
        .filter((_, i) => (mask >> i) & 1)
        .map((a) => a.agentId)
        .join(',')
    ] = mask / 128;
  const views = counterfactualViews({
    roster,
    names,
    counterfactuals: [],
    coalitions: [{ source: 'computed', valuesJson: JSON.stringify(values), countsJson: null }],
    evaluations: [],
  });
  assert.equal(views.length, 64);
  assert.deepEqual(
    views.slice(0, 7).map((v) => v.removed),
    roster.map((a) => [a.name]),
  );
  assert.deepEqual(views[7]?.removed, []);
  assert.equal(views[7]?.reward, 127 / 128);
  assert.ok(views.slice(8).every((v) => v.removed.length === 2 || v.removed.length === 3));
  assert.ok(views.every((v) => v.source === 'computed' && v.intervention === 'coalition'));
});

test('counterfactualViews(sources) names agents in roster order, outsiders by the run roster, and skips unreadable tables', () => {
  const views = counterfactualViews({
    roster: roster.slice(0, 3),
    names,
    counterfactuals: [
      { agents: '3,1', intervention: 'resample_self', value: 0.5, evaluator: 'judge', n: 8, source: 'logged' },
      { agents: '9', intervention: 'remove', value: 1, evaluator: null, n: 1, source: 'computed' },
    ],
    coalitions: [{ source: 'logged', valuesJson: '{not json', countsJson: null }],
    evaluations: [{ evaluator: 'fp', intervention: 'agents:', value: 0 }],
  });
  assert.deepEqual(
    views.map((v) => [v.removed, v.intervention, v.source, v.evaluator, v.n]),
    [
      [['outsider'], 'remove', 'computed', null, 1],
      [['a1', 'a3'], 'resample_self', 'logged', 'judge', 8],
      [['a1', 'a2', 'a3'], 'coalition', 'cached', 'fp', null],
    ],
  );
});
