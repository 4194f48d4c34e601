// The Episode view's swimlanes in headless Chromium under the production CSP, driven by the
// scripted host of test/browser/episode/fixture.ts plus the timeline reply: lanes, blocks, the
// keyboard, the click into the message list, the minimap, a 100,000-message episode, the light,
// dark and high-contrast themes and markup payloads in agent names and labels. Run `node esbuild.mjs` first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DidChangeEpisodeNotification,
  EpisodeReadyCommand,
  GetTimelineRequest,
  type EpisodeViewData,
} from '../../src/protocol/episodePanel';
import { episodeData } from './episode/fixture';
import { chooseMethod, entry, focusedSeq, openEpisode, type EpisodeSession } from './episode/session';
import type { HarnessBrowser, WebviewHarness } from './harness/harness';
import { swimlaneHost, timedSwimlanes } from './episode/timeline';
import { noScriptRan } from './harness/noScriptRan';
import { describeInBrowser } from './harness/suite';

const img = '<img src=x onerror="window.__xss=1">';
const script = '</script><script>window.__xss=1</script>';

async function open(
  browser: HarnessBrowser,
  count: number,
  options: { data?: EpisodeViewData; theme?: 'light' | 'dark' | 'high-contrast' } = {},
): Promise<EpisodeSession> {
  const s = await openEpisode(browser, {
    host: swimlaneHost(count),
    data: options.data ?? episodeData(count),
    ...(options.theme ? { theme: options.theme } : {}),
  });
  await s.h.page.locator('.lane-block').first().waitFor();
  return s;
}

async function current(h: WebviewHarness): Promise<number> {
  const id = await h.page.locator('.lanes-viewport').getAttribute('aria-activedescendant');
  assert.ok(id, 'the listbox names its current block');
  const seq = await h.page.locator(`#${id}`).getAttribute('data-seq');
  return Number(seq);
}

