import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DashboardReadyCommand,
  DashboardRecomputeCommand,
  DidChangeRunsNotification,
  GetEpisodesRequest,
  GetOverviewRequest,
  OpenEpisodeCommand,
  type GetEpisodesParams,
} from '../../src/protocol/dashboardPanel';
import type { Locator } from 'playwright-core';
import type { WebviewHarness } from './harness/harness';
import { browserSuite } from './harness/suite';
import {
  brushColumns,
  choose,
  nextEpisodesRequest,
  nextPosted,
  tableRows,
  waitForStatus,
} from './dashboard/dashboardHost';
import { closeDashboard as close, openDashboard, type OpenOptions, type Opened } from './dashboard/openDashboard';
import { collapseStep, demoFolder, episodePage, scriptedRun } from './dashboard/scriptedRun';

const suite = browserSuite();
const browser = suite.browser;

const open = (options: OpenOptions = {}): Promise<Opened> => openDashboard(browser, options);

const savedState = (h: WebviewHarness): Promise<Record<string, unknown>> =>
  h.page.evaluate(() => JSON.parse(sessionStorage.getItem('vscode-state') ?? '{}') as Record<string, unknown>);
const activeId = (h: WebviewHarness): Promise<string | undefined> => h.page.evaluate(() => document.activeElement?.id);
const valueOf = (locator: Locator): Promise<string> => locator.evaluate((e) => (e as HTMLInputElement).value);

const episodesParams = (h: WebviewHarness): GetEpisodesParams[] =>
  h.posted.filter((m) => GetEpisodesRequest.is(m)).map((m) => m.params);
const focusedRowText = (h: WebviewHarness): Promise<string> =>
  h.page.locator('#episode-grid .row.focused .col-id').innerText();

