import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DidChangeSummaryNotification, ReadyCommand } from '../../src/protocol/runSummaryPanel';
import { describeInBrowser } from './harness/suite';

describeInBrowser('Run Summary webview', (browser) => {
  test('the Run Summary webview shows trace-derived names as text under the production CSP', async () => {
    const h = await browser.open({
      entry: { script: 'main', styles: ['webview.css', 'summary.css'] },
      host: () => undefined,
    });
    await h.waitForPosted((m) => ReadyCommand.is(m));
    await h.notify(DidChangeSummaryNotification, {
      folderName: '<img src=x onerror=alert(1)>',
      folderPath: '/x',
      indexPath: '/y',
      cancelled: false,
      summary: {
        files: 1,
        runs: [],
        episodes: 0,
        messages: 0,
        agents: 0,
        steps: 0,
        errorCount: 0,
        errors: [],
        searchIndexed: 0,
      } as never,
    });
    await h.page.locator('h1').waitFor();
    assert.equal(await h.page.locator('h1').textContent(), '<img src=x onerror=alert(1)>');
    // The folder is saved, so the host can read its index again when VS Code restores the panel.
    const saved = await h.page.evaluate(() => JSON.parse(sessionStorage.getItem('vscode-state') ?? 'null') as unknown);
    assert.deepEqual(saved, { version: 1, folder: '/x' });
    await h.screenshot('smoke');
    await h.close();
  });
});
