import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  clampIndex,
  describeRange,
  fitChoice,
  fitRange,
  orNull,
  restoreFields,
  type FieldChecks,
} from '../../../webview/src/kit/state';

interface Saved {
  readonly version: number;
  readonly name: string | null;
  readonly count: number;
}

const initial: Saved = { version: 2, name: null, count: 0 };
const isName = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const checks: FieldChecks<Omit<Saved, 'version'>> = {
  name: orNull(isName),
  count: (v): v is number => Number.isSafeInteger(v),
};

describe('restoreFields: the shape half of the restore policy', () => {
  test('another version, or no record, is the initial state', () => {
    for (const saved of [undefined, null, 3, 'x', [], { version: 1, name: 'a', count: 4 }])
      assert.equal(restoreFields(saved, initial, checks), initial, JSON.stringify(saved));
  });

  test('each field that fails its check falls back alone; unknown keys are not carried', () => {
    assert.deepEqual(restoreFields({ version: 2, name: 'a', count: 4, extra: true }, initial, checks), {
      version: 2,
      name: 'a',
      count: 4,
    });
    assert.deepEqual(restoreFields({ version: 2, name: '', count: 4 }, initial, checks), { ...initial, count: 4 });
    assert.deepEqual(restoreFields({ version: 2, name: 'a', count: 1.5 }, initial, checks), { ...initial, name: 'a' });
  });
});

describe('fitRange: the fit half, for a brushed range of steps', () => {
  const steps = { min: 1, max: 20 };

  test('a range inside the bounds, or no range, is kept without a note', () => {
    assert.deepEqual(fitRange({ from: 3, to: 9 }, steps, 'steps'), { value: { from: 3, to: 9 }, note: null });
    assert.deepEqual(fitRange({ from: null, to: null }, steps, 'steps').note, null);
    assert.deepEqual(fitRange({ from: 5, to: null }, steps, 'steps'), { value: { from: 5, to: null }, note: null });
  });

  test('a range outside the bounds is dropped, and the note says what the data has', () => {
    assert.deepEqual(fitRange({ from: 24, to: 40 }, steps, 'steps'), {
      value: { from: null, to: null },
      note: 'steps 24–40 dropped (this run has steps 1–20)',
    });
    assert.equal(fitRange({ from: null, to: 0 }, steps, 'steps').value.to, null);
    assert.equal(fitRange({ from: 9, to: 3 }, steps, 'steps').note, 'steps 9–3 dropped (this run has steps 1–20)');
    assert.deepEqual(fitRange({ from: 2, to: 4 }, { min: null, max: null }, 'steps'), {
      value: { from: null, to: null },
      note: 'steps 2–4 dropped (this run has no steps)',
    });
  });

  test('a range that overlaps the bounds is clamped at the end that lies outside; an open end stays open', () => {
    assert.deepEqual(fitRange({ from: 15, to: 40 }, steps, 'steps'), {
      value: { from: 15, to: 20 },
      note: 'steps 15–40 clamped to 15–20 (this run has steps 1–20)',
    });
    assert.deepEqual(fitRange({ from: null, to: 1_500 }, { min: 0, max: 1_200 }, 'steps').value, {
      from: null,
      to: 1_200,
    });
    assert.equal(describeRange({ from: null, to: 1_500 }), '…–1,500');
  });
});

test('clampIndex keeps a position inside the data; fitChoice drops a value the data lacks, with a note', () => {
  assert.equal(clampIndex(500, 200), 199);
  assert.equal(clampIndex(3, 0), 0);
  assert.equal(clampIndex(-4, 10), 0);
  assert.deepEqual(
    fitChoice<string>('critic', (a) => a === 'solver', 'agent'),
    {
      value: null,
      note: 'agent critic dropped (not in this run)',
    },
  );
  assert.deepEqual(
    fitChoice<string>('solver', (a) => a === 'solver', 'agent'),
    { value: 'solver', note: null },
  );
  assert.deepEqual(
    fitChoice(null, () => false, 'agent'),
    { value: null, note: null },
  );
});
