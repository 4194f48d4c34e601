// The episode table's Group cell links to the group view: the grid keeps the arrows, and Tab on the
// grid moves to the focused row's link, where Enter opens the group (Shift+Tab goes back).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { OpenGroupCommand } from '../../src/protocol/dashboardPanel';
import { browserSuite } from './harness/suite';
import { nextPosted } from './dashboard/dashboardHost';
import { closeDashboard, openDashboard } from './dashboard/openDashboard';
import { demoFolder } from './dashboard/scriptedRun';

const suite = browserSuite();
const browser = suite.browser;

/** Where the keyboard focus is: the element's id, or the text of a row's link and whether that row is focused. */
function focusAt(page: Page): Promise<{ id: string; link: string | null; inFocusedRow: boolean }> {
  return page.evaluate(() => {
    const element = document.activeElement;
    const link = element?.classList.contains('cell-link') ? element.textContent : null;
    return { id: element?.id ?? '', link, inFocusedRow: element?.closest('.row.focused') !== null };
  });
}

suite.describe('Run Dashboard: the Group cell from the keyboard', () => {
  test("Tab on the table reaches the focused row's Group link, Enter opens its group, Shift+Tab goes back", async () => {
    const o = await openDashboard(browser);
    const { page } = o.h;
    await page.locator('#episode-grid .row:not(.loading) .cell-link').first().waitFor();
    await page.locator('#episode-grid').focus();
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowUp']) await page.keyboard.press(key);
    assert.equal(await page.locator('#episode-grid .row.focused .col-id').innerText(), 'ep-0-1');
    const group = await page.locator('#episode-grid .row.focused .col-group').innerText();
    await page.keyboard.press('Tab');
    assert.deepEqual(await focusAt(page), { id: '', link: group, inFocusedRow: true });
    const opened = nextPosted(o.h, (m) => OpenGroupCommand.is(m));
    await page.keyboard.press('Enter');
    assert.deepEqual((await opened).params, { folder: demoFolder, runId: 1, group, method: 'loo' });
    await page.keyboard.press('Shift+Tab');
    assert.deepEqual(await focusAt(page), { id: 'episode-grid', link: null, inFocusedRow: false });
    // The link follows the row focus: two rows down, Tab reaches that row's group.
    for (const key of ['ArrowDown', 'ArrowDown']) await page.keyboard.press(key);
    assert.equal(await page.locator('#episode-grid .row.focused .col-id').innerText(), 'ep-0-3');
    await page.keyboard.press('Tab');
    const below = await page.locator('#episode-grid .row.focused .col-group').innerText();
    assert.deepEqual(await focusAt(page), { id: '', link: below, inFocusedRow: true });
    await closeDashboard(o);
  });

  test('with no row focused, Tab on the table goes on to the next control, not into a row', async () => {
    const o = await openDashboard(browser);
    const { page } = o.h;
    await page.locator('#episode-grid .row:not(.loading) .cell-link').first().waitFor();
    await page.locator('#episode-grid').focus();
    await page.keyboard.press('Tab');
    assert.equal((await focusAt(page)).link, null);
    assert.equal(
      await page.locator('#episode-grid .cell-link[tabindex="0"]').count(),
      0,
      'no link is in the page tab order',
    );
    await closeDashboard(o);
  });
});
