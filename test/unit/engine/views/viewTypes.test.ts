import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maxMessageChars } from '../../../../src/engine/views/viewTypes';
import { maxMessageChars as protocolMaxMessageChars } from '../../../../src/protocol/episodePanel';

test('the engine cuts messages at the length the protocol documents', () => {
  assert.equal(maxMessageChars, protocolMaxMessageChars);
});
