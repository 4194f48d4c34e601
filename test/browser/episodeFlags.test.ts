// The Episode view's flags: only the flags about the episode are listed; the run's step windows over
// its step are one line that opens the dashboard (issue 16: badges only where a flag is about), in
// the light, dark and high-contrast themes, with markup in the episode's own flag.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OpenRunWindowsCommand } from '../../src/protocol/episodePanel';
import type { FlagView } from '../../src/protocol/viewData';
import { episodeData, ref, scriptedHost } from './episode/fixture';
import { openEpisode } from './episode/session';
import { describeInBrowser } from './harness/suite';

const img = '<img src=x onerror="window.__xss=1">';

const silent: FlagView = {
  flagId: 7,
  kind: 'silent',
  agent: img,
  scope: 'episode',
  steps: null,
  score: null,
  summary: `${img} is declared in the roster but never acts (episode e12): silent in 1 episode`,
  evidence: [{ label: 'silent in', value: '1 episode' }],
};

describeInBrowser('Episode webview: flags about the episode, windows about the run', (browser) => {
  for (const theme of ['light', 'dark', 'high-contrast'] as const)
    test(`its own flag listed; "2 run-level windows cover step 12" opens the dashboard (${theme})`, async () => {
      const data = episodeData(30, {
        step: 12,
        flags: [silent],
        runWindows: { runId: 3, count: 2, step: 12, steps: [0, 14] },
      });
      const s = await openEpisode(browser, { host: scriptedHost({ count: 30 }), data, theme });
      const flags = s.h.page.locator('section.flags');
      assert.equal(await flags.locator('h2').textContent(), 'Flags (1)');
      assert.deepEqual(await flags.locator('.flag .flag-kind').allTextContents(), ['silent']);
      assert.equal(await flags.locator('.flag .agent-name').textContent(), img, 'markup shown as text');
      const line = flags.locator('.run-windows');
      assert.equal(await line.textContent(), '2 run-level windows cover step 12 — open in the dashboard');
      const link = line.getByRole('button', { name: 'open in the dashboard' });
      assert.equal(await link.getAttribute('title'), 'Open the Run Dashboard on steps 0–14');
      await line.scrollIntoViewIfNeeded();
      await s.h.screenshot(`episode-run-windows-${theme}`);
      const from = s.h.posted.length;
      await link.click();
      const sent = await s.h.waitForPosted((m) => OpenRunWindowsCommand.is(m) && s.h.posted.indexOf(m) >= from);
      assert.deepEqual(sent.params, { ref });
      assert.equal(await s.h.page.locator('#app img, #app [onerror]').count(), 0);
      await s.close();
    });

  test('no windows over its step: no line; no flags of its own: "No flags on this episode."', async () => {
    const s = await openEpisode(browser, {
      host: scriptedHost({ count: 30 }),
      data: episodeData(30, { flags: [], runWindows: null }),
    });
    const flags = s.h.page.locator('section.flags');
    assert.equal(await flags.locator('h2').textContent(), 'Flags (0)');
    assert.deepEqual(await flags.locator('p').allTextContents(), ['No flags on this episode.']);
    await s.close();
  });
});