describeInBrowser('Episode webview: swimlanes', (browser) => {
  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    test(`one lane per roster agent, the silent one labelled, blocks tinted and the label marked (${theme})`, async () => {
      const s = await open(browser, 60, { theme });
      const page = s.h.page;
      assert.deepEqual(await page.locator('.lane-label').allInnerTexts(), [
        'planner',
        'coder',
        'verifier',
        'critic (silent)',
      ]);
      assert.equal(await page.locator('.lane-row').count(), 4);
      assert.equal(await page.locator('.lane-block').count(), 60, 'a short episode fits: every block drawn');
      assert.equal(await page.locator('.lanes-minimap').isHidden(), true, 'no minimap when the episode fits');
      // Blocks sit in their author's lane, wider with more tokens.
      const box = (seq: number) =>
        page.locator(`.lane-block[data-seq="${String(seq)}"]`).evaluate((el) => {
          const b = el as unknown as { offsetTop: number; offsetWidth: number };
          return { top: b.offsetTop, width: b.offsetWidth };
        });
      const [b0, b1, b2, b29] = await Promise.all([box(0), box(1), box(2), box(29)]);
      assert.ok(b0.top < b1.top && b1.top < b2.top, 'planner, coder, verifier lanes top to bottom');
      assert.ok(b29.width > b0.width, `49 tokens (${String(b29.width)} px) wider than 20 (${String(b0.width)} px)`);
      // The default method (shared) spreads credit: every block has a value and a colour.
      await page.locator('.lane-block[data-credit-state="value"]').first().waitFor();
      const tint = await page
        .locator('.lane-block[data-seq="0"]')
        .evaluate((el) =>
          (el as unknown as { style: { getPropertyValue(p: string): string } }).style.getPropertyValue('--tint'),
        );
      assert.match(tint, /color-mix|var\(--credit/);
      assert.match((await page.locator('.lane-block[data-seq="7"]').getAttribute('class')) ?? '', /has-label/);
      assert.match(
        (await page.locator('.lane-block[data-seq="7"]').getAttribute('aria-label')) ?? '',
        /^#7 coder · 27 tokens · Credit .* · label mistake: step 7$/,
      );
      assert.match(
        (await page.locator('.lanes-note').innerText()) ?? '',
        /5 of 60 messages log no token count and are drawn as 1 token/,
      );
      // Per-message credit: each block its own colour on the same fixed scale.
      await chooseMethod(s.h, 'prefix');
      await page.waitForFunction(() => {
        const doc = (
          globalThis as unknown as {
            document: { querySelector(s: string): { dataset: Record<string, string> } | null };
          }
        ).document;
        return doc.querySelector('.lane-block[data-seq="1"]')?.dataset['credit'] === '0.841';
      });
      const tints = await page
        .locator('.lane-block')
        .evaluateAll(
          (els) =>
            new Set(
              els.map((e) =>
                (e as unknown as { style: { getPropertyValue(p: string): string } }).style.getPropertyValue('--tint'),
              ),
            ).size,
        );
      assert.ok(tints > 20, `${String(tints)} distinct block colours under prefix`);
      await s.h.screenshot(`swimlanes-${theme}`);
      await s.close();
    });
  }

  test('one tab stop; arrows move along and across lanes, Enter and a click open the message in the list', async () => {
    const s = await open(browser, 300);
    const page = s.h.page;
    const stops = await page
      .locator('.swimlanes [tabindex]')
      .evaluateAll((els) => els.filter((e) => (e as unknown as { tabIndex: number }).tabIndex >= 0).length);
    assert.equal(stops, 1);
    await page.locator('.lanes-viewport').focus();
    assert.equal(await current(s.h), 0);
    await page.keyboard.press('ArrowRight');
    assert.equal(await current(s.h), 3, "right: the planner's next message");
    await page.keyboard.press('ArrowDown');
    assert.equal(await current(s.h), 4, "down: the coder's message nearest in time");
    await page.keyboard.press('ArrowDown');
    assert.equal(await current(s.h), 5, 'down: the verifier');
    await page.keyboard.press('ArrowDown');
    assert.equal(await current(s.h), 5, 'the silent critic has no block: stays');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await current(s.h), 2);
    await page.keyboard.press('Enter');
    await page.locator('.msg.is-current[data-seq="2"]').waitFor();
    assert.equal(await focusedSeq(s.h), 2, 'Enter moved focus to the message in the list');
    await page.locator('.lanes-viewport').focus();
    await page.keyboard.press('End');
    assert.equal(await current(s.h), 299);
    await page.keyboard.press('Enter');
    await page.locator('.msg.is-current[data-seq="299"]').waitFor();
    await page.locator('.lane-block[data-seq="299"]').isVisible();
    await page.keyboard.press('Home');
    // The list's current message is followed by the lanes.
    assert.equal(await current(s.h), 0);
    await page.locator('.lanes-viewport').evaluate((el) => {
      (el as unknown as { scrollLeft: number }).scrollLeft = 0;
    });
    await page.locator('.lane-block[data-seq="10"]').click();
    await page.locator('.msg.is-current[data-seq="10"]').waitFor();
    assert.equal(await focusedSeq(s.h), 10);
    assert.equal(await current(s.h), 10);
    await s.close();
  });

  test('a 100,000-message episode: one timeline reply, a window of blocks, the minimap moves the window', async () => {
    const count = 100_000;
    const s = await openEpisode(browser, { host: swimlaneHost(count), data: episodeData(count) });
    const page = s.h.page;
    await page.locator('.lane-block').first().waitFor();
    const asked = s.h.posted.filter((m) => GetTimelineRequest.is(m)).length;
    assert.equal(asked, 1, 'one timeline request');
    const blocks = await page.locator('.lane-block').count();
    assert.ok(blocks > 10 && blocks < 400, `${String(blocks)} blocks in the DOM`);
    assert.equal(await page.locator('.lanes-minimap').isVisible(), true);
    const cells = await page.locator('.minimap-cell').count();
    assert.ok(cells > 0 && cells <= 200 * 3, `${String(cells)} minimap cells`);
    const minimap = await page.locator('.lanes-minimap').boundingBox();
    assert.ok(minimap);
    await page.mouse.click(minimap.x + minimap.width * 0.75, minimap.y + minimap.height / 2);
    await page.waitForFunction(() => {
      const doc = (
        globalThis as unknown as { document: { querySelector(s: string): { scrollLeft: number; scrollWidth: number } } }
      ).document;
      const v = doc.querySelector('.lanes-viewport');
      return v.scrollLeft > v.scrollWidth * 0.7;
    });
    // The window is redrawn on the frame after the scroll, so wait for that frame's blocks.
    const drawn = await page
      .waitForFunction(
        () => {
          const doc = (
            globalThis as unknown as {
              document: { querySelectorAll(s: string): Iterable<{ dataset: Record<string, string> }> };
            }
          ).document;
          return [...doc.querySelectorAll('.lane-block')].some((e) => {
            const seq = Number(e.dataset['seq']);
            return seq > 70_000 && seq < 80_000;
          });
        },
        undefined,
        { timeout: 5000 },
      )
      .then(
        () => true,
        () => false,
      );
    assert.ok(drawn, 'the blocks three quarters in are drawn');
    assert.ok((await page.locator('.lane-block').count()) < 400);
    const window = await page
      .locator('.minimap-window')
      .evaluate((el) => (el as unknown as { style: { left: string } }).style.left);
    assert.ok(Number.parseFloat(window) > 70, `the window mark at ${window}`);
    await s.close();
  });

  // How soon the blocks appear is measured in the webview benchmark (bench/webviewOpen.ts), not here.
  for (const count of [10_000, 100_000])
    test(`${String(count)} messages: the blocks are drawn, and only a window of them`, async () => {
      const { h } = await timedSwimlanes(browser, count);
      assert.ok((await h.page.locator('.lane-block').count()) < 400);
      await h.close();
    });

  test('in a short panel the lanes keep a visible share of the height, and a click still opens the message', async () => {
    const h = await browser.open({ entry, host: swimlaneHost(300), viewport: { width: 1100, height: 560 } });
    await h.waitForPosted((m) => EpisodeReadyCommand.is(m));
    await h.notify(DidChangeEpisodeNotification, episodeData(300));
    await h.page.locator('.lane-block').first().waitFor();
    const [lanes, list] = await Promise.all(
      ['.lanes-slot', '.timeline-slot'].map((s) =>
        h.page.locator(s).evaluate((el) => (el as unknown as { clientHeight: number }).clientHeight),
      ),
    );
    assert.ok((lanes ?? 0) >= 44, `the lanes keep ${String(lanes)} px`);
    assert.ok((list ?? 0) >= (lanes ?? 0), `the list keeps ${String(list)} px`);
    await h.page.locator('.lane-block[data-seq="2"]').click();
    await h.page.locator('.msg.is-current[data-seq="2"]').waitFor();
    await h.screenshot('swimlanes-short-panel');
    await h.close();
  });

  test('agent names and labels with markup are text; no script runs', async () => {
    const base = episodeData(30);
    const data = episodeData(30, {
      agents: base.agents.map((a, i) => (i === 1 ? { ...a, name: img } : i === 3 ? { ...a, name: script } : a)),
      labels: [{ kind: script, agent: img, message: 7, value: img, reason: script }],
    });
    const s = await open(browser, 30, { data });
    const page = s.h.page;
    assert.deepEqual(await page.locator('.lane-label').allInnerTexts(), [
      'planner',
      img,
      'verifier',
      `${script} (silent)`,
    ]);
    const label = (await page.locator('.lane-block[data-seq="7"]').getAttribute('aria-label')) ?? '';
    assert.ok(label.startsWith(`#7 ${img} · `), label);
    assert.ok(label.endsWith(`label ${script}: ${img}`), label);
    await noScriptRan(s.h);
    await s.close();
  });
});
