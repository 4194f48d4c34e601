// Issue 16 part 3, an e2e step for the lead to wire into extension.e2e.ts: from the Runs view, a
// GRPO group of the demo's pipeline run opens in the group view, whose rollouts (count and rewards,
// best first) are those of the group in the index. Call it after the Runs view lists the runs, e.g.
//   await step('i16-group-view', () =>
//     groupViewStep({ page, runsView, webview: activeWebview, runCommand, screenshot,
//       indexPath: join(workspace, 'demo-run', '.credit-lens', 'index.sqlite'),
//       run: 'planner-solver-verifier', step: 3, group: 's3-g1' }),
//   );
import assert from 'node:assert/strict';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { openDatabase } from '../../../src/store/database';
import { formatNumber } from '../../../webview/src/kit/format';

export interface GroupViewStepOptions {
  readonly page: Page;
  /** The Runs view's pane (extension.e2e.ts: `runsView`). */
  readonly runsView: () => Locator;
  /** The active editor's webview frame (extension.e2e.ts: `activeWebview`). */
  readonly webview: () => FrameLocator;
  /** Runs a palette command by its title (extension.e2e.ts: `runCommand`). */
  readonly runCommand: (title: string) => Promise<void>;
  /** Saves `<name>.png` of the page (extension.e2e.ts: `screenshot`). */
  readonly screenshot: (name: string) => Promise<void>;
  /** The index the extension reads (the demo's: `demo-run/.credit-lens/index.sqlite`). */
  readonly indexPath: string;
  /** The run, the training step and the group to open (the demo: `planner-solver-verifier`, 3, `s3-g1`). */
  readonly run: string;
  readonly step: number;
  readonly group: string;
}

/** The group's rewards in the index, best first (the order the view shows), as the view formats them. */
function rewardsInIndex(indexPath: string, run: string, group: string): string[] {
  const db = openDatabase(indexPath, { readonly: true });
  try {
    return db
      .prepare<{ reward: number | null }>(
        `SELECT e.outcome AS reward FROM episode e JOIN run r ON r.run_id = e.run_id
         WHERE r.name = ? AND e.group_id = ? ORDER BY e.outcome IS NULL, e.outcome DESC`,
      )
      .all(run, group)
      .map((r) => (r.reward === null ? 'no reward' : formatNumber(r.reward)));
  } finally {
    db.close();
  }
}

/** The Runs-view row labelled exactly `label`. */
function treeRow(o: GroupViewStepOptions, label: string): Locator {
  return o
    .runsView()
    .locator('.monaco-list-row')
    .filter({
      has: o.page.locator('.label-name', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }),
    })
    .first();
}

/** Expands the row labelled `label` (a click toggles it: only when it is collapsed). */
async function expand(o: GroupViewStepOptions, label: string): Promise<void> {
  const row = treeRow(o, label);
  await row.waitFor({ timeout: 30_000 });
  if ((await row.getAttribute('aria-expanded')) === 'false') await row.click();
}

/**
 * Opens the group from its Runs-view node (inline action "Open Group View"), then asserts the
 * header, the rollout count and the rewards against the index, the convention line and the
 * signal table; screenshot `i16-group-view`.
 */
export async function groupViewStep(o: GroupViewStepOptions): Promise<void> {
  await o.runCommand('View: Close All Editors');
  await expand(o, o.run);
  await expand(o, `step ${String(o.step)}`);
  const row = treeRow(o, o.group);
  await row.waitFor({ timeout: 30_000 });
  await row.hover();
  await row.locator('.action-label[aria-label="Open Group View"]').click();
  const view = o.webview();
  const rollouts = view.locator('table.rollouts tbody tr');
  await rollouts.first().waitFor({ timeout: 60_000 });
  assert.equal(await view.locator('h1').textContent(), `GRPO group ${o.group}`);
  const expected = rewardsInIndex(o.indexPath, o.run, o.group);
  assert.ok(expected.length > 1, `the demo group ${o.group} has several rollouts`);
  assert.equal(await rollouts.count(), expected.length, 'one row per rollout of the group in the index');
  assert.equal(
    await view.locator('.fact', { hasText: 'Rollouts' }).locator('dd').textContent(),
    `${String(expected.length)} rollouts`,
  );
  const shown = await rollouts.evaluateAll((rows) => rows.map((r) => r.children[3]?.textContent ?? ''));
  assert.deepEqual(shown, expected, 'the rewards of the index, best first');
  assert.match(
    (await view.locator('.convention').textContent()) ?? '',
    new RegExp(`over ${String(expected.length)} rollouts`),
  );
  assert.equal(await view.locator('table.signals tbody tr').count(), expected.length);
  await o.screenshot('i16-group-view');
}
