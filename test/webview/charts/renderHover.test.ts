import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hoverBins } from '../../../webview/src/charts/lineModel';
import { hoverSpans } from '../../../webview/src/charts/renderHover';

test('hoverSpans reach halfway to the neighbouring columns and cover the plot', () => {
  const bins = hoverBins([0, 1, 3], [{ key: 'a', label: 'a', values: [1, 2, 3] }], 10, String);
  const spans = hoverSpans(bins, (step) => step * 10, 30);
  assert.deepEqual(
    spans.map((s) => [s.x0, s.x1]),
    [
      [0, 5],
      [5, 20],
      [20, 30],
    ],
  );
  assert.equal(spans[2]?.text, 'step 3: a 3');
});
