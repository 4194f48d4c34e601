import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  cleanFilter,
  describeFilter,
  fieldText,
  hasFilter,
  nextSort,
  parseFilterField,
  patchFilter,
} from '../../../webview/src/dashboard/filterModel';

test('parseFilterField: blank clears, numbers must be finite, steps whole', () => {
  assert.deepEqual(parseFilterField('stepFrom', '  '), { ok: true, value: null });
  assert.deepEqual(parseFilterField('stepFrom', ' 28 '), { ok: true, value: 28 });
  assert.deepEqual(parseFilterField('stepFrom', '2.5'), { ok: false });
  assert.deepEqual(parseFilterField('rewardMin', '0.75'), { ok: true, value: 0.75 });
  assert.deepEqual(parseFilterField('rewardMax', 'high'), { ok: false });
  assert.deepEqual(parseFilterField('rewardMax', 'Infinity'), { ok: false });
  assert.deepEqual(parseFilterField('group', ' g-1 '), { ok: true, value: 'g-1' });
  assert.equal(
    (parseFilterField('search', 'x'.repeat(2000)) as { value: string }).value.length,
    1024,
    'bounded like the protocol guard',
  );
});

test('cleanFilter drops empty fields and orders keys; patchFilter applies and clears', () => {
  assert.deepEqual(cleanFilter({ search: '', agent: null, stepTo: 5, group: undefined, stepFrom: 0 }), {
    stepFrom: 0,
    stepTo: 5,
  });
  assert.equal(JSON.stringify(cleanFilter({ search: 'a', stepFrom: 1 })), '{"stepFrom":1,"search":"a"}');
  assert.deepEqual(patchFilter({ stepFrom: 1, agent: 'a' }, { agent: null, flag: 'any' }), {
    stepFrom: 1,
    flag: 'any',
  });
  assert.equal(hasFilter({ agent: null }), false);
  assert.equal(hasFilter({ stepFrom: 0 }), true, 'step 0 is a filter');
});

test('fieldText shows a field of the filter, blank when unset', () => {
  assert.equal(fieldText({ stepFrom: 0 }, 'stepFrom'), '0');
  assert.equal(fieldText({}, 'search'), '');
});

test('nextSort flips the direction of the same key and starts a new key ascending', () => {
  assert.deepEqual(nextSort({ key: 'step', descending: false }, 'step'), { key: 'step', descending: true });
  assert.deepEqual(nextSort({ key: 'step', descending: true }, 'reward'), { key: 'reward', descending: false });
});

test('describeFilter reads the filter in one line', () => {
  assert.equal(describeFilter({}), '');
  assert.equal(describeFilter({ stepFrom: 28, stepTo: 59, flag: 'decoupling' }), 'steps 28–59 · flag: decoupling');
  assert.equal(
    describeFilter({ stepFrom: 3, rewardMax: 0.5, flag: 'any', agent: 'v', group: 'g', search: 'q' }),
    'steps 3–… · reward …–0.5 · group: g · flagged · agent: v · search: q',
  );
});
