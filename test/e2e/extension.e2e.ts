// End-to-end tests of the extension in a real code-server, driven by Chromium (docs/e2e.md).
// Run through `node scripts/e2e/run.mjs`, which starts code-server and passes E2E_* variables.
// The tests share one page and run in order: each builds on the state the previous one left. This
// file is their ordered list; each test's body is a step of test/e2e/steps/ (grouped by view), run
// on the one workbench of steps/workbench.ts.
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bothViewsInLight } from './steps/colour';
import { openEpisodeBySuggestion } from './steps/copy';
import { dashboardShowsCollapse } from './steps/dashboard';
import { compareViewStep } from './steps/compareview';
import { episodeDiffStep } from './steps/diff';
import { episodePrompt, indexAndCredit, realRuns, steplessDashboard } from './steps/e2ereal';
import { episodeRestored, flaggedEpisodeTinted, replayRecompute } from './steps/episode';
import { failedEpisode, firstErrorStep } from './steps/firsterr';
import { groupViewStep } from './steps/groupview';
import { influenceLiveStep } from './steps/influencelive';
import { lmToolsAnswer } from './steps/lmTools';
import {
  auditInProblems,
  extensionActivates,
  liveTailPicksUpAppends,
  olderIndexUpgraded,
  oneIndexOnly,
  runsListed,
  summaryNamesRuns,
} from './steps/runsTree';
import { traceTableShown } from './steps/traceTable';
import { CodeServer } from './steps/workbench';

const cs = new CodeServer();

