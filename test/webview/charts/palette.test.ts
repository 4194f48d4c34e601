import assert from 'node:assert/strict';
import { test } from 'node:test';
import { schemeTableau10 } from 'd3-scale-chromatic';
import { agentPalette } from '../../../webview/src/charts/palette';

test('agentPalette gives roster agents Tableau 10 colours in order, the same every call', () => {
  const color = agentPalette(['planner', 'solver', 'verifier']);
  assert.deepEqual(['planner', 'solver', 'verifier'].map(color), schemeTableau10.slice(0, 3));
  assert.equal(color('solver'), agentPalette(['planner', 'solver', 'verifier'])('solver'));
});

test('agentPalette gives agents outside the roster the next free colours, stably', () => {
  const color = agentPalette(['a']);
  const x = color('x');
  assert.equal(x, schemeTableau10[1]);
  assert.equal(color('y'), schemeTableau10[2]);
  assert.equal(color('x'), x);
  assert.equal(
    agentPalette(Array.from({ length: 11 }, (_, i) => `a${String(i)}`))('a10'),
    schemeTableau10[0],
    'the palette wraps',
  );
});
