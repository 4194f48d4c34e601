import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createNonce } from '../../../src/extension/nonce';

test('createNonce() returns 32 alphanumeric characters', () => {
  assert.match(createNonce(), /^[A-Za-z0-9]{32}$/);
});

test('createNonce(length) honours the length', () => {
  assert.equal(createNonce(1).length, 1);
  assert.match(createNonce(100), /^[A-Za-z0-9]{100}$/);
});

test('createNonce() differs between calls and uses the whole alphabet', () => {
  const nonces = Array.from({ length: 200 }, () => createNonce());
  assert.equal(new Set(nonces).size, nonces.length);
  assert.equal(new Set(nonces.join('')).size, 62);
});