describe('Credit Lens in code-server', { concurrency: false }, () => {
  before(() => cs.launch());

  // The browser is unset when the launch failed: the teardown must not throw over the launch's reason.
  after(() => cs.close());

  test('a. the workbench loads and the extension activates without errors', { timeout: 120_000 }, () =>
    cs.step('a-activated', () => extensionActivates(cs)),
  );

  test('b. the Runs view lists both runs after "Index Run Folder"', { timeout: 150_000 }, () =>
    cs.step('b-runs', () => runsListed(cs)),
  );

  test('c. "Run Audit" puts the verifier free-rider warning in the Problems panel', { timeout: 150_000 }, () =>
    cs.step('c-problems', () => auditInProblems(cs)),
  );

  test('d. appending 3 episodes is picked up by the live tail within 10 s', { timeout: 90_000 }, (t) =>
    cs.step('d-live-tail', () => liveTailPicksUpAppends(cs, (text) => t.diagnostic(text))),
  );

  test('e. "Show Run Summary" opens the webview with the run names', { timeout: 120_000 }, () =>
    cs.step('e-summary', () => summaryNamesRuns(cs)),
  );
  test('e2. a GRPO group opens from the Runs view with the rollouts of the index', { timeout: 120_000 }, () =>
    cs.step('e2-group-view', () =>
      groupViewStep({
        page: cs.page,
        runsView: cs.runsView,
        webview: cs.activeWebview,
        runCommand: cs.runCommand,
        screenshot: cs.screenshot,
        indexPath: join(cs.workspace, 'demo-run', '.credit-lens', 'index.sqlite'),
        run: 'planner-solver-verifier',
        step: 3,
        group: 's3-g1',
      }),
    ),
  );

  test(
    'e3. "Credit Table from the Trace Files…" shows the CLI\'s LOO table in a read-only editor',
    { timeout: 150_000 },
    () => cs.step('e3-trace-table', () => traceTableShown(cs)),
  );
  test(
    'f. the Run Dashboard shows the verifier’s credit share collapsing over the flagged steps',
    { timeout: 240_000 },
    () => cs.step('f-dashboard-dark', () => dashboardShowsCollapse(cs)),
  );

  test('f3. the dashboard influence graph takes in episodes appended by the live tail', { timeout: 90_000 }, () =>
    cs.step('f3-influence-live', () =>
      influenceLiveStep({ webview: cs.activeWebview, runDir: cs.runDir, screenshot: cs.screenshot }),
    ),
  );

  test(
    'g. a flagged episode is tinted by credit: the verifier near zero under loo, not under shared',
    { timeout: 120_000 },
    () => cs.step('g-episode-dark', () => flaggedEpisodeTinted(cs)),
  );

  test('g2. "Open Episode by Id…" suggests ids from the index as one types', { timeout: 90_000 }, () =>
    cs.step('g2-open-by-id', async () => {
      await cs.runCommand('View: Close All Editors');
      await openEpisodeBySuggestion({
        page: cs.page,
        webview: cs.activeWebview,
        runCommand: cs.runCommand,
        screenshot: cs.screenshot,
        prefix: 's1-g0-r',
        pick: 's1-g0-r1',
        run: 'planner-solver-verifier',
      });
    }),
  );

  test('h. after a reload the Episode panel comes back on the same episode', { timeout: 120_000 }, () =>
    cs.step('h-restored', () => episodeRestored(cs)),
  );

  test(
    'h2. a failed episode under prefix credit says whether a first error is named, and marks it',
    { timeout: 120_000 },
    () =>
      cs.step('h2-first-error', async () => {
        await cs.runCommand('View: Close All Editors');
        const indexPath = join(cs.workspace, 'demo-run', '.credit-lens', 'index.sqlite');
        // A failed episode: the demo's prefix values are all 0 there, so none is named, and the view says why.
        await cs.openPipelineEpisode(failedEpisode(indexPath, 'planner-solver-verifier'));
        await firstErrorStep({ webview: cs.activeWebview, screenshot: cs.screenshot, expected: 'none' });
      }),
  );

  test('i. both views in the light theme', { timeout: 180_000 }, () => bothViewsInLight(cs));

  test('j. every command used the index in demo-run: none was built at the workspace root', () => {
    oneIndexOnly(cs);
  });

  test(
    'k. Recompute with replay on the local demo model server: confirmed, then provenance "replayed"',
    { timeout: 180_000 },
    () => replayRecompute(cs),
  );
  // Issue 16 on real third-party data (copied into the workspace by run.mjs): step-less runs
  // indexed and credited through the extension's commands, then their dashboard and an episode.
  const [tauBench, whoAndWhen] = realRuns(cs.workspace);
  for (const [[index, dashboard, episode], run] of [
    [['l', 'm', 'n'], tauBench],
    [['o', 'p', 'q'], whoAndWhen],
  ] as const) {
    test(
      `${index}. ${run.name}: indexed from the Explorer, LOO not identifiable, Shared computed`,
      { timeout: 150_000 },
      async () => {
        await cs.step(`${index}-${run.name}-indexed`, () => indexAndCredit(cs, run));
      },
    );
    test(
      `${dashboard}. ${run.name}: the step-less dashboard's agent table, histograms and agent-credit sort`,
      { timeout: 150_000 },
      () => steplessDashboard(cs, run),
    );
    test(`${episode}. ${run.name}: the Episode view shows the prompt`, { timeout: 90_000 }, () =>
      episodePrompt(cs, run),
    );
  }

  test(
    'r. the language-model tools answer the free-rider question through vscode.lm.invokeTool',
    { timeout: 120_000 },
    () => cs.step('r-lm-tools', () => lmToolsAnswer(cs)),
  );

  test(
    's. "Diff with…" puts rollout s1-g0-r0 beside s1-g0-r1: both sides and a marked difference',
    { timeout: 120_000 },
    () => cs.step('s-diff-episodes', () => episodeDiffStep(cs)),
  );

  test(
    "t. the Compare view: the verifier's credit share rises and its free-rider flag disappears with the credit-signal run",
    { timeout: 120_000 },
    () => cs.step('t-compare-view', () => compareViewStep(cs)),
  );

  test(
    'u. an index an older Credit Lens wrote is upgraded after a reload: the Runs view lists its runs again',
    { timeout: 180_000 },
    () => cs.step('u-older-index', () => olderIndexUpgraded(cs)),
  );
});
