import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GetEpisodesRequest, type GetEpisodesParams } from '../../src/protocol/dashboardPanel';
import type { WebviewHarness } from './harness/harness';
import { browserSuite } from './harness/suite';
import { tableRows } from './dashboard/dashboardHost';
import { closeDashboard as close, openDashboard, type OpenOptions, type Opened } from './dashboard/openDashboard';

const suite = browserSuite();
const open = (options: OpenOptions = {}): Promise<Opened> => openDashboard(suite.browser, options);
const lastEpisodesParams = (h: WebviewHarness): GetEpisodesParams | undefined =>
  h.posted.filter((m) => GetEpisodesRequest.is(m)).at(-1)?.params;
const savedState = (h: WebviewHarness): Promise<Record<string, unknown>> =>
  h.page.evaluate(() => JSON.parse(sessionStorage.getItem('vscode-state') ?? '{}') as Record<string, unknown>);

const img = '<img src=x onerror="window.__xss=1">';
const script = '</script><script>window.__xss=1</script>';

suite.describe('Run Dashboard: per-agent credit columns', () => {
  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    test(`agent columns sort by credit, hide and filter, agent names shown as text (${theme})`, async () => {
      const agents = [`planner${img}`, script, 'verifier'];
      const o = await open({ theme, shape: { agents, episodes: 600 } });
      const { page } = o.h;
      await tableRows(page).first().waitFor();
      const header = page.locator('#episode-grid .row.header');
      assert.deepEqual(await header.locator('.col-agent-0, .col-agent-1, .col-agent-2').allInnerTexts(), agents);
      assert.equal(lastEpisodesParams(o.h)?.method, 'loo', 'the page asks for the credit of the shown method');
      const firstCredit = (): Promise<string> =>
        page.locator('#episode-grid .row[aria-rowindex="2"]:not(.loading) .col-agent-2').innerText();
      await page.locator('#sort-agent-2').click();
      await page.waitForFunction(
        () => document.querySelector('#episode-grid .col-agent-2')?.getAttribute('aria-sort') === 'ascending',
      );
      assert.equal(lastEpisodesParams(o.h)?.sort.key, 'credit:verifier');
      await page.waitForFunction(
        () =>
          document.querySelector('#episode-grid .row[aria-rowindex="2"]:not(.loading) .col-agent-2')?.textContent ===
          '−1.000',
      );
      assert.equal(await firstCredit(), '−1.000', 'most negative first');
      // Hide the second agent's column: it leaves the header and the saved state remembers it.
      await page.locator('#column-chooser summary').click();
      await page.locator('#show-agent-1').uncheck();
      await page.waitForFunction(
        () => document.querySelectorAll('#episode-grid .row.header .col-agent-1').length === 0,
      );
      assert.deepEqual((await savedState(o.h))['hiddenColumns'], [script]);
      assert.equal(await page.locator('#column-chooser .chooser-column', { hasText: script }).count(), 1);
      await o.h.screenshot(`dashboard-agent-columns-${theme}`);
      assert.equal(await page.evaluate(() => (window as { __xss?: unknown }).__xss), undefined);
      assert.equal(await page.locator('#app img, #app script, #app [onerror]').count(), 0);
      await close(o);
    });
  }

  test('a credit filter ("verifier credit ≤ 0.05") reaches the host and the status line', async () => {
    const o = await open({ shape: { episodes: 600 } });
    const { page } = o.h;
    await tableRows(page).first().waitFor();
    await page.locator('#column-chooser summary').click();
    await page.locator('#credit-filter-agent').evaluate((e) => {
      (e as HTMLElement & { value: string }).value = 'verifier';
      e.dispatchEvent(new Event('change'));
    });
    await page.locator('#credit-filter-max input').fill('0.05');
    await page.waitForFunction(() =>
      /verifier credit …–0\.05/.test(document.querySelector('.table-status')?.textContent ?? ''),
    );
    assert.deepEqual(lastEpisodesParams(o.h)?.filter.agentCredit, { agent: 'verifier', min: null, max: 0.05 });
    await page.locator('#episode-grid .row[aria-rowindex="2"]:not(.loading)').waitFor();
    const values = await page.locator('#episode-grid .row:not(.header):not(.loading) .col-agent-2').allInnerTexts();
    assert.ok(values.length > 0);
    for (const v of values) assert.ok(Number(v.replace('−', '-')) <= 0.05, v);
    await close(o);
  });
});
