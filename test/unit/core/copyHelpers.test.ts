import assert from 'node:assert/strict';
import { test } from 'node:test';
import { plural } from '../../../src/core/plural';
import { formatTimestamp } from '../../../src/core/timestamp';

test('plural() says one message, not 1 messages, and groups large counts', () => {
  assert.equal(plural(1, 'message'), '1 message');
  assert.equal(plural(0, 'message'), '0 messages');
  assert.equal(plural(1920, 'episode'), '1,920 episodes');
  assert.equal(plural(2, 'entry', 'entries'), '2 entries');
});

test('formatTimestamp() says how long ago, then the local time; bad input comes back unchanged', () => {
  const now = new Date('2026-12-01T19:44:00Z');
  assert.match(formatTimestamp('2026-12-01T19:41:00Z', now), /^3 minutes ago \(Dec 1, 2026, /);
  assert.match(formatTimestamp('2026-11-30T19:44:00Z', now), /^yesterday \(/);
  assert.match(formatTimestamp('2026-12-01T19:43:50Z', now), /^just now \(/);
  assert.doesNotMatch(formatTimestamp('2026-12-01T19:41:00Z', now), /T19:41/);
  assert.equal(formatTimestamp('not a time', now), 'not a time');
});
