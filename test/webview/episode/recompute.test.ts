// The Episode view's Recompute area in jsdom: the evaluator menu (a replay beside the checker), the
// replay's estimate, confirmation and progress states, and the outcome lines. The module is
// imported after jsdom provides `document` (dom.ts's h() uses the global).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { JSDOM } from 'jsdom';
import type { RecomputeProgress } from '../../../src/protocol/episodePanel';
import type * as View from '../../../webview/src/episode/recomputeView';
import { replayEvaluator } from '../../browser/episode/fixture';

let m: typeof View;

before(async () => {
  const dom = new JSDOM('<!DOCTYPE html><main id="app"></main>');
  Object.assign(globalThis, { document: dom.window.document, window: dom.window });
  m = await import('../../../webview/src/episode/recomputeView');
});

function view(): { v: View.RecomputeView; calls: string[] } {
  const calls: string[] = [];
  const v = new m.RecomputeView({ recompute: () => calls.push('recompute'), cancel: () => calls.push('cancel') });
  v.setMethod('loo');
  return { v, calls };
}

const q = (v: View.RecomputeView, selector: string): HTMLElement | null => v.element.querySelector(selector);
const progress = (update: Partial<RecomputeProgress>): RecomputeProgress => ({
  method: 'loo',
  state: 'running',
  done: 0,
  total: 0,
  message: null,
  replay: '127.0.0.1:8000',
  ...update,
});

describe('RecomputeView', () => {
  test('a single evaluator shows no menu and sends no choice', () => {
    const { v } = view();
    v.setEvaluator({ configured: true, description: 'built-in final-answer', reason: null });
    assert.equal(q(v, '.evaluator-switch'), null);
    assert.equal(v.evaluatorKind, undefined);
    assert.equal(q(v, '.evaluator-line')?.textContent, 'Evaluator: built-in final-answer');
  });

  test('a replay beside the checker: a menu with the replay first; choosing the checker is kept across refreshes', () => {
    const { v } = view();
    v.setEvaluator(replayEvaluator);
    const menu = q(v, '.evaluator-switch') as HTMLElement & { value: string };
    assert.ok(menu);
    assert.deepEqual(
      [...menu.querySelectorAll('vscode-option')].map((o) => [o.getAttribute('value'), o.textContent]),
      [
        ['replay', 'Replay on 127.0.0.1:8000'],
        ['checker', 'Built-in final-answer'],
      ],
    );
    assert.equal(v.evaluatorKind, 'replay');
    assert.match(
      q(v, '.evaluator-line')?.textContent ?? '',
      /^Evaluator: replay on 127\.0\.0\.1:8000 \(its cost is estimated/,
    );
    assert.match(q(v, '.recompute-button')?.title ?? '', /with Leave-one-out by replay on 127\.0\.0\.1:8000$/);
    menu.value = 'checker';
    menu.dispatchEvent(new window.Event('change'));
    assert.equal(v.evaluatorKind, 'checker');
    assert.equal(q(v, '.evaluator-line')?.textContent, 'Evaluator: built-in final-answer');
    v.setEvaluator({ ...replayEvaluator });
    assert.equal(v.evaluatorKind, 'checker', 'the same menu again keeps the pick');
    v.setEvaluator({ configured: true, description: 'built-in final-answer', reason: null, options: [] });
    assert.equal(v.evaluatorKind, undefined, 'the replay withdrawn: no menu, the host default');
    assert.equal(q(v, '.evaluator-switch'), null);
  });

  test('estimating, confirming, then calls, tokens and time; the button and menu are disabled meanwhile', () => {
    const { v, calls } = view();
    v.setEvaluator(replayEvaluator);
    v.update(progress({ state: 'estimating', message: 'Estimating the replay on 127.0.0.1:8000…' }));
    assert.equal(v.element.dataset['state'], 'estimating');
    assert.equal(q(v, '.recompute-result')?.textContent, 'Estimating the replay on 127.0.0.1:8000…');
    assert.equal(q(v, '.recompute-progress')?.hidden, false);
    const question = 'Replay 40 calls (~12.3 k prompt tokens, ~950 completion tokens) on http://127.0.0.1:8000/v1?';
    v.update(progress({ state: 'confirming', message: question }));
    assert.equal(q(v, '.recompute-result')?.textContent, `Waiting for your confirmation in the dialog: ${question}`);
    assert.equal(q(v, '.recompute-button')?.hasAttribute('disabled'), true);
    assert.equal(q(v, '.evaluator-switch')?.hasAttribute('disabled'), true);
    q(v, '.recompute-button')?.dispatchEvent(new window.Event('click'));
    assert.deepEqual(calls, [], 'no second recompute while one is under way');
    v.update(progress({ done: 12, total: 40, unit: 'calls', message: '12 of ~40 calls · 4.1 k tokens · 3 s' }));
    assert.equal(q(v, '.progress-count')?.textContent, '12 of ~40 calls · 4.1 k tokens · 3 s');
    assert.equal(q(v, '.progress-fill')?.style.width, '30%');
    assert.equal(q(v, '.recompute-result')?.textContent, 'Replaying Leave-one-out on 127.0.0.1:8000…');
    q(v, '.recompute-cancel')?.dispatchEvent(new window.Event('click'));
    assert.deepEqual(calls, ['cancel']);
  });

  test('the outcome says replay failed, cancelled (not confirmed) or recomputed, with the host’s note', () => {
    const { v } = view();
    v.update(progress({ state: 'failed', message: 'a.jsonl:3: the model server at http://127.0.0.1:8000/v1 is down' }));
    assert.equal(
      q(v, '.recompute-result')?.textContent,
      'Replay failed (Leave-one-out): a.jsonl:3: the model server at http://127.0.0.1:8000/v1 is down',
    );
    assert.equal(q(v, '.recompute-result')?.classList.contains('is-error'), true);
    assert.equal(q(v, '.recompute-progress')?.hidden, true);
    v.update(progress({ state: 'cancelled', message: 'the replay was not confirmed; nothing was sent' }));
    assert.match(
      q(v, '.recompute-result')?.textContent ?? '',
      /^Recompute cancelled \(Leave-one-out\): the replay was not confirmed/,
    );
    v.update(progress({ state: 'failed', replay: null, message: 'boom' }));
    assert.equal(q(v, '.recompute-result')?.textContent, 'Recompute failed (Leave-one-out): boom');
    v.update(progress({ state: 'done', message: 'replayed on 127.0.0.1:8000: 40 of ~40 calls · 13.2 k tokens · 9 s' }));
    assert.match(
      q(v, '.recompute-result')?.textContent ?? '',
      /^Recomputed \(Leave-one-out\): replayed on 127\.0\.0\.1:8000/,
    );
    assert.equal(q(v, '.recompute-button')?.hasAttribute('disabled'), false);
  });
});
