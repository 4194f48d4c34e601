import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { EpisodeCreditView, EvaluatorView } from '../../../src/protocol/episodePanel';
import { findInSegment, messageMatches, plannedRows, scanPlan, splitMatches } from '../../../webview/src/episode/find';
import { keyAction } from '../../../webview/src/episode/keys';
import {
  creditNotices,
  creditProvenance,
  evaluatorLine,
  evaluatorOptionLabel,
} from '../../../webview/src/episode/status';
import { windowSize } from '../../../webview/src/episode/windows';

describe('find', () => {
  test('matches text or agent, case-insensitively', () => {
    assert.equal(messageMatches({ content: 'The Answer is 42', agent: 'coder' }, 'answer'), true);
    assert.equal(messageMatches({ content: 'x', agent: 'Verifier' }, 'verif'), true);
    assert.equal(messageMatches({ content: 'x', agent: 'y' }, ''), false);
  });

  test('plans forward scans window by window, wrapping, ending on the start row', () => {
    const count = 2 * windowSize + 10;
    const plan = scanPlan(5, 'forward', count, 10);
    assert.deepEqual(plan, [
      { window: 0, from: 6, to: windowSize - 1 },
      { window: 1, from: windowSize, to: 2 * windowSize - 1 },
      { window: 2, from: 2 * windowSize, to: count - 1 },
      { window: 0, from: 0, to: 5 },
    ]);
    assert.equal(plannedRows(plan), count);
  });

  test('plans backward scans and stops at the window budget', () => {
    const count = 5 * windowSize;
    const plan = scanPlan(windowSize + 3, 'backward', count, 2);
    assert.deepEqual(plan, [
      { window: 1, from: windowSize + 2, to: windowSize },
      { window: 0, from: windowSize - 1, to: 0 },
    ]);
    assert.equal(plannedRows(plan), windowSize + 3);
    assert.deepEqual(scanPlan(0, 'forward', 0, 5), []);
  });

  test('finds the first match of a segment in scan order', () => {
    const rows = new Map([10, 11, 12, 13].map((seq) => [seq, { seq, agent: 'a', content: seq % 2 ? 'odd' : 'even' }]));
    const at = (seq: number) => rows.get(seq) as never;
    assert.equal(findInSegment({ window: 0, from: 10, to: 13 }, at, 'odd'), 11);
    assert.equal(findInSegment({ window: 0, from: 13, to: 10 }, at, 'even'), 12);
    assert.equal(findInSegment({ window: 0, from: 10, to: 13 }, at, 'none'), null);
  });

  test('splits text around matches for highlighting', () => {
    assert.deepEqual(splitMatches('abcABCx', 'bc'), [
      { text: 'a', match: false },
      { text: 'bc', match: true },
      { text: 'A', match: false },
      { text: 'BC', match: true },
      { text: 'x', match: false },
    ]);
    assert.deepEqual(splitMatches('ab', ''), [{ text: 'ab', match: false }]);
    assert.deepEqual(splitMatches('ab', 'ab'), [{ text: 'ab', match: true }]);
  });
});

describe('keyAction', () => {
  const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({
    key: k,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    ...mods,
  });
  const page = { inControl: false, onRow: false };
  const row = { inControl: false, onRow: true };

  test('j/k/n/p and / work anywhere but in a control', () => {
    assert.deepEqual(
      ['j', 'k', 'n', 'p', '/'].map((k) => keyAction(key(k), page)),
      ['nextMessage', 'previousMessage', 'nextEpisode', 'previousEpisode', 'find'],
    );
    assert.equal(keyAction(key('j'), { inControl: true, onRow: false }), null);
  });

  test('Enter, Space and the arrows act only on a row; modifiers leave keys alone', () => {
    assert.equal(keyAction(key('Enter'), page), null);
    assert.deepEqual(
      ['Enter', ' ', 'ArrowDown', 'ArrowUp', 'Home', 'End'].map((k) => keyAction(key(k), row)),
      ['toggle', 'toggle', 'nextMessage', 'previousMessage', 'firstMessage', 'lastMessage'],
    );
    assert.equal(keyAction(key('j', { ctrlKey: true }), row), null);
    assert.equal(keyAction(key('n', { metaKey: true }), page), null);
  });
});

