import assert from 'node:assert/strict';
import { test } from 'node:test';
import { idText, integerOf, isRecord, numberOf, scoreOf } from '../../../../src/ingest/importers/formats/common/json';
import * as rlFields from '../../../../src/ingest/importers/formats/common/rlFields';

test('one JSON-reading module: a name has one answer for every importer', () => {
  assert.equal(numberOf(true), undefined, 'booleans are not numbers');
  assert.equal(scoreOf(true), 1, 'a reward logged as a boolean is a score');
  assert.equal(scoreOf(false), 0);
  assert.equal(numberOf(' 0.5 '), 0.5);
  assert.equal(numberOf(12n), 12, 'parquet INT64');
  assert.equal(numberOf(''), undefined);
  assert.equal(integerOf(2.0), 2);
  assert.equal(integerOf(1.5), undefined);
  assert.equal(integerOf(true), undefined);
  assert.equal(isRecord(new Float64Array(2)), false, 'a typed array (parquet column) is not a record');
  assert.equal(isRecord([]), false);
  assert.equal(idText(' a '), 'a');
  // The RL-dump helpers re-export the same readers, not look-alikes.
  assert.equal(rlFields.isRecord, isRecord);
  assert.equal(rlFields.scoreOf, scoreOf);
  assert.equal(rlFields.integerOf, integerOf);
  assert.equal('numberOf' in rlFields, false, 'no second numberOf with another answer');
});