suite.describe('Run Dashboard webview', () => {
  test('the dashboard loads: charts with labels, the verifier collapse flagged, a window of table rows', async () => {
    const o = await open();
    const { page } = o.h;
    const ready = await o.h.waitForPosted((m) => DashboardReadyCommand.is(m));
    assert.deepEqual(ready.params, { stateVersion: 1, folder: null });
    const overview = await o.h.waitForPosted((m) => GetOverviewRequest.is(m));
    assert.deepEqual(overview.params, { folder: demoFolder, runId: 1, method: 'loo' });
    await waitForStatus(page, '20,000 episodes');
    for (const id of ['reward', 'share', 'idle', 'heatmap'])
      assert.ok(
        ((await page.locator(`#chart-${id}`).getAttribute('aria-label')) ?? '').length > 20,
        `${id} has an aria-label`,
      );
    assert.equal(await page.locator('#chart-share path.layer').count(), 3);
    assert.match(await page.locator('#figure-share .chart-caption').innerText(), /verifier 0\.31 → 0\.00/);
    assert.deepEqual(await page.locator('#chart-share .window-label text').allTextContents(), [
      `decoupling · verifier (steps ${String(collapseStep)}–59)`,
      `idle · verifier (steps ${String(collapseStep)}–59)`,
    ]);
    assert.equal(await page.locator('#chart-heatmap rect.cell').count(), 3 * 60);
    assert.equal(await page.locator('#chart-idle rect.flag-mark').count(), 60 - collapseStep);
    await tableRows(page).first().waitFor();
    const rows = await tableRows(page).count();
    assert.ok(rows > 5 && rows < 60, `only a window of the 20,000 rows is in the DOM (${String(rows)})`);
    assert.equal(await page.locator('#episode-grid').getAttribute('aria-rowcount'), '20001');
    await close(o);
  });

  test('switching the method asks for a new overview and redraws; a method without credit offers Recompute', async () => {
    const o = await open();
    const { page } = o.h;
    const before = await page.locator('#figure-share .chart-caption').innerText();
    const request = nextPosted(
      o.h,
      (m) => GetOverviewRequest.is(m) && (m.params as { method: string }).method === 'shapley',
    );
    await choose(page, '#method-select', 'Shapley (exact)');
    await request;
    await page.locator('#figure-share .chart-caption', { hasText: 'verifier 0.29' }).waitFor();
    assert.notEqual(await page.locator('#figure-share .chart-caption').innerText(), before);
    await choose(page, '#method-select', 'Shapley (Monte Carlo)');
    await page.locator('.notice.status-not-computed').waitFor();
    assert.equal(await page.locator('#figure-share').isHidden(), true);
    const recompute = nextPosted(o.h, (m) => DashboardRecomputeCommand.is(m));
    await page.locator('#notice-recompute').click();
    assert.deepEqual((await recompute).params, { folder: demoFolder, runId: 1, method: 'shapley-mc' });
    await page.locator('.recompute-note', { hasText: 'Recompute requested' }).waitFor();
    await choose(page, '#method-select', 'Owen (per message)');
    await page.locator('.notice.status-no-evaluator', { hasText: 'no evaluator is configured' }).waitFor();
    await close(o);
  });

  test('the charts say in words what they leave out: not-identifiable episodes are counted, with the reason and the remedy', async () => {
    const o = await open();
    const { page } = o.h;
    await choose(page, '#method-select', 'Routing');
    const notice = page.locator('.notice.coverage');
    await notice.waitFor();
    const text = await notice.innerText();
    assert.match(text, /Charts are drawn from [\d,]+ of [\d,]+ episodes with exact or estimated/);
    assert.match(text, /[\d,]+ not identifiable: routing credit needs the logged router probabilities/);
    assert.match(text, /What would answer it: log the router's probabilities/);
    assert.equal(await page.locator('#figure-share').isHidden(), false, 'the identifiable part is still drawn');
    await close(o);
  });

  test('the stacked / lines toggle redraws the credit share and is saved', async () => {
    const o = await open();
    const { page } = o.h;
    await page.locator('#mode-lines').click();
    await page.locator('#chart-share path.series').nth(2).waitFor();
    assert.equal(await page.locator('#chart-share path.layer').count(), 0);
    assert.equal(await page.locator('#mode-lines').getAttribute('aria-pressed'), 'true');
    assert.equal(await page.locator('#mode-stacked').getAttribute('aria-pressed'), 'false');
    assert.equal((await savedState(o.h))['chart'], 'lines');
    await page.locator('#mode-stacked').click();
    await page.locator('#chart-share path.layer').nth(2).waitFor();
    assert.equal(await page.locator('#chart-share path.series').count(), 0);
    await close(o);
  });

  test('brushing steps on the heatmap filters the table; clearing the brush clears the filter', async () => {
    const o = await open();
    const { page } = o.h;
    const request = nextEpisodesRequest(o.h, (p) => p.filter.stepFrom != null);
    await brushColumns(page, 30, 40, 60);
    const params = await request;
    assert.equal(params.filter.stepFrom, 30);
    assert.equal(params.filter.stepTo, 40);
    await waitForStatus(page, 'steps 30–40');
    assert.equal(await valueOf(page.locator('#filter-stepFrom')), '30');
    const steps = (await tableRows(page).locator('.col-step').allInnerTexts()).map(Number);
    assert.ok(
      steps.length > 0 && steps.every((s) => s >= 30 && s <= 40),
      `rows inside the brushed steps: ${steps.join(',')}`,
    );
    await page.locator('#figure-heatmap .chart-caption', { hasText: 'Selected steps 30–40' }).waitFor();
    const cleared = nextEpisodesRequest(o.h, (p) => p.filter.stepFrom == null);
    await page.locator('#clear-brush').click();
    await cleared;
    await waitForStatus(page, /^20,000 episodes$/);
    assert.equal(await page.locator('#chart-heatmap .brush .selection').isHidden(), true);
    await close(o);
  });

  test('a brush restored on a run with fewer steps is dropped, and the filter bar says so', async () => {
    const o = await open();
    const { page } = o.h;
    const brushed = nextEpisodesRequest(o.h, (p) => p.filter.stepFrom != null);
    await brushColumns(page, 24, 40, 60);
    const { stepFrom, stepTo } = (await brushed).filter;
    assert.deepEqual([stepFrom, stepTo], [24, 40]);
    await page.waitForFunction(
      () =>
        (JSON.parse(sessionStorage.getItem('vscode-state') ?? '{}') as { filter?: { stepTo?: number } }).filter
          ?.stepTo === 40,
    );
    // The folder was indexed again: the same run now has 20 steps (0–19).
    o.host.runs = scriptedRun({ steps: 20 }).runs;
    const firstPage = nextEpisodesRequest(o.h);
    await o.h.reload();
    assert.deepEqual((await firstPage).filter, {}, 'the table is asked for without the stale brush');
    await page
      .locator('#filter-notice', {
        hasText: 'The filter did not fit this run: steps 24–40 dropped (this run has steps 0–19).',
      })
      .waitFor();
    await waitForStatus(page, /^[\d,]+ episodes$/);
    assert.equal(await valueOf(page.locator('#filter-stepFrom')), '');
    assert.equal(await page.locator('#chart-heatmap .brush .selection').isHidden(), true);
    assert.deepEqual((await savedState(o.h))['filter'], { stepFrom: null, stepTo: null });
    // The user's next change of the filter takes the notice away.
    await choose(page, '#filter-agent', 'solver');
    await waitForStatus(page, 'agent: solver');
    assert.equal(await page.locator('#filter-notice').innerText(), '');
    await close(o);
  });

  test('a header click sorts the table (aria-sort), a second click reverses it', async () => {
    const o = await open();
    const { page } = o.h;
    const asc = nextEpisodesRequest(o.h, (p) => p.sort.key === 'reward');
    await page.locator('#sort-reward').click();
    assert.deepEqual((await asc).sort, { key: 'reward', descending: false });
    const header = page.locator('[role=columnheader]', { has: page.locator('#sort-reward') });
    assert.equal(await header.getAttribute('aria-sort'), 'ascending');
    const desc = nextEpisodesRequest(o.h, (p) => p.sort.key === 'reward' && p.sort.descending);
    await page.locator('#sort-reward').click();
    await desc;
    assert.equal(await header.getAttribute('aria-sort'), 'descending');
    await page.locator('#episode-grid .row[aria-rowindex="2"] .col-reward', { hasText: /^0\.99\d$/ }).waitFor();
    await close(o);
  });

  test('filters by flag, agent and full-text search; a bad query shows the search error', async () => {
    const o = await open();
    const { page } = o.h;
    const flag = nextEpisodesRequest(o.h, (p) => p.filter.flag === 'decoupling');
    await choose(page, '#filter-flag', 'Flag: decoupling');
    await flag;
    const flagged = episodePage(o.run, {
      folder: demoFolder,
      runId: 1,
      filter: { flag: 'decoupling' },
      sort: { key: 'step', descending: false },
      offset: 0,
      limit: 1,
    }).total;
    await waitForStatus(page, `${flagged.toLocaleString('en-US')} episodes · flag: decoupling`);
    const agent = nextEpisodesRequest(o.h, (p) => p.filter.agent === 'verifier');
    await choose(page, '#filter-agent', 'verifier');
    await agent;
    await waitForStatus(page, 'agent: verifier');
    const search = nextEpisodesRequest(o.h, (p) => p.filter.search === 'lgtm answer');
    await page.locator('#episode-grid').focus();
    await page.keyboard.press('/');
    await page.keyboard.type('lgtm answer');
    assert.equal(await search.then((p) => p.filter.flag), 'decoupling');
    await waitForStatus(page, 'search: lgtm answer');
    const bad = nextEpisodesRequest(o.h, (p) => p.filter.search === 'lgtm answer "');
    await page.keyboard.type(' "');
    await bad;
    await page.locator('#search-error', { hasText: 'fts5: syntax error' }).waitFor();
    assert.equal(await page.locator('#filter-search').getAttribute('aria-invalid'), 'true');
    await page.locator('#clear-filters').click();
    await waitForStatus(page, /^20,000 episodes$/);
    assert.equal(await page.locator('#search-error').innerText(), '');
    await close(o);
  });

  test('keyboard: / focuses the search, j/k move the row focus, Enter opens the episode', async () => {
    const o = await open();
    const { page } = o.h;
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('/');
    assert.equal(await activeId(o.h), 'filter-search');
    await page.keyboard.press('Escape');
    assert.equal(await activeId(o.h), 'episode-grid');
    for (const key of ['j', 'j', 'j', 'k']) await page.keyboard.press(key);
    assert.equal(await focusedRowText(o.h), 'ep-0-1', 'the first j focuses the top row');
    const focused = page.locator('#episode-grid .row.focused');
    assert.equal(await focused.getAttribute('aria-selected'), 'true');
    assert.equal(
      await page.locator('#episode-grid').getAttribute('aria-activedescendant'),
      await focused.getAttribute('id'),
    );
    assert.notEqual(
      await focused.evaluate((e) => getComputedStyle(e).outlineStyle),
      'none',
      'the focused row is visibly outlined',
    );
    const opened = nextPosted(o.h, (m) => OpenEpisodeCommand.is(m));
    await page.keyboard.press('Enter');
    assert.deepEqual((await opened).params, { folder: demoFolder, episodeId: 2, method: 'loo' });
    await page.keyboard.press('End');
    await page.locator('#episode-grid .row.focused .col-id', { hasText: 'ep-59-' }).waitFor();
    assert.ok((await tableRows(page).count()) < 60, 'still only a window of rows after jumping to the end');
    const last = nextPosted(o.h, (m) => OpenEpisodeCommand.is(m));
    await page.locator('#episode-grid .row.focused').dblclick();
    assert.deepEqual((await last).params, { folder: demoFolder, episodeId: 20_000, method: 'loo' });
    await close(o);
  });

  test('a new revision refetches the overview and the visible pages and keeps the UI state', async () => {
    const o = await open();
    const { page } = o.h;
    await choose(page, '#filter-flag', 'Any flag');
    await waitForStatus(page, 'flagged');
    await page.locator('#sort-step').click();
    await page.locator('[aria-sort=descending]').waitFor();
    const overview = nextPosted(o.h, (m) => GetOverviewRequest.is(m));
    const pageRequest = nextEpisodesRequest(o.h);
    o.host.runs = { ...o.host.runs, revision: 2 };
    await o.h.notify(DidChangeRunsNotification, o.host.runs);
    assert.deepEqual((await overview).params, { folder: demoFolder, runId: 1, method: 'loo' });
    const params = await pageRequest;
    assert.deepEqual(params.filter, { flag: 'any' });
    assert.deepEqual(params.sort, { key: 'step', descending: true });
    await waitForStatus(page, 'flagged');
    assert.equal(await page.locator('[aria-sort=descending] #sort-step').count(), 1);
    await close(o);
  });

  test('choosing another run asks for its overview and episodes; an empty run shows empty charts', async () => {
    const o = await open();
    const { page } = o.h;
    const overview = nextPosted(o.h, (m) => GetOverviewRequest.is(m) && m.params.runId === 2);
    const episodes = nextEpisodesRequest(o.h, (p) => p.runId === 2);
    await choose(page, '#run-select', 'routed-experts');
    await overview;
    assert.equal((await episodes).offset, 0);
    await waitForStatus(page, /^0 episodes$/);
    await page.locator('.grid-message', { hasText: 'No episodes match the filters.' }).waitFor();
    await page.locator('#figure-reward .chart-caption', { hasText: 'No team reward logged' }).waitFor();
    assert.equal(await page.locator('.dashboard-title').innerText(), 'planner-solver-verifier · routed-experts');
    assert.equal((await savedState(o.h))['runId'], 2);
    await close(o);
  });

  test('the UI state comes back after a reload', async () => {
    const o = await open();
    const { page } = o.h;
    await choose(page, '#method-select', 'Shapley (exact)');
    await page.locator('#mode-lines').click();
    await choose(page, '#filter-agent', 'solver');
    await waitForStatus(page, 'agent: solver');
    await page.locator('#sort-messages').click();
    await page.locator('[aria-sort=ascending] #sort-messages').waitFor();
    await page.locator('#episode-grid .viewport').evaluate((e) => {
      e.scrollTop = 500 * 24;
    });
    await page.waitForFunction(
      () => (JSON.parse(sessionStorage.getItem('vscode-state') ?? '{}') as { topRow?: number }).topRow === 500,
    );
    const ready = nextPosted(o.h, (m) => DashboardReadyCommand.is(m));
    const overview = nextPosted(o.h, (m) => GetOverviewRequest.is(m));
    const firstPage = nextEpisodesRequest(o.h);
    await o.h.reload();
    assert.deepEqual((await ready).params, { stateVersion: 1, folder: demoFolder });
    assert.equal((await overview).params.method, 'shapley');
    const params = await firstPage;
    assert.deepEqual(params.filter, { agent: 'solver' });
    assert.deepEqual(params.sort, { key: 'messages', descending: false });
    assert.equal(params.offset, 500, 'the page of the saved top row is fetched first');
    await page.locator('#episode-grid .row[aria-rowindex="502"]:not(.loading)').waitFor();
    assert.equal(await page.locator('#mode-lines').getAttribute('aria-pressed'), 'true');
    await page.locator('#chart-share path.series').nth(2).waitFor();
    assert.equal(await valueOf(page.locator('#filter-agent')), '=solver');
    assert.ok(episodesParams(o.h).length > 0);
    await close(o);
  });

  test('trace text with markup is shown literally and never runs', async () => {
    const img = '<img src=x onerror="window.__xss=1">';
    const script = '<script>window.__xss=1</script>';
    const o = await open({
      shape: {
        agents: [`planner${img}`, script, 'verifier'],
        groupPrefix: img,
        idPrefix: script,
        folderName: img,
        runName: script,
        episodes: 600,
      },
    });
    const { page } = o.h;
    await tableRows(page).first().waitFor();
    assert.equal(await page.locator('.dashboard-title').innerText(), `${img} · ${script}`);
    assert.deepEqual(await page.locator('#figure-share .legend li').allInnerTexts(), [
      `planner${img}`,
      script,
      'verifier',
    ]);
    assert.equal(await page.locator('#chart-heatmap .row-label title').first().textContent(), `planner${img}`);
    assert.equal(await page.locator('#episode-grid .row[aria-rowindex="2"] .col-id').innerText(), `${script}0-0`);
    assert.equal(await page.locator('#episode-grid .row[aria-rowindex="2"] .col-group').innerText(), `${img}0-0`);
    assert.match(
      (await page.locator('#chart-share .window-label text').first().textContent()) ?? '',
      /decoupling · verifier/,
    );
    assert.equal(await page.locator('#filter-agent vscode-option', { hasText: script }).count(), 1);
    assert.equal(await page.evaluate(() => (window as { __xss?: unknown }).__xss), undefined);
    assert.equal(await page.locator('#app img, #app script, #app [onerror]').count(), 0);
    await close(o);
  });

  test('thousands of steps stay readable: binned heatmap columns and thinned axis ticks', async () => {
    const o = await open({ shape: { steps: 2400, episodes: 4800 } });
    const { page } = o.h;
    await page.locator('#chart-heatmap rect.cell').first().waitFor();
    const columns = (await page.locator('#chart-heatmap rect.cell').count()) / 3;
    const width = (await page.locator('#chart-heatmap').boundingBox())?.width ?? 0;
    assert.ok(columns <= width / 2 && columns >= 100, `${String(columns)} columns for ${String(width)} px`);
    for (const id of ['share', 'heatmap'])
      assert.ok((await page.locator(`#chart-${id} .axis-x .tick`).count()) <= 16, `${id} ticks thinned`);
    await close(o);
  });

  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    test(`screenshot in the ${theme} theme`, async () => {
      const o = await open({ theme });
      await tableRows(o.h.page).first().waitFor();
      await o.h.page.keyboard.press('j');
      await o.h.page.keyboard.press('j');
      await o.h.page.locator('#episode-grid .row.focused').waitFor();
      await o.h.screenshot(`dashboard-${theme}`);
      await close(o);
    });
  }
});
