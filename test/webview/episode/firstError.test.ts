import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EpisodeCreditView, FirstErrorView } from '../../../src/protocol/episodePanel';
import {
  blameAgreement,
  firstErrorNote,
  firstErrorOf,
  firstErrorSource,
  firstErrorText,
} from '../../../webview/src/episode/firstError';

const error: FirstErrorView = {
  message: 4,
  agent: 'solver',
  harmful: [4],
  repairs: [],
  origin: 'drop',
  threshold: 0.25,
  exact: false,
};

const credit = (fields: Record<string, unknown>) => fields as unknown as EpisodeCreditView;

test('the first error is read through the protocol guard: malformed or absent data gives none', () => {
  assert.deepEqual(firstErrorOf(credit({ firstError: error })), error);
  assert.equal(firstErrorOf(credit({ firstError: { ...error, origin: 'guess' } })), null);
  assert.equal(firstErrorOf(credit({ firstError: '<img src=x onerror=alert(1)>' })), null);
  assert.equal(firstErrorOf(credit({})), null);
  assert.equal(firstErrorOf(null), null);
  assert.equal(
    firstErrorNote(credit({ firstError: null, firstErrorNote: 'the episode succeeded' })),
    'the episode succeeded',
  );
  assert.equal(firstErrorNote(credit({ firstErrorNote: 3 })), null);
});

test('its source says the rule, the threshold and whether it is exact; the text counts the other harmful messages', () => {
  assert.equal(
    firstErrorSource(error),
    'the first drop of at least δ = 0.250 in the prefix values, approximate (a value it rests on is not exact)',
  );
  assert.equal(
    firstErrorSource({ ...error, origin: 'replayed', threshold: 0.1, exact: true }),
    'replayed prefix values (no replay succeeds after it: value ≤ 0.100), exact',
  );
  assert.doesNotMatch(firstErrorText(error), /harmful/, 'a lone harmful message needs no count');
  assert.match(firstErrorText({ ...error, harmful: [1, 4], repairs: [2] }), /; 2 harmful messages, 1 recovery$/);
});

test('agreement with the blame labels: the same message, the same agent elsewhere, or neither; none without labels', () => {
  assert.equal(blameAgreement(error, []), null);
  assert.equal(blameAgreement(error, [{ agent: null, message: null }]), null, 'a label pointing nowhere');
  assert.match(blameAgreement(error, [{ agent: 'planner', message: 4 }]) ?? '', /^agrees .*same message/);
  assert.match(blameAgreement(error, [{ agent: 'solver', message: 9 }]) ?? '', /same agent at another message/);
  assert.match(blameAgreement(error, [{ agent: 'planner', message: 1 }]) ?? '', /^differs/);
  assert.match(blameAgreement({ ...error, agent: null }, [{ agent: 'solver', message: 9 }]) ?? '', /^differs/);
});
