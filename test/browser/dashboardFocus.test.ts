// Issue 16, part 7: the dashboard opened by a Problems quick fix "Open in Dashboard (steps a–b)"
// shows the flag's run with the table filtered to steps a–b, fitted to the run's steps like a
// restored brush; in light, dark and high-contrast themes, with markup in the run's name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DidChangeRunsNotification, type DashboardRunsData } from '../../src/protocol/dashboardPanel';
import { browserSuite } from './harness/suite';
import { choose, nextEpisodesRequest, tableRows, waitForStatus } from './dashboard/dashboardHost';
import { closeDashboard, openDashboard } from './dashboard/openDashboard';

const suite = browserSuite();
const browser = suite.browser;

const markup = '<img src=x onerror="window.__xss=1"></script><script>window.__xss=1</script>';

/** The scripted runs plus run 3, of 20 steps (0–19), whose name is markup. */
function withMarkupRun(runs: DashboardRunsData): DashboardRunsData {
  const first = runs.runs[0];
  assert.ok(first);
  const third = { ...first, runId: 3, name: `flagged ${markup}`, steps: { min: 0, max: 19, count: 20 } };
  return { ...runs, runs: [...runs.runs, third] };
}

suite.describe('Run Dashboard opened on a flag window', () => {
  for (const theme of ['light', 'dark', 'high-contrast'] as const)
    test(`a quick fix's steps become the step filter of its run, fitted to the run (${theme})`, async () => {
      const o = await openDashboard(browser, { theme });
      const { page } = o.h;
      const value = (id: string): Promise<string> => page.locator(id).evaluate((e) => (e as HTMLInputElement).value);
      // Opened on run 1, steps 25–40 (inside its 0–59).
      const filtered = nextEpisodesRequest(o.h, (p) => p.filter.stepFrom === 25);
      o.host.runs = { ...withMarkupRun(o.host.runs), focus: { id: 11, runId: 1, steps: { from: 25, to: 40 } } };
      await o.h.notify(DidChangeRunsNotification, o.host.runs);
      assert.deepEqual([(await filtered).runId, (await filtered).filter], [1, { stepFrom: 25, stepTo: 40 }]);
      await waitForStatus(page, 'steps 25–40');
      assert.deepEqual([await value('#filter-stepFrom'), await value('#filter-stepTo')], ['25', '40']);
      const steps = (await tableRows(page).locator('.col-step').allInnerTexts()).map(Number);
      assert.ok(steps.length > 0 && steps.every((s) => s >= 25 && s <= 40), `rows in steps 25–40: ${steps.join(',')}`);
      await o.h.screenshot(`dashboard-focus-steps-${theme}`);
      // The same focus posted again (a refresh) does not undo the user's own filter.
      await choose(page, '#filter-agent', 'solver');
      await waitForStatus(page, 'steps 25–40 · agent: solver');
      const refetched = nextEpisodesRequest(o.h);
      await o.h.notify(DidChangeRunsNotification, { ...o.host.runs, revision: 2 });
      assert.deepEqual((await refetched).filter, { stepFrom: 25, stepTo: 40, agent: 'solver' });
      // Opened on run 3 (steps 0–19) for steps 10–30: selected, the steps clamped, and said.
      const clamped = nextEpisodesRequest(o.h, (p) => p.runId === 3);
      o.host.runs = { ...o.host.runs, revision: 3, focus: { id: 12, runId: 3, steps: { from: 10, to: 30 } } };
      await o.h.notify(DidChangeRunsNotification, o.host.runs);
      assert.deepEqual((await clamped).filter, { stepFrom: 10, stepTo: 19 });
      await page
        .locator('#filter-notice', {
          hasText: 'The filter did not fit this run: steps 10–30 clamped to 10–19 (this run has steps 0–19).',
        })
        .waitFor();
      await waitForStatus(page, 'steps 10–19');
      assert.equal(await page.locator('#run-select').evaluate((e) => (e as HTMLInputElement).value), '3');
      const option = page.locator('#run-select vscode-option[value="3"]');
      assert.equal(await option.textContent(), `flagged ${markup}`, "the run's name is shown as text");
      assert.equal(await page.locator('#run-select img, #run-select script').count(), 0);
      assert.equal(await page.evaluate(() => (window as { __xss?: number }).__xss), undefined, 'no script ran');
      await o.h.screenshot(`dashboard-focus-clamped-${theme}`);
      await closeDashboard(o);
    });
});
