// The Episode webview's life in VS Code (headless Chromium, production CSP, the scripted host of
// test/browser/episode/fixture.ts): a reload restores the view, a new episode resets it, and a panel
// that missed the first Ready still shows its episode. Run `node esbuild.mjs` first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DidChangeEpisodeNotification,
  EpisodeReadyCommand,
  GetCreditRequest,
  GetMessagesRequest,
} from '../../src/protocol/episodePanel';
import { episodeData, ref, scriptedHost } from './episode/fixture';
import { scrollToRow, scrollTop, waitForSaved } from './episode/page';
import { chooseMethod, entry, focusedSeq, openEpisode, savedState, waitForPostedAfter } from './episode/session';
import { describeInBrowser } from './harness/suite';

describeInBrowser('Episode webview: reload, a new episode, Ready', (browser) => {
  test('restores the method, scroll position and expanded messages after a reload', async () => {
    const s = await openEpisode(browser, { host: scriptedHost({ count: 10_000 }), data: episodeData(10_000) });
    await chooseMethod(s.h, 'loo');
    await scrollToRow(s.h, 2000);
    await s.h.page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document.querySelector(
          '.msg.is-loaded[data-seq="2005"]',
        ) !== null,
    );
    const top = (await waitForSaved(s.h, 'topSeq', 1900))['topSeq'] as number;
    const expandSeq = top + 3;
    await s.h.page.locator(`.msg[data-seq="${String(expandSeq)}"]`).click();
    await s.h.page.keyboard.press('Enter');
    const saved = await waitForSaved(s.h, 'expanded', expandSeq);
    assert.equal(saved['method'], 'loo');
    assert.equal(saved['focusedSeq'], expandSeq);

    const from = s.h.posted.length;
    await s.reload();
    const ready = await waitForPostedAfter(s.h, from, (m) => EpisodeReadyCommand.is(m));
    assert.deepEqual((ready.params as { ref: unknown }).ref, ref);
    await s.h.notify(DidChangeEpisodeNotification, episodeData(10_000));
    await waitForPostedAfter(s.h, from, (m) => GetCreditRequest.is(m) && m.params.method === 'loo');
    await s.h.page.locator(`.msg.is-expanded[data-seq="${String(expandSeq)}"]`).waitFor();
    assert.equal(
      await s.h.page
        .locator('vscode-dropdown.method-switch')
        .evaluate((el) => (el as unknown as { value: string }).value),
      'loo',
    );
    assert.equal((await savedState(s.h))?.['topSeq'], top);
    assert.ok(await s.h.page.locator(`.msg[data-seq="${String(top)}"]`).isVisible(), 'the saved top row is shown');
    await s.close();
  });

  test('a new episode resets the list; the same episode refreshes in place', async () => {
    const s = await openEpisode(browser, { host: scriptedHost({ count: 2000 }), data: episodeData(1000) });
    await scrollToRow(s.h, 500);
    await s.h.page.locator('.msg.is-loaded[data-seq="505"]').click();
    await s.h.notify(DidChangeEpisodeNotification, episodeData(2000));
    await s.h.page.locator('.msg.is-loaded[aria-setsize="2000"][data-seq="505"]').waitFor();
    assert.ok((await scrollTop(s.h)) > 400 * 50, 'same episode: scroll position kept');
    assert.equal(await focusedSeq(s.h), 505, 'same episode: keyboard focus kept');
    const other = { ...ref, episodeId: 43 };
    const from = s.h.posted.length;
    await s.h.notify(DidChangeEpisodeNotification, episodeData(50, { ref: other, externalId: 'ep-0043' }));
    await waitForPostedAfter(
      s.h,
      from,
      (m) => GetMessagesRequest.is(m) && m.params.ref.episodeId === 43 && m.params.offset === 0,
    );
    await s.h.page.locator('.msg.is-loaded[data-seq="0"]').waitFor();
    assert.equal(await scrollTop(s.h), 0);
    assert.equal(await s.h.page.locator('h1').textContent(), 'Episode ep-0043');
    await s.close();
  });

  test('says ready again until an episode arrives: a host that missed the first Ready (a revived panel) still shows it', async () => {
    const h = await browser.open({ entry, host: scriptedHost({ count: 20 }) });
    await h.waitForPosted((m) => EpisodeReadyCommand.is(m));
    const first = h.posted.length;
    // The host was not listening yet: it answers only the second Ready.
    await waitForPostedAfter(h, first, (m) => EpisodeReadyCommand.is(m));
    await h.notify(DidChangeEpisodeNotification, episodeData(20));
    await h.page.locator('.msg.is-loaded').first().waitFor();
    const readies = h.posted.filter((m) => EpisodeReadyCommand.is(m)).length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    assert.equal(
      h.posted.filter((m) => EpisodeReadyCommand.is(m)).length,
      readies,
      'no more Ready once the episode is shown',
    );
    await h.close();
  });
});
