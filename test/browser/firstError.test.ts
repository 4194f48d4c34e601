// The first error of a failed episode (credit-methods.md §3.13) in the Episode webview: its mark on
// the swimlane block (glyph and dashed outline, its text read by the listbox), in the minimap, the
// badge on its message row and the header line with its jump and its agreement with the blame
// label, in the light, dark and high-contrast themes; "none named" with the reason; a markup payload
// as the agent's name stays text; Monte-Carlo Owen agent totals marked ±. Run `node esbuild.mjs` first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  GetTimelineRequest,
  type EpisodeCreditView,
  type EpisodeViewData,
  type FirstErrorView,
  type TimelineView,
} from '../../src/protocol/episodePanel';
import type { IpcMessage } from '../../src/protocol/ipc';
import type { ViewMethod } from '../../src/protocol/viewData';
import { agents, creditFor, episodeData, scriptedHost } from './episode/fixture';
import { chooseMethod, focusedSeq, openEpisode, type EpisodeSession } from './episode/session';
import type { HarnessBrowser, WebviewHarness } from './harness/harness';
import { noScriptRan } from './harness/noScriptRan';
import type { HarnessTheme } from './harness/server';
import { describeInBrowser } from './harness/suite';

const themes: readonly HarnessTheme[] = ['light', 'dark', 'high-contrast'];
const payload = '<img src=x onerror=alert(1)>';

/** Message 10 (the coder's) lost the episode, by replayed prefix values; message 4 dropped it first but was repaired by 5. */
const replayedError: FirstErrorView = {
  message: 10,
  agent: 'coder',
  harmful: [4, 10],
  repairs: [5],
  origin: 'replayed',
  threshold: 0.1,
  exact: true,
};

function prefixWith(count: number, fields: Pick<EpisodeCreditView, 'firstError' | 'firstErrorNote'>) {
  return (method: ViewMethod): EpisodeCreditView => ({ ...creditFor(method, count), ...fields });
}

function timelineOf(count: number): TimelineView {
  return {
    authors: Array.from({ length: count }, (_, seq) => seq % agents.length),
    tokens: Array.from({ length: count }, (_, seq) => 20 + (seq % 30)),
    flags: Array.from({ length: count }, () => 0),
  };
}

async function open(
  browser: HarnessBrowser,
  count: number,
  credit: (method: ViewMethod) => EpisodeCreditView,
  options: { theme?: HarnessTheme; data?: Partial<EpisodeViewData> } = {},
): Promise<EpisodeSession> {
  const base = scriptedHost({ count, credit });
  const timeline = timelineOf(count);
  const s = await openEpisode(browser, {
    host: (message: IpcMessage, harness: WebviewHarness) =>
      GetTimelineRequest.is(message) ? timeline : base(message, harness),
    data: episodeData(count, { reward: 0, defaultMethod: 'prefix', ...options.data }),
    ...(options.theme ? { theme: options.theme } : {}),
  });
  await s.h.page.locator('.lane-block').first().waitFor();
  return s;
}

const marked = (page: Page) => page.locator('.lane-block.is-first-error');

/** The computed `content` and border of a pseudo-element of the first element matching `selector`. */
function pseudo(page: Page, selector: string, which: '::before' | '::after') {
  return page.locator(selector).evaluate((el, pseudoElement) => {
    const view = globalThis as unknown as {
      getComputedStyle(e: unknown, p: string): { content: string; borderTopStyle: string; color: string };
    };
    const style = view.getComputedStyle(el, pseudoElement);
    return { content: style.content, border: style.borderTopStyle, color: style.color };
  }, which);
}

