// Long episodes in the Episode webview (headless Chromium, production CSP, the scripted host of
// test/browser/episode/fixture.ts): only a window of rows and of messages, scrolling, the last
// message. Run `node esbuild.mjs` first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { episodeData, scriptedHost } from './episode/fixture';
import { scrollFrames, scrollToRow } from './episode/page';
import { assertOnlyWindowsAsked, focusedSeq, openEpisode } from './episode/session';
import { describeInBrowser } from './harness/suite';

describeInBrowser('Episode webview: long episodes', (browser) => {
  // How soon the first rows appear (budget 1 s at 10,000 messages, 2 s at 100,000) is measured in the
  // webview benchmark (bench/webviewOpen.ts), not timed here: a loaded machine would fail a sound view.
  test('opens a 10,000-message episode with only a window of rows in the DOM', async () => {
    const s = await openEpisode(browser, { host: scriptedHost({ count: 10_000 }), data: episodeData(10_000) });
    const rows = await s.h.page.locator('.msg').count();
    assert.ok(rows > 5 && rows < 80, `${String(rows)} rows in the DOM`);
    assert.equal(await s.h.page.locator('.msg[data-seq="0"]').getAttribute('aria-setsize'), '10000');
    assert.match(
      (await s.h.page.locator('.msg[data-seq="0"] .msg-body').textContent()) ?? '',
      /^Message 0 from planner/,
    );
    // Scrolling far down fetches that window only, and the DOM stays a window.
    await scrollToRow(s.h, 5000);
    await s.h.page.locator('.msg.is-loaded[data-seq="5000"]').waitFor();
    const after = await s.h.page.locator('.msg').count();
    assert.ok(after < 80, `${String(after)} rows in the DOM after scrolling`);
    assertOnlyWindowsAsked(s.h.posted);
    const frames = await scrollFrames(s.h.page, 120, 300);
    console.log(
      `10,000 messages: scrolling 300 px a frame for 120 frames, frame time p50 ${frames.p50.toFixed(1)} ms, max ${frames.max.toFixed(1)} ms, ${String(frames.rows)} rows in the DOM`,
    );
    assert.ok(frames.rows < 80);
    await s.close();
  });

  test('opens a 100,000-message episode and reaches its last message', async () => {
    const s = await openEpisode(browser, { host: scriptedHost({ count: 100_000 }), data: episodeData(100_000) });
    assertOnlyWindowsAsked(s.h.posted);
    await s.h.page.locator('.msg[data-seq="0"]').focus();
    await s.h.page.keyboard.press('End');
    await s.h.page.locator('.msg.is-loaded[data-seq="99999"]').waitFor();
    assert.equal(await focusedSeq(s.h), 99_999);
    assert.ok((await s.h.page.locator('.msg').count()) < 80);
    await s.close();
  });
});
