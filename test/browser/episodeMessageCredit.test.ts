// Per-message credit at any length in the Episode webview (issue 17): an estimated message credit
// shows its interval on the row, an agent's even spread says so on the row, in every theme, with
// trace text as text. Run `node esbuild.mjs` first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { GetMessagesRequest, type EpisodeCreditView, type MessageView } from '../../src/protocol/episodePanel';
import type { ViewMethod } from '../../src/protocol/viewData';
import { creditFor, episodeData, estimatedOwenCredit, scriptedHost } from './episode/fixture';
import { assertOnlyWindowsAsked, chooseMethod, focusedSeq, openEpisode } from './episode/session';
import type { HarnessTheme } from './harness/server';
import { describeInBrowser } from './harness/suite';

const themes: readonly HarnessTheme[] = ['light', 'dark', 'high-contrast'];
const xss = ['<img src=x onerror=alert(1)>', '</script><script>alert(2)</script>'] as const;

/** The scripted host with the payloads as the authors of messages 1 and 2, and as their text. */
function payloadHost(count: number, credit: (method: ViewMethod) => EpisodeCreditView) {
  const host = scriptedHost({ count, credit });
  return (message: Parameters<typeof host>[0], harness: Parameters<typeof host>[1]) => {
    const answer = host(message, harness);
    if (!GetMessagesRequest.is(message)) return answer;
    const window = answer as { offset: number; messages: MessageView[] };
    return {
      ...window,
      messages: window.messages.map((m) => {
        const payload = m.seq === 1 ? xss[0] : m.seq === 2 ? xss[1] : undefined;
        return payload ? { ...m, agent: payload, content: `${payload} said ${m.content}`, contentChars: 200 } : m;
      }),
    };
  };
}

function watchDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return dialogs;
}

async function assertNoInjection(page: Page, dialogs: readonly string[]): Promise<void> {
  assert.equal(await page.locator('img').count(), 0, 'no <img> from trace text');
  assert.deepEqual(dialogs, [], 'no payload ran');
  assert.equal(await page.locator('script:not([src])').count(), 0, 'no inline <script> from trace text');
}

const mark = (page: Page, seq: number) => page.locator(`.msg[data-seq="${String(seq)}"] .msg-credit-mark`);

describeInBrowser('Episode webview: per-message credit at any length', (browser) => {
  // How soon it opens is measured in the webview benchmark (bench/webviewOpen.ts), not timed here.
  test('a 100,000-message episode with Monte-Carlo Owen intervals opens and shows them on its rows', async () => {
    const count = 100_000;
    const s = await openEpisode(browser, {
      host: scriptedHost({
        count,
        credit: (method) => (method === 'owen' ? estimatedOwenCredit(count) : creditFor(method, count)),
      }),
      data: episodeData(count, { defaultMethod: 'owen' }),
    });
    assertOnlyWindowsAsked(s.h.posted);
    const { page } = s.h;
    await page.locator('.msg[data-seq="3"] .msg-credit-mark.is-interval').waitFor();
    assert.equal(await mark(page, 3).textContent(), '±0.004');
    assert.match(
      (await page.locator('.msg[data-seq="3"] .msg-credit').getAttribute('title')) ?? '',
      /^Credit \+0\.001 under Owen \(per message\) \(per-message credit, replayed, estimated; 95% interval \[−0\.003, 0\.005\]\)$/,
    );
    // Keyboard: End reaches the last message; its screen-reader text carries its interval too.
    await page.locator('.msg[data-seq="0"]').focus();
    await page.keyboard.press('End');
    await page.locator('.msg.is-loaded[data-seq="99999"]').waitFor();
    assert.equal(await focusedSeq(s.h), 99_999);
    assert.match(
      (await page.locator('.msg[data-seq="99999"] .msg-credit .visually-hidden').textContent()) ?? '',
      /estimated; 95% interval \[/,
    );
    assert.equal(await mark(page, 99_999).textContent(), '±0.005');
    assert.ok((await page.locator('.msg').count()) < 80, 'still a window of rows');
    await s.close();
  });

  for (const theme of themes)
    test(`the row says "spread" or its interval, legibly, in the ${theme} theme; payloads stay text`, async () => {
      const count = 30;
      const credit = (method: ViewMethod) =>
        method === 'owen' ? estimatedOwenCredit(count) : creditFor(method, count);
      const s = await openEpisode(browser, {
        host: payloadHost(count, credit),
        data: episodeData(count, { defaultMethod: 'loo' }),
        theme,
      });
      const { page } = s.h;
      const dialogs = watchDialogs(page);
      await page.locator('.msg[data-seq="0"] .msg-credit-mark.is-spread').waitFor();
      assert.equal(await mark(page, 0).textContent(), 'spread');
      assert.match(
        (await page.locator('.msg[data-seq="0"] .msg-credit').getAttribute('title')) ?? '',
        /\(agent credit spread evenly over its messages\)$/,
      );
      const shown = await mark(page, 0).evaluate((el) => {
        const box = (
          el as unknown as { getBoundingClientRect(): { width: number; height: number } }
        ).getBoundingClientRect();
        const style = (
          globalThis as unknown as { getComputedStyle(e: unknown): { color: string; borderTopStyle: string } }
        ).getComputedStyle(el);
        return { width: box.width, height: box.height, color: style.color, border: style.borderTopStyle };
      });
      assert.ok(shown.width > 10 && shown.height > 5, `the mark is laid out: ${JSON.stringify(shown)}`);
      assert.equal(shown.border, 'dashed');
      assert.notEqual(shown.color, 'rgba(0, 0, 0, 0)');
      // The payload authors are text in the row heads.
      await page.locator('.msg.is-loaded[data-seq="2"]').waitFor();
      assert.equal(await page.locator('.msg[data-seq="1"] .msg-agent').textContent(), xss[0]);
      assert.equal(await page.locator('.msg[data-seq="2"] .msg-agent').textContent(), xss[1]);
      await chooseMethod(s.h, 'owen');
      await page.locator('.msg[data-seq="1"] .msg-credit-mark.is-interval').waitFor();
      assert.equal(await mark(page, 1).textContent(), '±0.002');
      assert.equal(await page.locator('.msg-credit-mark.is-spread').count(), 0, 'no spread under a per-message method');
      await assertNoInjection(page, dialogs);
      await s.h.screenshot(`message-credit-marks-${theme}`);
      await s.close();
    });
});