describeInBrowser('Episode webview: the first error', (browser) => {
  for (const theme of themes)
    test(`marked on its block, its row and in the header, with its jump (${theme})`, async () => {
      const s = await open(browser, 60, prefixWith(60, { firstError: replayedError, firstErrorNote: null }), { theme });
      const { page } = s.h;
      await marked(page).first().waitFor();
      assert.equal(await marked(page).count(), 1, 'one block marked');
      assert.equal(await marked(page).getAttribute('data-seq'), '10');
      assert.match(
        (await marked(page).getAttribute('aria-label')) ?? '',
        /^#10 coder · 30 tokens · Credit .* · first error, from replayed prefix values \(no replay succeeds after it: value ≤ 0\.100\), exact; 2 harmful messages, 1 recovery$/,
      );
      assert.equal(
        (await marked(page).getAttribute('title')) ?? '',
        (await marked(page).getAttribute('aria-label')) ?? '',
      );
      // Not colour alone: a glyph and a dashed outline, in every theme.
      const glyph = await pseudo(page, '.lane-block.is-first-error', '::after');
      assert.equal(glyph.content, '"✕"');
      assert.equal((await pseudo(page, '.lane-block.is-first-error', '::before')).border, 'dashed');
      // The blame's "!" stays on its own block.
      assert.equal((await pseudo(page, '.lane-block[data-seq="7"]', '::after')).content, '"!"');
      assert.match(await page.locator('.lanes-note').innerText(), /✕ with a dashed outline the first error/);
      // The header: where it comes from, and how it stands against the blame label (coder at message 7).
      const line = page.locator('.first-error-line');
      assert.equal(
        await line.innerText(),
        '✕ First error: message #10 (agent coder), from replayed prefix values (no replay succeeds after it: value ≤ 0.100), exact · the labelled blame names the same agent at another message',
      );
      await line.locator('button', { hasText: 'message #10' }).click();
      await page.locator('.msg.is-current[data-seq="10"]').waitFor();
      assert.equal(await focusedSeq(s.h), 10, 'the jump focused the message');
      // The row's badge.
      const badge = page.locator('.msg[data-seq="10"] .msg-first-error');
      assert.equal(await badge.innerText(), '✕ first error');
      assert.match((await badge.getAttribute('title')) ?? '', /^first error, from replayed prefix values/);
      assert.equal(await page.locator('.msg-first-error').count(), 1, 'no other row has the badge');
      const colours = await badge.evaluate((el) => {
        const view = globalThis as unknown as {
          getComputedStyle(e: unknown): { color: string; borderTopStyle: string; backgroundColor: string };
        };
        const style = view.getComputedStyle(el);
        return { color: style.color, border: style.borderTopStyle };
      });
      assert.equal(colours.border, 'dashed');
      assert.notEqual(colours.color, 'rgba(0, 0, 0, 0)');
      await s.h.screenshot(`first-error-${theme}`);
      await s.close();
    });

  test('the keyboard reaches the marked block and reads its label; Enter opens the message', async () => {
    const s = await open(browser, 60, prefixWith(60, { firstError: replayedError, firstErrorNote: null }));
    const { page } = s.h;
    await marked(page).first().waitFor();
    await page.locator('.lanes-viewport').focus();
    // Planner 0 → coder 1 (down), then the coder's 4, 7, 10 (right).
    for (const key of ['ArrowDown', 'ArrowRight', 'ArrowRight', 'ArrowRight']) await page.keyboard.press(key);
    const id = await page.locator('.lanes-viewport').getAttribute('aria-activedescendant');
    assert.equal(id, 'lane-block-10');
    assert.match((await page.locator(`#${id}`).getAttribute('aria-label')) ?? '', /· first error, from replayed/);
    await page.keyboard.press('Enter');
    await page.locator('.msg.is-current[data-seq="10"] .msg-first-error').waitFor();
    assert.equal(await focusedSeq(s.h), 10);
    await s.close();
  });

  test('a long episode marks the first error in the minimap too, where its block is', async () => {
    const count = 3000;
    const error = { ...replayedError, message: 1501, harmful: [1501], repairs: [] };
    const s = await open(browser, count, prefixWith(count, { firstError: error, firstErrorNote: null }));
    const { page } = s.h;
    await page.locator('.minimap-first-error').waitFor();
    assert.equal(await page.locator('.minimap-first-error').count(), 1);
    const left = Number.parseFloat((await page.locator('.minimap-first-error').getAttribute('style')) ?? '');
    const at = await page
      .locator('.minimap-first-error')
      .evaluate((el) => Number.parseFloat((el as unknown as { style: { left: string } }).style.left));
    assert.ok(Number.isNaN(left) || left >= 0);
    assert.ok(at > 45 && at < 55, `the tick at ${String(at)}% (the block is half-way)`);
    await s.close();
  });

  test('none named: the reason in the header, no mark; changing method drops the mark', async () => {
    const note = 'the episode succeeded (reward 0.75); first errors are located in failures';
    const s = await open(browser, 60, prefixWith(60, { firstError: null, firstErrorNote: note }), {
      data: { reward: 0.75 },
    });
    const { page } = s.h;
    await page.locator('.first-error-line.is-none').waitFor();
    assert.equal(await page.locator('.first-error-line').innerText(), `First error: none named — ${note}.`);
    assert.equal(await marked(page).count(), 0);
    assert.equal(await page.locator('.msg-first-error').count(), 0);
    await s.close();
    const again = await open(browser, 60, (method) =>
      method === 'prefix'
        ? { ...creditFor(method, 60), firstError: replayedError, firstErrorNote: null }
        : creditFor(method, 60),
    );
    await marked(again.h.page).first().waitFor();
    await chooseMethod(again.h, 'loo');
    await again.h.page.locator('.lane-block[data-credit-state="value"]').first().waitFor();
    await again.h.page.waitForFunction(
      () =>
        !(globalThis as unknown as { document: { querySelector(s: string): unknown } }).document.querySelector(
          '.is-first-error',
        ),
    );
    assert.equal(await again.h.page.locator('.first-error-line').count(), 0, 'LOO names no first error');
    await again.close();
  });

  test('malformed first-error data shows no mark (the protocol guard), and nothing breaks', async () => {
    const bad = { ...replayedError, message: -3 } as FirstErrorView;
    const s = await open(browser, 60, prefixWith(60, { firstError: bad, firstErrorNote: null }));
    const { page } = s.h;
    await page.locator('.lane-block[data-credit-state="value"]').first().waitFor();
    assert.equal(await marked(page).count(), 0);
    assert.equal(await page.locator('.first-error-line').count(), 0);
    await s.close();
  });

  test('a markup payload as the agent name is text in the header and the lanes; no script runs', async () => {
    const data = episodeData(60);
    const named = data.agents.map((a) => (a.name === 'coder' ? { ...a, name: payload } : a));
    const error = { ...replayedError, agent: payload };
    const s = await open(browser, 60, prefixWith(60, { firstError: error, firstErrorNote: null }), {
      data: { agents: named, labels: [] },
    });
    const { page } = s.h;
    await page.locator('.first-error-line').waitFor();
    assert.match(await page.locator('.first-error-line').innerText(), /\(agent <img src=x onerror=alert\(1\)>\), from/);
    assert.match((await marked(page).getAttribute('aria-label')) ?? '', /^#10 <img src=x onerror=alert\(1\)> · /);
    assert.ok((await page.locator('.lane-label').allInnerTexts()).includes(payload));
    await noScriptRan(s.h);
    assert.equal(await page.locator('img').count(), 0);
    await s.close();
  });

  test("Monte-Carlo Owen agent totals are marked ± with their interval's half-width", async () => {
    const owen = (method: ViewMethod): EpisodeCreditView => {
      if (method !== 'owen') return creditFor(method, 60);
      const values = { planner: 0.4, coder: -0.3, verifier: 0.1 };
      return {
        ...creditFor('prefix', 60),
        method: 'owen',
        valueStatus: 'estimated',
        source: 'replayed+estimated',
        agents: agents.map((agent) => ({
          agent,
          value: values[agent],
          ciLow: values[agent] - 0.05,
          ciHigh: values[agent] + 0.05,
          n: 200,
          advantage: null,
          status: 'estimated',
        })),
      };
    };
    const s = await open(browser, 60, owen, { data: { defaultMethod: 'owen' } });
    const { page } = s.h;
    await page.locator('.agent-margin').first().waitFor();
    assert.deepEqual(await page.locator('.agent-margin').allInnerTexts(), ['±0.050', '±0.050', '±0.050']);
    assert.match(await page.locator('.agent-bar[data-agent="coder"] .agent-details').innerText(), /estimated · \[/);
    await s.close();
  });
});
