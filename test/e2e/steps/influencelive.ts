// Issue 17 (the influence graph's lifetime and deltas), the e2e step for the lead to wire into
// extension.e2e.ts right after f (the Run Dashboard open on the demo's pipeline run, no steps
// brushed), e.g.
//   test('f3. the dashboard influence graph takes in episodes appended by the live tail', { timeout: 90_000 }, () =>
//     cs.step('f3-influence-live', () =>
//       influenceLiveStep({ webview: cs.activeWebview, runDir: cs.runDir, screenshot: cs.screenshot }),
//     ),
//   );
import assert from 'node:assert/strict';
import type { FrameLocator, Locator } from 'playwright-core';
import { appendCopiedEpisodes } from './appendEpisodes';

export interface InfluenceLiveOptions {
  /** The active webview's frame (extension.e2e.ts's `cs.activeWebview`): the Run Dashboard. */
  readonly webview: () => FrameLocator;
  /** The demo's pipeline run folder (`cs.runDir`), whose last `rollouts/step_*.jsonl` is appended to. */
  readonly runDir: string;
  /** Saves `<name>.png` of the page (`cs.screenshot`). */
  readonly screenshot: (name: string) => Promise<void>;
}

/**
 * The dashboard's influence graph over every step follows a live tail: three episodes copied (with
 * new ids) to the end of the last step file raise the episode count of the planner → outcome edge
 * and of the graph's table by three within 20 s (the host adds only the appended episodes to the
 * aggregate it keeps); the edges stay the same set. Screenshot `i17-influence-live`.
 */
export async function influenceLiveStep({ webview, runDir, screenshot }: InfluenceLiveOptions): Promise<void> {
  const section = webview().locator('section.influence');
  const plannerRow = section.locator('.influence-table tbody tr[data-from="planner"][data-to="outcome"]');
  await plannerRow.first().waitFor({ timeout: 60_000 });
  const edgesBefore = await edgeNames(section);
  const before = await episodesOf(plannerRow);
  assert.ok(before > 0, `the planner → outcome edge rests on ${String(before)} episodes`);

  appendCopiedEpisodes(runDir, 3, 'e2e-influence');
  const deadline = Date.now() + 20_000;
  let now = before;
  while (now !== before + 3 && Date.now() < deadline) {
    await section.page().waitForTimeout(250);
    now = await episodesOf(plannerRow).catch(() => now);
  }
  assert.equal(now, before + 3, `planner → outcome episodes ${String(before)} → ${String(now)} within 20 s`);
  assert.deepEqual(await edgeNames(section), edgesBefore, 'the same edges, with three more episodes behind them');
  assert.equal(await section.locator('.error').count(), 0, 'no error in the influence section');
  await section.scrollIntoViewIfNeeded();
  await screenshot('i17-influence-live');
}

/** The Episodes cell of an edge's row (the table's sixth column). */
async function episodesOf(row: Locator): Promise<number> {
  const text = (await row.first().locator('td').nth(5).textContent()) ?? '';
  return Number(text.replace(/,/g, ''));
}

async function edgeNames(section: Locator): Promise<string[]> {
  const rows = section.locator('.influence-table tbody tr');
  return rows.evaluateAll((trs) =>
    trs.map((tr) => {
      const data = (tr as unknown as { dataset: Record<string, string | undefined> }).dataset;
      const kind = (tr as unknown as { children: ArrayLike<{ textContent: string | null }> }).children[2];
      return `${data['from'] ?? ''} → ${data['to'] ?? ''} ${kind?.textContent ?? ''}`;
    }),
  );
}
