import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  RowLayout,
  maxSpacerPx,
  rowTop,
  scrollTargetFor,
  spacerHeight,
  toScrollTop,
  toVirtualTop,
  visibleRange,
} from '../../../webview/src/episode/layout';

describe('RowLayout', () => {
  test('offsets are seq × base height without measured rows', () => {
    const layout = new RowLayout(10_000, 60);
    assert.equal(layout.offsetOf(0), 0);
    assert.equal(layout.offsetOf(250), 15_000);
    assert.equal(layout.total, 600_000);
    assert.equal(layout.seqAt(15_000), 250);
    assert.equal(layout.seqAt(15_059), 250);
    assert.equal(layout.seqAt(-5), 0);
    assert.equal(layout.seqAt(10_000_000), 9_999);
  });

  test('measured rows shift the rows after them, and forgetting restores the base', () => {
    const layout = new RowLayout(100, 50);
    assert.equal(layout.setHeight(10, 450), true);
    assert.equal(layout.setHeight(10, 450), false);
    layout.setHeight(20, 150);
    assert.equal(layout.offsetOf(10), 500);
    assert.equal(layout.offsetOf(11), 950);
    assert.equal(layout.offsetOf(21), 21 * 50 + 400 + 100);
    assert.equal(layout.total, 100 * 50 + 500);
    assert.equal(layout.seqAt(949), 10);
    assert.equal(layout.seqAt(950), 11);
    assert.equal(layout.setHeight(10, null), true);
    assert.equal(layout.offsetOf(11), 550);
    assert.equal(layout.heightOf(20), 150);
  });

  test('a new base height and a smaller count apply to every row', () => {
    const layout = new RowLayout(100, 68);
    layout.setHeight(90, 500);
    layout.setBaseHeight(64);
    layout.setCount(50);
    assert.equal(layout.total, 50 * 64);
    assert.equal(layout.heightOf(90), 64);
  });

  test('an empty list has no rows and no range', () => {
    const layout = new RowLayout(0, 60);
    assert.equal(layout.total, 0);
    assert.equal(layout.seqAt(100), 0);
    assert.equal(visibleRange(layout, 0, 500, 100), null);
  });
});

describe('visibleRange and scrollTargetFor', () => {
  const layout = new RowLayout(1000, 50);

  test('covers the viewport plus overscan on both sides, clamped to the list', () => {
    assert.deepEqual(visibleRange(layout, 5000, 500, 200), { first: 96, last: 114 });
    assert.deepEqual(visibleRange(layout, 0, 500, 200), { first: 0, last: 14 });
    assert.deepEqual(visibleRange(layout, 49_500, 500, 200), { first: 986, last: 999 });
  });

  test('scrolls only as far as needed to show a row', () => {
    assert.equal(scrollTargetFor(layout, 100, 4900, 500, 'nearest'), 4900);
    assert.equal(scrollTargetFor(layout, 50, 4900, 500, 'nearest'), 2500);
    assert.equal(scrollTargetFor(layout, 200, 4900, 500, 'nearest'), 200 * 50 + 50 - 500);
    assert.equal(scrollTargetFor(layout, 200, 4900, 500, 'start'), 10_000);
  });

  test('a row taller than the viewport is shown from its top', () => {
    const tall = new RowLayout(10, 50);
    tall.setHeight(5, 2000);
    assert.equal(scrollTargetFor(tall, 5, 0, 500, 'nearest'), 250);
  });
});

describe('spacer scaling', () => {
  test('is the identity below the spacer cap', () => {
    assert.equal(spacerHeight(6_800_000), 6_800_000);
    assert.equal(toVirtualTop(12_345, 6_800_000, 800), 12_345);
    assert.equal(toScrollTop(12_345, 6_800_000, 800), 12_345);
    assert.equal(rowTop(5000, 4000, 4000), 5000);
  });

  test('maps the whole scroll range onto a taller list, both ways', () => {
    const total = 3 * maxSpacerPx;
    const viewport = 800;
    assert.equal(spacerHeight(total), maxSpacerPx);
    assert.equal(toVirtualTop(0, total, viewport), 0);
    assert.equal(toVirtualTop(maxSpacerPx - viewport, total, viewport), total - viewport);
    const virtual = 10_000_000;
    assert.ok(Math.abs(toVirtualTop(toScrollTop(virtual, total, viewport), total, viewport) - virtual) < 1e-6);
    // A row is drawn relative to the scroll position, so the one at the top sits at scrollTop.
    const scroll = toScrollTop(virtual, total, viewport);
    assert.equal(rowTop(virtual, virtual, scroll), scroll);
  });

  test('clamps targets past either end', () => {
    assert.equal(toScrollTop(-50, 1000, 500), 0);
    assert.equal(toScrollTop(5000, 1000, 500), 500);
  });
});
