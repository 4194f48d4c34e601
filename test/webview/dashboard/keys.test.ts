import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keyAction, type KeyPress } from '../../../webview/src/dashboard/keys';

const press = (key: string, over: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  inField: false,
  inSearch: false,
  inTable: false,
  ...over,
});

test('/ focuses the search and j/k move the row focus from anywhere outside a field', () => {
  assert.equal(keyAction(press('/')), 'search');
  assert.equal(keyAction(press('j')), 'next');
  assert.equal(keyAction(press('k', { inTable: true })), 'previous');
});

test('typing in a field or with a modifier is left alone', () => {
  assert.equal(keyAction(press('j', { inField: true })), undefined);
  assert.equal(keyAction(press('/', { inField: true })), undefined);
  assert.equal(keyAction(press('j', { ctrlKey: true })), undefined);
  assert.equal(keyAction(press('j', { inSearch: true, inField: true })), undefined);
});

test('Enter, arrows, paging and Home/End act only on the focused table', () => {
  assert.equal(keyAction(press('Enter')), undefined);
  assert.equal(keyAction(press('Enter', { inTable: true })), 'open');
  assert.equal(keyAction(press('ArrowDown', { inTable: true })), 'next');
  assert.equal(keyAction(press('PageUp', { inTable: true })), 'pageUp');
  assert.equal(keyAction(press('End', { inTable: true })), 'last');
  assert.equal(keyAction(press('x', { inTable: true })), undefined);
});

test('Escape or Enter in the search returns to the table', () => {
  assert.equal(keyAction(press('Escape', { inSearch: true, inField: true })), 'leaveSearch');
  assert.equal(keyAction(press('Enter', { inSearch: true, inField: true })), 'leaveSearch');
});
