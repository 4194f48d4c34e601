import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DidChangeRunsNotification,
  GetOverviewDeltaRequest,
  GetOverviewRequest,
  type Matrix,
  type OverviewDelta,
} from '../../src/protocol/dashboardPanel';
import { nextPosted, scriptedWatermark } from './dashboard/dashboardHost';
import { closeDashboard as close, openDashboard } from './dashboard/openDashboard';
import { demoFolder } from './dashboard/scriptedRun';
import { browserSuite } from './harness/suite';

// The Run Dashboard under live tail: a revision that only appended episodes is merged from a delta.

const suite = browserSuite();
const open = () => openDashboard(suite.browser);

suite.describe('Run Dashboard webview, live tail', () => {
  test('a live-tail revision (same resetRevision) asks only for the changed steps and draws the new points', async () => {
    const o = await open();
    const { page } = o.h;
    const full = o.run.overview('loo');
    const last = full.steps.length - 1;
    const column = (m: Matrix<string, number>, value: (v: number | null) => number | null): Matrix<string, number> => ({
      rows: m.rows,
      cols: [60],
      values: m.rows.map((_, r) => value(m.values[r * m.cols.length + last] ?? null)),
    });
    const delta: OverviewDelta = {
      runId: 1,
      method: 'loo',
      status: full.status,
      coverage: full.coverage,
      watermark: scriptedWatermark + 4,
      recomputed: [60],
      columns: {
        steps: [60],
        teamReward: [0.99],
        episodes: [4],
        creditShare: column(full.creditShare, (v) => v),
        meanCredit: column(full.meanCredit, (v) => v),
        idleRate: column(full.idleRate, (v) => v),
        flagCounts: column(full.flagCounts, () => 0),
      },
    };
    o.host.delta = delta;
    const asked = nextPosted(o.h, (m) => GetOverviewDeltaRequest.is(m));
    const before = o.h.posted.length;
    o.host.runs = { ...o.host.runs, revision: 2, resetRevision: 1 };
    await o.h.notify(DidChangeRunsNotification, o.host.runs);
    assert.deepEqual((await asked).params, { folder: demoFolder, runId: 1, method: 'loo', after: scriptedWatermark });
    await page.locator('#figure-reward .chart-caption', { hasText: '→ 0.990 at step 60' }).waitFor();
    assert.equal(await page.locator('#chart-heatmap rect.cell').count(), 3 * 61);
    assert.equal(
      o.h.posted.slice(before).filter((m) => GetOverviewRequest.is(m)).length,
      0,
      'the whole overview is not fetched again',
    );
    // A second delta applies after the first; a reset revision fetches the whole overview again.
    o.host.delta = { ...delta, watermark: scriptedWatermark + 8, columns: { ...delta.columns, teamReward: [0.5] } };
    const again = nextPosted(o.h, (m) => GetOverviewDeltaRequest.is(m));
    o.host.runs = { ...o.host.runs, revision: 3, resetRevision: 1 };
    await o.h.notify(DidChangeRunsNotification, o.host.runs);
    assert.equal((await again).params.after, scriptedWatermark + 4);
    await page.locator('#figure-reward .chart-caption', { hasText: '→ 0.500 at step 60' }).waitFor();
    const whole = nextPosted(o.h, (m) => GetOverviewRequest.is(m));
    o.host.runs = { ...o.host.runs, revision: 4, resetRevision: 4 };
    await o.h.notify(DidChangeRunsNotification, o.host.runs);
    await whole;
    await page.locator('#figure-reward .chart-caption', { hasText: 'at step 59' }).waitFor();
    await close(o);
  });
});
