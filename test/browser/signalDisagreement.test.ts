// Issue 18 part 3: the Run Dashboard's "Signal disagreement" chart (credit-methods.md §3.18), drawn
// from the demo's real stored counts (generated, indexed and audited here), in three themes, with
// its table, its empty state and markup in agent names. With CREDIT_LENS_WRITE_FIGURES=1 the light
// theme's figure is also written to docs/images/signal-disagreement.png (the README's figure).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, test } from 'node:test';
import type { RunOverview, SignalDisagreementView } from '../../src/protocol/dashboardPanel';
import { writeDemoRun } from '../../src/demo/writeDemoRun';
import { runAudit } from '../../src/engine/audit/auditJob';
import { runIndexJob } from '../../src/engine/indexJob';
import { DashboardViewService } from '../../src/engine/views/dashboardViewService';
import { IndexStore } from '../../src/store/indexStore';
import { tempFolder } from '../builders/episodeBuilder';
import { closeDashboard, openDashboard } from './dashboard/openDashboard';
import { browserSuite } from './harness/suite';

const suite = browserSuite();
const browser = suite.browser;
const figurePath = resolve(import.meta.dirname, '..', '..', 'docs', 'images', 'signal-disagreement.png');

/** The demo's overview of planner-solver-verifier under loo, as the host would answer it (run id 1, as scripted). */
let demo: RunOverview;

before(async () => {
  const root = tempFolder();
  writeDemoRun(root, { episodes: 1280, routed: false });
  await runIndexJob({ root, search: false });
  await runAudit({ root, readText: false });
  const store = IndexStore.open(join(root, '.credit-lens', 'index.sqlite'));
  try {
    const service = new DashboardViewService(store.db, root);
    const run = service.runs().find((r) => r.name === 'planner-solver-verifier');
    assert.ok(run);
    demo = { ...service.overview(run.runId, 'loo', 0.02), runId: 1 };
  } finally {
    store.close();
  }
});

const xss = '<img src=x onerror="window.__xss=1">';

/** A view of two agents named with markup: 50% wrong way at step 0, none at step 1. */
function markupView(agents: readonly string[]): SignalDisagreementView {
  const m = (values: (number | null)[]) => ({ rows: agents, cols: [0, 1], values });
  return {
    method: 'loo',
    wrongWay: m([0.5, 0, null, 0.25]),
    noPush: m([0.25, 1, null, 0]),
    sharedOnly: m([0.25, 1, null, 0]),
    rho: m([0.4, null, null, 0.9]),
    samples: m([4, 4, 0, 4]),
    excluded: { noGroup: 2, noCredit: 0, noReward: 0 },
    missing: null,
  };
}

suite.describe('Run Dashboard signal disagreement', () => {
  for (const theme of ['light', 'dark', 'high-contrast'] as const)
    test(`the demo's chart (${theme}): the verifier's line, ρ in the tooltips, the table, the free-rider window`, async () => {
      const opened = await openDashboard(browser, {
        theme,
        shape: { steps: 41, episodes: 1280 },
        overview: (o) => ({ ...demo, method: o.method }),
      });
      const { page } = opened.h;
      const figure = page.locator('#figure-signal');
      await figure.locator('path.series[data-key="verifier"]').waitFor();
      assert.equal(await figure.locator('path.series').count(), 3, 'one line per agent');
      const caption = await figure.locator('.chart-caption').innerText();
      assert.match(
        caption,
        /Pushed the wrong way by the shared reward, steps 1–10 → steps 31–40: .*verifier \d+% → 0%/,
      );
      // The free rider's story: pushed by the shared reward while its own advantage is 0, more and more.
      const alone = /Pushed by the shared reward alone \(own advantage 0\): .*verifier (\d+)% → (\d+)%/.exec(caption);
      assert.ok(alone, caption);
      assert.ok(
        Number(alone[2]) > Number(alone[1]),
        `the verifier is pushed by the shared reward alone more late: ${alone[0]}`,
      );
      const titles = await figure.locator('rect.hit title').allTextContents();
      assert.equal(titles.length, 40);
      assert.match(
        titles[0] ?? '',
        /^step 1: planner \d+% wrong way, ρ [\d.−-]+, n 32; solver 0% wrong way, ρ 1\.00, n 32/,
      );
      assert.match(titles[39] ?? '', /verifier 0% wrong way, ρ —, n 32$/, 'an idle verifier: no ρ, said so');
      assert.equal(
        (await figure.locator('.window-shade, rect.window').count()) > 0,
        true,
        'the audit window is shaded',
      );
      await figure.locator('details.signal-details summary').click();
      const firstRow = await figure.locator('.signal-table tbody tr').first().innerText();
      assert.match(firstRow, /^1\s+\d+% wrong way, \d+% no push \(\d+% shared reward alone\), ρ [\d.-]+, n 32/);
      assert.equal(await figure.locator('.signal-table tbody tr').count(), 40);
      await opened.h.screenshot(`dashboard-signal-${theme}`);
      if (theme === 'light' && process.env['CREDIT_LENS_WRITE_FIGURES'] === '1') {
        await figure.locator('details.signal-details summary').click();
        mkdirSync(resolve(figurePath, '..'), { recursive: true });
        await figure.screenshot({ path: figurePath });
      }
      await closeDashboard(opened);
    });

  test('before any credit: no chart, and the empty state says what would give it', async () => {
    const opened = await openDashboard(browser, {
      overview: (o) => ({
        ...o,
        signal: {
          ...markupView(['planner', 'solver']),
          missing:
            'No Leave-one-out credit is stored, so there is no marginal-contribution signal to compare with the shared reward: compute credit with `credit-lens credit <run-dir> --method loo` (or Recompute credit).',
        },
      }),
    });
    const figure = opened.h.page.locator('#figure-signal');
    await figure.waitFor();
    assert.match(
      await figure.locator('.chart-caption').innerText(),
      /compute credit with `credit-lens credit <run-dir> --method loo`/,
    );
    assert.equal(await figure.locator('.chart-body').isHidden(), true);
    assert.equal(await figure.locator('.signal-table').count(), 0);
    await closeDashboard(opened);
  });

  test('markup in agent names stays text in the legend, the tooltips and the table', async () => {
    const agents = [`planner ${xss}`, 'solver </script><script>window.__xss=1</script>'];
    const opened = await openDashboard(browser, {
      shape: { agents, steps: 2, episodes: 40 },
      overview: (o) => ({ ...o, signal: markupView(agents) }),
    });
    const { page } = opened.h;
    const figure = page.locator('#figure-signal');
    await figure.locator('path.series').first().waitFor();
    await figure.locator('details.signal-details summary').click();
    const heads = await figure.locator('.signal-table thead th').allInnerTexts();
    assert.deepEqual(heads.slice(1), agents);
    const cells = await figure.locator('.signal-table tbody td').allInnerTexts();
    assert.deepEqual(cells, [
      '50% wrong way, 25% no push (25% shared reward alone), ρ 0.40, n 4',
      'no samples',
      '0% wrong way, 100% no push (100% shared reward alone), ρ —, n 4',
      '25% wrong way, 0% no push (0% shared reward alone), ρ 0.90, n 4',
    ]);
    assert.match(await figure.locator('.chart-caption').innerText(), /Left out \(agent rows\): 2 without a GRPO group/);
    assert.ok((await figure.locator('rect.hit title').first().textContent())?.includes(xss));
    assert.equal(await page.evaluate(() => (window as { __xss?: unknown }).__xss), undefined, 'no script ran');
    assert.equal(await page.locator('#app img, #app script, #app [onerror]').count(), 0);
    await closeDashboard(opened);
  });
});
