// Issue 16 (part 5, colour), e2e steps for the lead to wire into extension.e2e.ts: the dashboard's
// heatmap and the Episode view colour credit on the run's one fixed domain (its reward span), the
// same numbers in both legends, every cell and row in one of the named states, and the legend's
// sentence about spread credit attached to what it qualifies (no orphan "· …" line).
import assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import type { CodeServer } from './workbench';

export interface ColourStepOptions {
  /** The active webview frame (extension.e2e.ts: `activeWebview()`). */
  readonly webview: () => FrameLocator;
  /** Saves a screenshot under `name` (extension.e2e.ts: `screenshot`). */
  readonly screenshot: (name: string) => Promise<void>;
  /** The scale's end as the legends print it; the demo logs rewards 0 or 1, so "1.00". */
  readonly bound?: string;
}

/** The legend's ends, and that the domain note names the reward span. */
async function assertLegend(view: FrameLocator, scope: string, bound: string): Promise<void> {
  const legend = view.locator(`${scope} .credit-legend`);
  await legend.waitFor({ timeout: 30_000 });
  assert.deepEqual(await legend.locator('.ramp-end').allInnerTexts(), [`−${bound}`, `+${bound}`]);
  assert.equal(await legend.locator('.ramp-stop').count(), 11);
  assert.deepEqual(await legend.locator('.credit-states li').allInnerTexts(), [
    'zero credit',
    'no credit',
    '?not identifiable',
    `▲beyond ±${bound}`,
  ]);
  assert.match(
    await legend.locator('.credit-domain').innerText(),
    /^Scale fixed at ±\S+ for every method and episode: the run's reward span, /,
  );
}

/**
 * With the Run Dashboard open on a run with credit (step f, after the LOO recompute): the heatmap's
 * legend shows the fixed domain, every cell is in one state, then saves `colour-heatmap.png`.
 */
export async function heatmapColoursStep(o: ColourStepOptions): Promise<void> {
  const view = o.webview();
  const bound = o.bound ?? '1.00';
  const cells = view.locator('#chart-heatmap rect.cell');
  await cells.first().waitFor({ timeout: 30_000 });
  await assertLegend(view, '#figure-heatmap', bound);
  const total = await cells.count();
  const states = await Promise.all(
    ['value', 'zero', 'empty', 'unidentified'].map((s) => view.locator(`#chart-heatmap rect.cell.${s}`).count()),
  );
  assert.equal(
    states.reduce((a, b) => a + b, 0),
    total,
    `every cell has one state: ${JSON.stringify(states)}`,
  );
  assert.ok((states[0] ?? 0) > 0, 'the run has coloured cells');
  await o.screenshot('colour-heatmap');
}

/**
 * With the Episode view open under an agent-level method (step g, LOO): the legend shows the same
 * domain as the dashboard, the spread-credit sentence is attached to the legend, every loaded row
 * has a credit state and a zero row is painted as the neutral; then saves `colour-episode.png`.
 */
export async function episodeColoursStep(o: ColourStepOptions): Promise<void> {
  const view = o.webview();
  const bound = o.bound ?? '1.00';
  await assertLegend(view, '.legend', bound);
  const sentence = await view.locator('.legend .legend-kind').innerText();
  assert.match(sentence, /^Each message shows its agent's \S.* credit spread evenly over the agent's messages\.$/);
  const rows = view.locator('.msg.is-loaded');
  await rows.first().waitFor({ timeout: 30_000 });
  const states = await rows.evaluateAll((elements) =>
    elements.map((e) => (e as unknown as { dataset: Record<string, string | undefined> }).dataset['creditState']),
  );
  assert.ok(states.length > 0);
  for (const state of states) assert.ok(['value', 'zero', 'none'].includes(state ?? ''), `row state ${String(state)}`);
  const zero = view.locator('.msg.is-loaded[data-credit-state="zero"]').first();
  if ((await zero.count()) > 0)
    assert.equal(
      await zero.evaluate((e) =>
        (e as unknown as { style: { getPropertyValue(p: string): string } }).style.getPropertyValue('--tint'),
      ),
      'var(--credit-zero)',
    );
  await o.screenshot('colour-episode');
}

/** i. The Episode view and the dashboard in the Light Modern theme (screenshots), then back to Dark Modern. */
export async function bothViewsInLight(cs: CodeServer): Promise<void> {
  await cs.setTheme('Light Modern');
  await cs.step('i-episode-light', async () => {
    await cs.runCommand('View: Close All Editors');
    await cs.openPipelineEpisode('s18-g0-r0');
  });
  await cs.step('i-dashboard-light', async () => {
    await cs.runCommand('View: Close All Editors');
    await cs.runCommand('Credit Lens: Open Run Dashboard');
    await cs
      .activeWebview()
      .locator('figcaption.chart-caption', { hasText: 'Credit share, start' })
      .waitFor({ timeout: 60_000 });
  });
  await cs.setTheme('Dark Modern');
}
