// The e2e step of the Run Dashboard on the demo (test/e2e/extension.e2e.ts f): the verifier's credit
// share collapsing over the flagged steps, the agent summary, the heatmap's colours, the episode
// table's search, its sort by the verifier's credit and its numeric id order.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { heatmapColoursStep } from './colour';
import { dashboardSortsIdsNumerically } from './copy';
import { agentSummaryStep } from './dash';
import { indexOf } from './e2ereal';
import { indexCreditOrder, sortByAgentCredit } from './realDataChecks';
import type { CodeServer } from './workbench';

/** f. The dashboard of the demo's pipeline run, LOO recomputed from its notice when missing. */
export async function dashboardShowsCollapse(cs: CodeServer): Promise<void> {
  const { page, activeWebview, screenshot } = cs;
  await cs.runCommand('View: Close All Editors');
  await cs.runCommand('Credit Lens: Open Run Dashboard');
  const webview = activeWebview();
  const notice = webview.locator('#notice-recompute');
  const caption = webview.locator('figcaption.chart-caption', { hasText: 'Credit share, start' });
  await notice.or(caption).first().waitFor({ timeout: 60_000 });
  // The audit keeps its own credit; LOO rows are stored by a recompute, here from the dashboard.
  if (await notice.isVisible()) await notice.click();
  await caption.waitFor({ timeout: 180_000 });
  const text = (await caption.textContent()) ?? '';
  const verifier = /verifier (\d+\.\d+) → (\d+\.\d+)/.exec(text);
  assert.ok(verifier, text);
  assert.ok(Number(verifier[1]) > 0.1 && Number(verifier[2]) < 0.05, `verifier share start → end: ${text}`);
  await webview.locator('.window-list', { hasText: /verifier/ }).waitFor({ timeout: 10_000 });
  // Step c audited the run: the agent summary above the charts shows its rates and flags.
  const agents = ['planner', 'solver', 'verifier'];
  await agentSummaryStep({ webview: activeWebview, screenshot, agents, audited: true, stepped: true });
  // The heatmap on the run's fixed colour domain: one state per cell, the legend's numbers.
  await heatmapColoursStep({ webview: activeWebview, screenshot });
  await webview.locator('.episode-table, [aria-label^="Episodes"]').first().waitFor({ timeout: 10_000 });
  // The episode table's first page, then its full-text search (both once failed on node:sqlite).
  const status = webview.locator('.table-status');
  const firstRow = webview.locator('#episode-grid .row[aria-rowindex="2"]:not(.loading)');
  await firstRow.waitFor({ timeout: 30_000 });
  await status.filter({ hasText: /^[\d,]+ episodes?$/ }).waitFor({ timeout: 10_000 });
  await webview.locator('#episode-grid').focus();
  await page.keyboard.press('/');
  await page.keyboard.type('lgtm');
  const searched = status.filter({ hasText: /^[1-9][\d,]* episodes? · search: lgtm$/ });
  await searched.waitFor({ timeout: 30_000 });
  await firstRow.waitFor({ timeout: 30_000 });
  assert.equal(await webview.locator('#search-error').innerText(), '', 'no search error');
  assert.equal(await webview.locator('.grid-message.error').count(), 0, 'no table error');
  await webview.locator('#clear-filters').click();
  await status.filter({ hasText: /^[\d,]+ episodes?$/ }).waitFor({ timeout: 10_000 });
  // The question the tool exists for: the verifier's LOO, most negative first, as the index orders it.
  const expected = indexCreditOrder(indexOf(join(cs.workspace, 'demo-run')), {
    run: 'planner-solver-verifier',
    method: 'loo',
    agent: 'verifier',
    descending: false,
    limit: 5,
  });
  assert.equal(expected.length, 5, "the demo stores the verifier's LOO credit");
  await sortByAgentCredit(webview, { agent: 'verifier', descending: false, expected });
  await screenshot('f-sorted-by-verifier');
  // Ids sort numerically (s2-g2 before s2-g10), from the index's natural order key.
  await dashboardSortsIdsNumerically({ webview: activeWebview, screenshot });
  await webview.locator('#sort-step').click();
}
