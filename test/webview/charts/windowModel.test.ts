import assert from 'node:assert/strict';
import { test } from 'node:test';
import { windowClass, windowMarks } from '../../../webview/src/charts/windowModel';

test('windowMarks puts overlapping windows on separate lanes and reuses a lane after a window ends', () => {
  const { marks, lanes } = windowMarks([
    { flagId: 1, kind: 'decoupling', agent: 'verifier', from: 28, to: 59 },
    { flagId: 2, kind: 'idle', agent: 'verifier', from: 28, to: 59 },
    { flagId: 3, kind: 'free-rider', agent: null, from: 0, to: 10 },
    { flagId: 4, kind: 'silent', agent: 'solver', from: 11, to: 20 },
  ]);
  assert.equal(lanes, 2);
  assert.deepEqual(
    marks.map((m) => [m.flagId, m.lane]),
    [
      [3, 0],
      [4, 0],
      [1, 0],
      [2, 1],
    ],
  );
  assert.equal(marks.find((m) => m.flagId === 1)?.label, 'decoupling · verifier (steps 28–59)');
  assert.equal(marks.find((m) => m.flagId === 3)?.label, 'free-rider · team (steps 0–10)');
});

test('windowMarks swaps an inverted range and labels a one-step window', () => {
  const { marks } = windowMarks([{ flagId: 9, kind: 'idle', agent: 'a', from: 7, to: 5 }]);
  assert.deepEqual([marks[0]?.from, marks[0]?.to], [5, 7]);
  assert.equal(
    windowMarks([{ flagId: 1, kind: 'idle', agent: 'a', from: 4, to: 4 }]).marks[0]?.label,
    'idle · a (step 4)',
  );
  assert.deepEqual(windowMarks([]), { marks: [], lanes: 0 });
});

test('windowClass names known kinds and folds unknown ones (never the raw kind) into window-other', () => {
  assert.equal(windowClass('decoupling'), 'window window-decoupling');
  assert.equal(windowClass('x" onload="y'), 'window window-other');
});