describe('creditNotices', () => {
  const evaluator: EvaluatorView = { configured: false, description: '', reason: 'Restricted Mode' };
  const credit = (overrides: Partial<EpisodeCreditView>): EpisodeCreditView => ({
    method: 'loo',
    status: 'computed',
    reason: null,
    approximate: false,
    source: 'logged',
    computedAt: '2026-01-01',
    shared: 1,
    agents: [{ agent: 'a', value: 1, ciLow: null, ciHigh: null, n: 50, advantage: null }],
    messageCredit: [],
    messageCreditKind: 'spread',
    ...overrides,
  });
  const keys = (c: EpisodeCreditView | null, extra: { loading?: boolean; error?: string } = {}) =>
    creditNotices(
      { method: 'loo', credit: c, loading: extra.loading ?? false, error: extra.error ?? null },
      evaluator,
    ).map((n) => n.key);

  test('names each state', () => {
    assert.deepEqual(keys(credit({})), []);
    assert.deepEqual(keys(credit({ status: 'not-computed' })), ['not-computed']);
    assert.deepEqual(keys(credit({ approximate: true })), ['approximate']);
    assert.deepEqual(keys(credit({ status: 'failed', approximate: true })), ['failed', 'approximate']);
    assert.deepEqual(keys(null, { loading: true }), ['loading']);
    assert.deepEqual(keys(credit({ method: 'shared' }), { loading: true }), ['loading']);
    assert.deepEqual(keys(credit({}), { error: 'timeout' }), ['error']);
  });

  test('not identifiable says why and what would answer it, without offering a recompute that cannot help', () => {
    const [notice] = creditNotices(
      {
        method: 'loo',
        credit: credit({
          status: 'not-identifiable',
          reason: 'the built-in final-answer checker cannot score this episode',
          remedy: 'configure a replay evaluator',
        }),
        loading: false,
        error: null,
      },
      evaluator,
    );
    assert.deepEqual([notice?.key, notice?.title], ['not-identifiable', 'Not identifiable']);
    assert.equal(
      notice?.text,
      'the built-in final-answer checker cannot score this episode. What would answer it: configure a replay evaluator.',
    );
    assert.equal(notice?.offerRecompute, false);
  });

  test('no evaluator explains why, falling back to the evaluator’s reason, and points to logged values', () => {
    const [notice] = creditNotices(
      { method: 'loo', credit: credit({ status: 'no-evaluator' }), loading: false, error: null },
      evaluator,
    );
    assert.match(notice?.text ?? '', /^Restricted Mode .*logged values/);
    assert.equal(notice?.offerRecompute, false);
  });

  test('provenance (the time read as people do, not ISO) and the evaluator line', () => {
    const now = new Date('2026-01-01T03:00:00Z');
    const at = (iso: string): string => creditProvenance(credit({ computedAt: iso }), now);
    assert.match(
      at('2026-01-01'),
      /^values logged · computed 3 hours ago \(\w{3} \d+, \d{4}, \d+:\d\d\s[AP]M\) · n = 50$/u,
    );
    assert.match(at('2026-01-01T02:59:30Z'), /computed just now \(/);
    assert.equal(at('not a time'), 'values logged · computed not a time · n = 50', 'unreadable: as stored');
    assert.match(
      creditProvenance(credit({ valueStatus: 'approximate', source: 'logged+checked' }), now),
      /^approximate · values logged\+checked · computed 3 hours ago/,
    );
    assert.equal(creditProvenance(credit({ status: 'failed' })), '');
    assert.deepEqual(evaluatorLine(evaluator), {
      text: 'No evaluator configured: Restricted Mode. Recompute uses logged values only.',
      warning: true,
    });
    assert.equal(
      evaluatorLine({ configured: true, description: 'command ./eval.sh', reason: null }).text,
      'Evaluator: command ./eval.sh',
    );
    // The host's reasons are sentences already: one full stop, never "evaluator..".
    const sentence = 'Set creditLens.evaluator.command to use your own evaluator.';
    assert.equal(
      evaluatorLine({ ...evaluator, reason: sentence }).text,
      `No evaluator configured: ${sentence} Recompute uses logged values only.`,
    );
    assert.equal(
      evaluatorLine({ ...evaluator, reason: null }).text,
      'No evaluator configured. Recompute uses logged values only.',
    );
  });

  test('the evaluator line of a replay, and of another evaluator chosen in the menu', () => {
    const replay = { kind: 'replay' as const, description: 'replay on gpu-box:8000', endpoint: 'gpu-box:8000' };
    const checker = { kind: 'checker' as const, description: 'built-in final-answer', endpoint: null };
    const view = { configured: true, description: replay.description, reason: null, kind: 'replay' as const };
    assert.equal(
      evaluatorLine(view).text,
      'Evaluator: replay on gpu-box:8000 (its cost is estimated and confirmed before any call)',
    );
    assert.equal(evaluatorLine(view, checker).text, 'Evaluator: built-in final-answer');
    assert.equal(evaluatorOptionLabel(replay), 'Replay on gpu-box:8000');
    assert.deepEqual(evaluatorLine({ ...view, configured: false, reason: 'no ground truth' }, replay), {
      text: 'No evaluator configured: no ground truth. Recompute uses logged values only.',
      warning: true,
    });
  });
});
