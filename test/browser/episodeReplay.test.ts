// Recompute with a replay in the Episode webview (headless Chromium, production CSP), driven by the
// scripted host: the evaluator menu, the states the webview shows while the host estimates and
// asks for confirmation, calls and tokens, then the rows re-coloured with replayed provenance.
// Run `node esbuild.mjs` first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DidChangeRecomputeNotification, GetCreditRequest, RecomputeCommand } from '../../src/protocol/episodePanel';
import { approximateLoo, creditFor, episodeData, replayedLoo, replayEvaluator, scriptedHost } from './episode/fixture';
import { chooseMethod, openEpisode, rowInfo, waitForPostedAfter } from './episode/session';
import { describeInBrowser } from './harness/suite';

describeInBrowser('Episode webview: Recompute with replay', (browser) => {
  test('Recompute with replay: the menu, the estimate and confirmation, calls, then rows re-coloured with replayed provenance', async () => {
    let replayed = false;
    const host = scriptedHost({
      count: 300,
      credit: (method) =>
        method === 'loo' ? (replayed ? replayedLoo(300) : approximateLoo(300)) : creditFor(method, 300),
    });
    const s = await openEpisode(browser, { host, data: episodeData(300, { evaluator: replayEvaluator }) });
    await chooseMethod(s.h, 'loo');
    await s.h.page.locator('[data-notice="approximate"]').waitFor();
    const before = await rowInfo(s.h, 2);
    assert.match(
      (await s.h.page.locator('.evaluator-line').textContent()) ?? '',
      /^Evaluator: replay on 127\.0\.0\.1:8000 \(its cost is estimated/,
    );
    const menu = s.h.page.locator('vscode-dropdown.evaluator-switch');
    assert.equal(await menu.evaluate((el) => (el as unknown as { value: string }).value), 'replay');
    await s.h.page.locator('.recompute-button').click();
    await s.h.waitForPosted(
      (m) => RecomputeCommand.is(m) && m.params.method === 'loo' && m.params.evaluator === 'replay',
    );
    const replay = { method: 'loo' as const, replay: '127.0.0.1:8000', done: 0, total: 0 };
    await s.h.notify(DidChangeRecomputeNotification, {
      ...replay,
      state: 'estimating',
      message: 'Estimating the replay on 127.0.0.1:8000…',
    });
    await s.h.page.locator('.recompute[data-state="estimating"] .recompute-progress:not([hidden])').waitFor();
    const question = 'Replay 40 calls (~12.3 k prompt tokens, ~950 completion tokens) on http://127.0.0.1:8000/v1?';
    await s.h.notify(DidChangeRecomputeNotification, { ...replay, state: 'confirming', message: question });
    await s.h.page
      .locator('.recompute-result', { hasText: `Waiting for your confirmation in the dialog: ${question}` })
      .waitFor();
    assert.equal(await s.h.page.locator('.recompute-button').getAttribute('disabled'), '');
    await s.h.notify(DidChangeRecomputeNotification, {
      ...replay,
      state: 'running',
      done: 12,
      total: 40,
      unit: 'calls',
      message: '12 of ~40 calls · 4.1 k tokens · 3 s',
    });
    await s.h.page.locator('.progress-count', { hasText: '12 of ~40 calls · 4.1 k tokens · 3 s' }).waitFor();
    assert.equal(
      await s.h.page.locator('.recompute-result').textContent(),
      'Replaying Leave-one-out on 127.0.0.1:8000…',
    );
    const from = s.h.posted.length;
    replayed = true;
    await s.h.notify(DidChangeRecomputeNotification, {
      ...replay,
      state: 'done',
      done: 1,
      total: 1,
      message:
        'replayed on 127.0.0.1:8000: 40 of ~40 calls · 13.2 k tokens · 9 s; 40 evaluator call(s), 0 from the cache',
    });
    await waitForPostedAfter(s.h, from, (m) => GetCreditRequest.is(m) && m.params.method === 'loo');
    await s.h.page.locator('[data-notice="approximate"]').waitFor({ state: 'detached' });
    await s.h.page.locator('.provenance', { hasText: /^exact · values replayed/ }).waitFor();
    const after = await rowInfo(s.h, 2);
    assert.notEqual(after.credit, before.credit, 'the verifier’s row took the replayed value');
    assert.notEqual(after.tint, before.tint, 'and its colour');
    assert.match(
      (await s.h.page.locator('.msg[data-seq="2"] .msg-credit').getAttribute('title')) ?? '',
      /under Leave-one-out \(agent credit spread evenly over its messages, replayed\)$/,
    );
    assert.match(
      (await s.h.page.locator('.recompute-result').textContent()) ?? '',
      /^Recomputed \(Leave-one-out\): replayed on/,
    );
    // The checker chosen in the menu is what the next Recompute asks for.
    await menu.click();
    await s.h.page.locator('vscode-option[value="checker"]').click();
    await s.h.page.locator('.evaluator-line', { hasText: 'Evaluator: built-in final-answer' }).waitFor();
    await s.h.page.locator('.recompute-button').click();
    await s.h.waitForPosted((m) => RecomputeCommand.is(m) && m.params.evaluator === 'checker');
    await s.close();
  });
});
