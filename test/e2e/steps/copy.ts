// Issue 16 (parts 4 and 7), e2e steps for the lead to wire into extension.e2e.ts:
// - "Open Episode by Id…" suggests the index's ids as they are typed, each with its run, step,
//   group and reward, and opens the one picked;
// - the Run Dashboard's table sorted by episode id reads the ids numeric-aware (r2 before r10).
// Calls, on the demo (its runs number episodes s<step>-g<group>-r<rollout>):
//   await openEpisodeBySuggestion({ page, webview: activeWebview, runCommand, screenshot,
//     prefix: 's1-g0-r', pick: 's1-g0-r1', run: 'planner-solver-verifier' });
//   (with the Run Dashboard open on the pipeline run)
//   await dashboardSortsIdsNumerically({ webview: activeWebview, screenshot });
import assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';

export interface SuggestionStepOptions {
  readonly page: Page;
  /** The active webview's frame (extension.e2e.ts: `activeWebview`). */
  readonly webview: () => FrameLocator;
  /** Runs a command from the palette by its title (extension.e2e.ts: `runCommand`). */
  readonly runCommand: (title: string) => Promise<void>;
  /** Saves `<name>.png` (extension.e2e.ts: `screenshot`). */
  readonly screenshot: (name: string) => Promise<void>;
  /** What to type: every suggestion starts with it. */
  readonly prefix: string;
  /** The id to pick among the suggestions, and the run whose episode it is. */
  readonly pick: string;
  readonly run: string;
}

/** A quick-input row's label and description. */
async function rowTexts(page: Page): Promise<{ label: string; description: string }[]> {
  const rows = page.locator('.quick-input-list .monaco-list-row');
  return rows.evaluateAll((elements) =>
    elements.map((row) => ({
      label: row.querySelector('.label-name')?.textContent?.trim() ?? '',
      description: row.querySelector('.label-description')?.textContent?.trim() ?? '',
    })),
  );
}

/**
 * Types `prefix` into "Open Episode by Id…", waits for the suggestions, asserts their count and
 * text (the typed text first, then ids starting with it, each with run · step · group · reward),
 * screenshots `copy-open-by-id-suggestions`, picks `pick` of `run` and waits for the Episode view.
 */
export async function openEpisodeBySuggestion(o: SuggestionStepOptions): Promise<void> {
  await o.runCommand('Credit Lens: Open Episode by Id…');
  const input = o.page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 10_000 });
  await input.fill(o.prefix);
  const suggested = o.page.locator('.quick-input-list .monaco-list-row', { hasText: 'reward' });
  await suggested.first().waitFor({ timeout: 10_000 });
  const rows = await rowTexts(o.page);
  assert.deepEqual(rows[0], { label: o.prefix, description: 'open this id' }, 'the typed text comes first');
  const suggestions = rows.slice(1);
  // VS Code renders only the rows in view; the index answers at most 50.
  assert.ok(suggestions.length > 0 && suggestions.length <= 50, `${String(suggestions.length)} suggestions`);
  for (const s of suggestions) {
    assert.ok(s.label.startsWith(o.prefix), `${s.label} starts with ${o.prefix}`);
    assert.match(s.description, /^.+ · (step \d+|no step)( · group \S+)? · (reward \S+|no reward)$/, s.description);
  }
  await o.screenshot('copy-open-by-id-suggestions');
  const wanted = o.page.locator('.quick-input-list .monaco-list-row', { hasText: o.run }).filter({
    has: o.page.locator('.label-name', { hasText: new RegExp(`^${o.pick.replace(/[-]/g, '\\-')}$`) }),
  });
  await input.fill(o.pick);
  await wanted.first().waitFor({ timeout: 10_000 });
  await wanted.first().click();
  await o.webview().locator('.msg.is-loaded').first().waitFor({ timeout: 60_000 });
  assert.match((await o.webview().locator('h1').first().textContent()) ?? '', new RegExp(o.pick));
}

export interface IdSortStepOptions {
  /** The dashboard's frame (extension.e2e.ts: `activeWebview`). */
  readonly webview: () => FrameLocator;
  readonly screenshot: (name: string) => Promise<void>;
}

/** The number runs of an id, for a numeric-aware comparison: `s2-g10-r3` → [2, 10, 3]. */
const numbers = (id: string): number[] => (id.match(/\d+/g) ?? []).map(Number);

/**
 * Clicks the table's Episode header (sort by id), then asserts that the visible ids are in
 * numeric-aware order (`s1-g0-r2` before `s1-g0-r10`, `s2-…` before `s10-…`), screenshot
 * `copy-dashboard-id-sort`, and sorts back by step.
 */
export async function dashboardSortsIdsNumerically(o: IdSortStepOptions): Promise<void> {
  const view = o.webview();
  await view.locator('#sort-id').click();
  await view.locator('[aria-sort=ascending] #sort-id').waitFor({ timeout: 10_000 });
  const cells = view.locator('#episode-grid .viewport .row:not(.loading) .col-id');
  await cells.first().waitFor({ timeout: 30_000 });
  const ids = await cells.allInnerTexts();
  assert.ok(ids.length >= 10, `a page of ids (${String(ids.length)})`);
  for (let i = 1; i < ids.length; i++) {
    const [a, b] = [numbers(ids[i - 1] ?? ''), numbers(ids[i] ?? '')];
    const order = a.findIndex((n, k) => n !== b[k]);
    assert.ok(order === -1 || (a[order] ?? 0) < (b[order] ?? 0), `${ids[i - 1] ?? ''} before ${ids[i] ?? ''}`);
  }
  await o.screenshot('copy-dashboard-id-sort');
  await view.locator('#sort-step').click();
}
