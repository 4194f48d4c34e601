import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  moveFocus,
  pagesOf,
  rowHeight,
  scrollToShow,
  topRowAt,
  visibleRows,
} from '../../../webview/src/dashboard/tableModel';

test('visibleRows covers the viewport plus overscan, clamped to the rows there are', () => {
  assert.deepEqual(visibleRows(0, 10 * rowHeight, 20_000, 2), { first: 0, end: 13 });
  assert.deepEqual(visibleRows(500 * rowHeight, 10 * rowHeight, 20_000, 2), { first: 498, end: 513 });
  assert.deepEqual(visibleRows(19_995 * rowHeight, 10 * rowHeight, 20_000, 2), { first: 19_993, end: 20_000 });
  assert.deepEqual(visibleRows(0, 100, 0), { first: 0, end: 0 });
  assert.deepEqual(
    visibleRows(10_000 * rowHeight, 100, 5, 0),
    { first: 4, end: 5 },
    'a stale scroll position past the end',
  );
});

test('pagesOf lists the pages holding a row range', () => {
  assert.deepEqual(pagesOf(0, 30, 100), [0]);
  assert.deepEqual(pagesOf(95, 130, 100), [0, 1]);
  assert.deepEqual(pagesOf(500, 500, 100), [5], 'an empty range asks for the page of its start');
});

test('scrollToShow scrolls only as far as needed to show a row', () => {
  const viewport = 10 * rowHeight;
  assert.equal(scrollToShow(5, 0, viewport), 0);
  assert.equal(scrollToShow(12, 0, viewport), 3 * rowHeight);
  assert.equal(scrollToShow(2, 5 * rowHeight, viewport), 2 * rowHeight);
});

test('moveFocus stays inside the rows; topRowAt rounds to a row', () => {
  assert.equal(moveFocus(-1, 1, 10), 0);
  assert.equal(moveFocus(-1, -1, 10), 9);
  assert.equal(moveFocus(9, 1, 10), 9);
  assert.equal(moveFocus(3, -20, 10), 0);
  assert.equal(moveFocus(3, 1, 0), -1);
  assert.equal(topRowAt(rowHeight * 7 + 3), 7);
});
