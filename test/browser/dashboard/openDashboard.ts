import assert from 'node:assert/strict';
import { GetEpisodesRequest, maxEpisodePage, type RunOverview } from '../../../src/protocol/dashboardPanel';
import type { ViewMethod } from '../../../src/protocol/viewData';
import type { HarnessBrowser, WebviewHarness } from '../harness/harness';
import type { HarnessTheme } from '../harness/server';
import { dashboardEntry, dashboardHost, waitForStatus, type DashboardHost } from './dashboardHost';
import { scriptedRun, type RunShape, type ScriptedRun } from './scriptedRun';

/** An open dashboard page, its scripted host and the run it shows. */
export interface Opened {
  readonly h: WebviewHarness;
  readonly host: DashboardHost;
  readonly run: ScriptedRun;
}

export interface OpenOptions {
  readonly theme?: HarnessTheme;
  readonly shape?: RunShape;
  /** Rewrites every overview the scripted run answers (e.g. to draw particular cells). */
  readonly overview?: (overview: RunOverview) => RunOverview;
}

/** Opens the dashboard on a scripted run and waits for the table status and the reward chart. */
export async function openDashboard(browser: HarnessBrowser, options: OpenOptions = {}): Promise<Opened> {
  const scripted = scriptedRun(options.shape);
  const rewrite = options.overview;
  const run = rewrite
    ? { ...scripted, overview: (method: ViewMethod) => rewrite(scripted.overview(method)) }
    : scripted;
  const host = dashboardHost(run);
  const h = await browser.open({
    entry: dashboardEntry,
    host: host.host,
    theme: options.theme,
    viewport: { width: 1360, height: 1000 },
  });
  await waitForStatus(h.page, /\d episodes?/);
  await h.page.locator('#chart-reward path.series').waitFor();
  return { h, host, run };
}

/** Closes the page; every table request stayed within the page limit and passed the protocol guards. */
export async function closeDashboard({ h, host }: Opened): Promise<void> {
  for (const m of h.posted.filter((p) => GetEpisodesRequest.is(p))) assert.ok(m.params.limit <= maxEpisodePage);
  await h.close();
  assert.deepEqual(host.invalid, [], 'every message passed the protocol guards');
}
