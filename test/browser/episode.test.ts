// The Episode webview in headless Chromium under the production CSP, driven by a scripted host
// (test/browser/episode/fixture.ts). Run `node esbuild.mjs` first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CancelRecomputeCommand,
  DidChangeRecomputeNotification,
  GetCreditRequest,
  GetMessagesRequest,
  NavigateEpisodeCommand,
  RecomputeCommand,
  RevealTraceLineCommand,
} from '../../src/protocol/episodePanel';
import type { ViewMethod } from '../../src/protocol/viewData';
import { creditColorScale } from '../../webview/src/charts/creditScale';
import { creditFor, episodeData, longSeq, messageAt, ref, scriptedHost, tokenSeq } from './episode/fixture';
import type { ComputedStyleHost } from './episode/page';
import { chooseMethod, focusedSeq, openEpisode, rowInfo, waitForPostedAfter } from './episode/session';
import { describeInBrowser } from './harness/suite';

describeInBrowser('Episode webview', (browser) => {
  test('switching the method re-colours the rows in place', async () => {
    const s = await openEpisode(browser, { host: scriptedHost({ count: 300 }), data: episodeData(300) });
    const verifier = 2;
    await s.h.page.locator('.msg[data-seq="2"]').evaluate((el) => {
      (el as unknown as Record<string, unknown>)['__marker'] = true;
    });
    const shared = await rowInfo(s.h, verifier);
    assert.ok(Number(shared.credit) > 0.001, 'verifier has shared credit');
    await chooseMethod(s.h, 'loo');
    await s.h.waitForPosted((m) => GetCreditRequest.is(m) && m.params.method === 'loo');
    await s.h.page.waitForFunction(
      () =>
        (
          globalThis as unknown as {
            document: { querySelector(s: string): { dataset: Record<string, string> } | null };
          }
        ).document.querySelector('.msg[data-seq="2"]')?.dataset['credit'] === '0',
    );
    const loo = await rowInfo(s.h, verifier);
    assert.notEqual(loo.tint, shared.tint, 'the tint changed');
    assert.equal(loo.tint, creditColorScale(1)(0), 'zero credit is the centre of the scale');
    assert.ok(Number((await rowInfo(s.h, 0)).credit) > 0.001, 'the planner keeps credit under loo');
    assert.equal(
      await s.h.page
        .locator('.msg[data-seq="2"]')
        .evaluate((el) => (el as unknown as Record<string, unknown>)['__marker']),
      true,
      'same element',
    );
    assert.match(
      (await s.h.page.locator('.msg[data-seq="2"] .msg-credit').getAttribute('title')) ?? '',
      /Credit 0 under Leave-one-out \(agent credit spread evenly/,
    );
    assert.match((await s.h.page.locator('.legend-kind').textContent()) ?? '', /Leave-one-out credit spread evenly/);
    assert.equal(await s.h.page.locator('.agent-bar[data-agent="verifier"] .agent-value').textContent(), '0');
    await chooseMethod(s.h, 'prefix');
    await s.h.page.locator('.legend-kind', { hasText: 'its own Prefix (per message) credit' }).waitFor();
    await s.close();
  });

  test('recompute shows progress, cancels, and asks for credit again when done', async () => {
    let computed = false;
    const host = scriptedHost({
      count: 300,
      credit: (method) =>
        method === 'shapley' && computed ? { ...creditFor('loo', 300), method } : creditFor(method, 300),
    });
    const s = await openEpisode(browser, { host, data: episodeData(300) });
    await chooseMethod(s.h, 'shapley');
    await s.h.page.locator('[data-notice="not-computed"]').waitFor();
    await s.h.page.locator('[data-notice="not-computed"] vscode-button').click();
    await s.h.waitForPosted(
      (m) => RecomputeCommand.is(m) && m.params.method === 'shapley' && m.params.ref.episodeId === ref.episodeId,
    );
    await s.h.notify(DidChangeRecomputeNotification, {
      method: 'shapley',
      state: 'running',
      done: 3,
      total: 10,
      message: null,
    });
    await s.h.page.locator('.recompute-progress:not([hidden])').waitFor();
    assert.equal(await s.h.page.locator('.progress-count').textContent(), '3 / 10');
    assert.equal(await s.h.page.locator('.progress-track').getAttribute('aria-valuenow'), '3');
    assert.equal(await s.h.page.locator('.recompute-button').getAttribute('disabled'), '');
    await s.h.page.locator('.recompute-cancel').click();
    await s.h.waitForPosted((m) => CancelRecomputeCommand.is(m));
    await s.h.notify(DidChangeRecomputeNotification, {
      method: 'shapley',
      state: 'cancelled',
      done: 4,
      total: 10,
      message: null,
    });
    await s.h.page.locator('.recompute-progress[hidden]').waitFor({ state: 'attached' });
    assert.match((await s.h.page.locator('.recompute-result').textContent()) ?? '', /cancelled/);

    await s.h.page.locator('.recompute-button').click();
    await s.h.waitForPosted(
      (m) => RecomputeCommand.is(m) && s.h.posted.filter((p) => RecomputeCommand.is(p)).length === 2,
    );
    const from = s.h.posted.length;
    await s.h.notify(DidChangeRecomputeNotification, {
      method: 'shapley',
      state: 'running',
      done: 9,
      total: 10,
      message: null,
    });
    computed = true;
    await s.h.notify(DidChangeRecomputeNotification, {
      method: 'shapley',
      state: 'done',
      done: 10,
      total: 10,
      message: '10 evaluator calls, 4 from the cache',
    });
    await waitForPostedAfter(s.h, from, (m) => GetCreditRequest.is(m) && m.params.method === 'shapley');
    await s.h.page.locator('[data-notice="not-computed"]').waitFor({ state: 'detached' });
    assert.equal((await rowInfo(s.h, 2)).credit, '0');
    assert.match((await s.h.page.locator('.recompute-result').textContent()) ?? '', /Recomputed .*10 evaluator calls/);
    await s.close();
  });

  test('shows the not computed, approximate, no evaluator and failed states', async () => {
    const data = episodeData(100, {
      evaluator: {
        configured: false,
        description: '',
        reason: 'Restricted Mode: evaluator commands from workspace settings are not run',
      },
    });
    const s = await openEpisode(browser, { host: scriptedHost({ count: 100 }), data });
    assert.match(
      (await s.h.page.locator('.evaluator-line').textContent()) ?? '',
      /No evaluator configured: Restricted Mode/,
    );
    const expectations: [ViewMethod, string, RegExp][] = [
      ['shapley', 'not-computed', /Not computed yet/],
      ['shapley-mc', 'approximate', /Approximate/],
      ['routing', 'no-evaluator', /No evaluator configured.*Restricted Mode.*logged values/],
      ['owen', 'failed', /failed.*exited with code 2/],
    ];
    for (const [method, key, text] of expectations) {
      await chooseMethod(s.h, method);
      const notice = s.h.page.locator(`[data-notice="${key}"]`);
      await notice.waitFor();
      assert.match((await notice.textContent()) ?? '', text);
    }
    await s.close();
  });

  test('keyboard: j/k move, Enter expands, n/p navigate, / finds (fetching windows forward)', async () => {
    const s = await openEpisode(browser, { host: scriptedHost({ count: 10_000 }), data: episodeData(10_000) });
    const keys = s.h.page.keyboard;
    await keys.press('j');
    assert.equal(await focusedSeq(s.h), 1);
    await keys.press('k');
    assert.equal(await focusedSeq(s.h), 0);
    for (let i = 0; i < longSeq; i++) await keys.press('j');
    assert.equal(await focusedSeq(s.h), longSeq);
    assert.notEqual(
      await s.h.page
        .locator(`.msg[data-seq="${String(longSeq)}"]`)
        .evaluate((el) => (globalThis as unknown as ComputedStyleHost).getComputedStyle(el).outlineStyle),
      'none',
      'visible focus',
    );
    const before = await rowInfo(s.h, longSeq + 1);
    await keys.press('Enter');
    await s.h.page.locator(`.msg.is-expanded[data-seq="${String(longSeq)}"]`).waitFor();
    await s.h.page.waitForFunction(
      (seq) =>
        ((
          globalThis as unknown as { document: { querySelector(s: string): { offsetTop: number } | null } }
        ).document.querySelector(`.msg[data-seq="${String(seq)}"]`)?.offsetTop ?? 0) > 0,
      longSeq + 1,
    );
    const afterExpand = await rowInfo(s.h, longSeq + 1);
    assert.ok(afterExpand.top > before.top + 40, 'the rows below moved down');
    assert.match(
      (await s.h.page.locator(`.msg[data-seq="${String(longSeq)}"] .msg-note`).textContent()) ?? '',
      /Showing the first/,
    );
    await keys.press('Enter');
    await s.h.page.locator(`.msg.is-expanded[data-seq="${String(longSeq)}"]`).waitFor({ state: 'detached' });

    await keys.press('n');
    await s.h.waitForPosted((m) => NavigateEpisodeCommand.is(m) && m.params.direction === 'next');
    await keys.press('p');
    await s.h.waitForPosted((m) => NavigateEpisodeCommand.is(m) && m.params.direction === 'previous');

    await keys.press('/');
    assert.equal(
      await s.h.page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { tagName: string } } }).document.activeElement
            .tagName,
      ),
      'VSCODE-TEXT-FIELD',
    );
    await keys.type('message 250 from');
    await keys.press('Enter');
    await s.h.page.locator('.msg.is-current[data-seq="250"]').waitFor();
    assert.equal(await s.h.page.locator('.msg[data-seq="250"] mark.find-hit').textContent(), 'Message 250 from');
    // 9,000 lies beyond one search's budget of windows: the first Enter stops, the second finds it.
    await s.h.page.locator('vscode-text-field.find-field input').fill('message 9000 from');
    await keys.press('Enter');
    await s.h.page.locator('.find-status', { hasText: 'Enter searches on' }).waitFor();
    await keys.press('Enter');
    await s.h.page.locator('.msg.is-current[data-seq="9000"]').waitFor();
    await keys.press('Escape');
    assert.equal(await focusedSeq(s.h), 9000);

    await s.h.page.getByText('Reveal in trace').click();
    await s.h.waitForPosted((m) => RevealTraceLineCommand.is(m));
    await s.close();
  });

  test('trace text with markup is shown literally and never runs', async () => {
    const payloads = [
      '<script>window.__xss=1</script>',
      '<img src=x onerror="window.__xss=1">',
      '<a href="javascript:window.__xss=1">x</a>',
    ];
    const all = payloads.join(' ');
    const content = (seq: number): string | undefined => (seq < 3 ? payloads[seq] : undefined);
    const data = episodeData(30, {
      externalId: payloads[1]!,
      runName: payloads[0]!,
      task: all,
      groundTruth: payloads[2]!,
      finalAnswer: { answer: payloads[1]!, agent: payloads[0]! },
      agents: [
        {
          name: payloads[1]!,
          kind: 'llm',
          declared: true,
          messages: 1,
          tokens: null,
          loggedReward: null,
          loggedAdvantage: null,
        },
      ],
      labels: [{ kind: payloads[0]!, agent: payloads[1]!, message: 1, value: payloads[2]!, reason: all }],
      flags: [
        {
          flagId: 1,
          kind: 'idle',
          agent: payloads[2]!,
          scope: 'episode',
          steps: null,
          score: null,
          summary: all,
          evidence: [{ label: payloads[0]!, value: payloads[1]! }],
        },
      ],
      counterfactuals: [
        {
          removed: [payloads[1]!],
          intervention: 'remove',
          reward: 0,
          source: 'computed',
          evaluator: payloads[2]!,
          n: null,
        },
      ],
    });
    const host = scriptedHost({ count: 30, content });
    const wrapped: typeof host = (message, harness) => {
      const value = host(message, harness) as { messages?: { agent: string }[] } | undefined;
      if (GetMessagesRequest.is(message))
        for (const m of value?.messages ?? []) m.agent = payloads[m.agent.length % 3]!;
      return value;
    };
    const s = await openEpisode(browser, { host: wrapped, data });
    for (let seq = 0; seq < 3; seq++)
      assert.equal(await s.h.page.locator(`.msg[data-seq="${String(seq)}"] .msg-body`).textContent(), payloads[seq]);
    assert.equal(await s.h.page.locator('h1').textContent(), `Episode ${payloads[1]!}`);
    await s.h.page.getByText(all).first().waitFor();
    await s.h.page.locator('.msg[data-seq="2"] .msg-body').click();
    await s.h.page.keyboard.press('Enter');
    await s.h.page.locator('.msg[data-seq="1"]').click();
    await s.h.page.keyboard.press('Enter');
    await s.h.page.locator('.flag-evidence summary').click();
    const result = await s.h.page.evaluate(() => {
      const page = globalThis as unknown as {
        __xss?: unknown;
        document: { querySelectorAll(s: string): { length: number } };
      };
      return {
        xss: page.__xss,
        injected: page.document.querySelectorAll('#app img, #app script, #app iframe, a[href^="javascript"], [onerror]')
          .length,
        images: page.document.querySelectorAll('img').length,
      };
    });
    assert.deepEqual(result, { xss: undefined, injected: 0, images: 0 });
    await s.close();
  });

  test('colours tokens by attribution when the trace carries them', async () => {
    const s = await openEpisode(browser, { host: scriptedHost({ count: 20 }), data: episodeData(20) });
    const tokens = s.h.page.locator(`.msg[data-seq="${String(tokenSeq)}"] .tok`);
    assert.equal(await tokens.count(), messageAt(tokenSeq).tokens!.text.length);
    const heats = await tokens.evaluateAll((els) =>
      els.map((el) =>
        (el as unknown as { style: { getPropertyValue(p: string): string } }).style.getPropertyValue('--heat'),
      ),
    );
    assert.equal(new Set(heats.filter(Boolean)).size, heats.length - 1, 'a distinct colour for every attribution');
    assert.equal(heats.at(-1), '', 'a missing attribution has no colour');
    assert.equal(await tokens.nth(3).getAttribute('title'), 'Token attribution +0.900');
    await s.close();
  });

  test('screenshots in light, dark and high-contrast themes', async () => {
    for (const theme of ['light', 'dark', 'high-contrast'] as const) {
      const s = await openEpisode(browser, { host: scriptedHost({ count: 10_000 }), data: episodeData(10_000), theme });
      await chooseMethod(s.h, 'shapley-mc');
      await s.h.page.locator('[data-notice="approximate"]').waitFor();
      await s.h.page.locator(`.msg[data-seq="${String(longSeq - 1)}"]`).focus();
      await s.h.page.keyboard.press('j');
      await s.h.page.keyboard.press('Enter');
      await s.h.page.locator(`.msg.is-expanded[data-seq="${String(longSeq)}"]`).waitFor();
      await s.h.page.keyboard.press('j');
      const tintShown = await s.h.page
        .locator('.msg[data-seq="0"] .msg-tint')
        .evaluate((el) => (globalThis as unknown as ComputedStyleHost).getComputedStyle(el).display !== 'none');
      assert.equal(tintShown, theme !== 'high-contrast', 'no translucent tint under text in high contrast');
      await s.h.screenshot(`episode-${theme}`);
      await s.close();
    }
  });
});
