// The e2e steps of the workbench and the run folder (test/e2e/extension.e2e.ts a–e, j, u): activation,
// "Index Run Folder" in the Runs view, "Run Audit" in the Problems panel, the live tail in the status
// bar, the Run Summary, the one index every command used, and the upgrade of an older index.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../../src/store/database';
import { schemaVersion, schemaVersionOf } from '../../../src/store/migrate';
import { revertTo11 } from '../../unit/store/demoIndex';
import { appendCopiedEpisodes } from './appendEpisodes';
import { waitFor, type CodeServer } from './workbench';

/** a. The workbench loads; opening the Credit Lens container activates the extension without errors. */
export async function extensionActivates(cs: CodeServer): Promise<void> {
  const { page } = cs;
  await page.goto(cs.url);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  // Activation is lazy (onView / onCommand): opening the Credit Lens container activates it.
  const container = page.locator('.activitybar .action-item a[aria-label^="Credit Lens"]').first();
  await container.waitFor({ timeout: 60_000 });
  await container.click();
  await waitFor(
    () => /ExtensionService#_doActivateExtension credit-lens\.credit-lens\b/.test(cs.exthostLogs().host),
    60_000,
    'the activation line in remoteexthost.log',
  );
  await page.waitForTimeout(1000);
  const { host, channel } = cs.exthostLogs();
  assert.doesNotMatch(host, /Activating extension '?credit-lens\.credit-lens'? failed/);
  const ours = host.split('\n').filter((line) => /^\s+at .*credit-lens\.credit-lens-/.test(line));
  assert.deepEqual(ours, [], 'stack frames from our extension in remoteexthost.log');
  assert.doesNotMatch(channel, /\[error\]/, 'errors in the Credit Lens log channel');
  // Which SQLite binding the extension host opened (run.mjs expects node:sqlite on Node ≥ 22).
  await waitFor(
    () => /SQLite driver: /.test(cs.exthostLogs().channel),
    10_000,
    'the SQLite driver line in the Credit Lens log',
  );
  const driver = /SQLite driver: (\S+)/.exec(cs.exthostLogs().channel)?.[1];
  if (cs.expectedDriver) assert.equal(driver, cs.expectedDriver, 'the SQLite driver the extension opened');
}

/** b. "Index Run Folder" re-indexes demo-run (no second index at the root); the Runs view lists both runs. */
export async function runsListed(cs: CodeServer): Promise<void> {
  await cs.runsView().waitFor({ timeout: 30_000 });
  await cs.runCommand('Credit Lens: Index Run Folder');
  // The index the CLI wrote in demo-run/.credit-lens/ is the only one: the command re-indexes
  // demo-run without a pick, and builds no second index at the workspace root.
  await cs.page
    .locator('.notifications-toasts, .notification-toast', { hasText: /Indexed \d/ })
    .first()
    .waitFor({ timeout: 90_000 });
  assert.equal(existsSync(join(cs.workspace, '.credit-lens')), false, 'an index was built at the workspace root');
  const rows = cs.runsView().locator('.monaco-list-row');
  await rows.filter({ hasText: 'planner-solver-verifier' }).first().waitFor({ timeout: 30_000 });
  await rows.filter({ hasText: 'routed-experts' }).first().waitFor({ timeout: 30_000 });
}

/** c. "Run Audit" puts the verifier's free-rider warning in the Problems panel, under its step file. */
export async function auditInProblems(cs: CodeServer): Promise<void> {
  await cs.runCommand('Credit Lens: Run Audit');
  await cs.page
    .locator('.notifications-toasts, .notification-toast', { hasText: /Audit of \d+ runs?/ })
    .first()
    .waitFor({ timeout: 120_000 });
  await cs.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
  const markers = cs.page.locator('.markers-panel');
  await markers.waitFor({ timeout: 30_000 });
  const row = markers.locator('.monaco-list-row', { hasText: /free-rider: verifier is idle/ }).first();
  await row.waitFor({ timeout: 30_000 });
  assert.equal(await row.locator('.codicon-warning').count(), 1, 'the free-rider marker is a warning');
  // The resource row above the marker (rows are absolutely positioned: order them by data-index)
  // names the step file the flag points at.
  const rows = await markers
    .locator('.monaco-list-row')
    .evaluateAll((elements) =>
      elements
        .map((e) => ({ index: Number(e.getAttribute('data-index')), text: e.textContent ?? '' }))
        .sort((a, b) => a.index - b.index),
    );
  const at = rows.findIndex((r) => r.text.includes('free-rider: verifier'));
  const resource = rows
    .slice(0, at)
    .reverse()
    .find((r) => /\.jsonl/.test(r.text));
  assert.match(
    resource?.text ?? '',
    /step_00\d\d\.jsonl\s*demo-run\/planner-solver-verifier\/rollouts/,
    JSON.stringify(rows),
  );
}

/** d. 3 episodes appended to the last step file reach the status bar within 10 s; `diagnostic` gets the timing. */
export async function liveTailPicksUpAppends(cs: CodeServer, diagnostic: (text: string) => void): Promise<void> {
  const before = await cs.statusBarEpisodes();
  const t0 = Date.now();
  const last = appendCopiedEpisodes(cs.runDir, 3, 'e2e-appended');
  const deadline = t0 + 10_000;
  let now = before;
  while (now !== before + 3) {
    if (Date.now() > deadline) break;
    await cs.page.waitForTimeout(250);
    now = await cs.statusBarEpisodes();
  }
  assert.equal(now, before + 3, `status bar episodes ${before} → ${now} within 10 s`);
  diagnostic(`live tail: ${before} → ${now} episodes ${Date.now() - t0} ms after the append to ${last}`);
}

/** e. "Show Run Summary" opens the webview naming both runs. */
export async function summaryNamesRuns(cs: CodeServer): Promise<void> {
  await cs.runCommand('Credit Lens: Show Run Summary');
  const webview = cs.activeWebview();
  await webview.locator('body', { hasText: 'planner-solver-verifier' }).waitFor({ timeout: 60_000 });
  await webview.locator('body', { hasText: 'routed-experts' }).waitFor({ timeout: 30_000 });
}

/** j. Every command used the index in demo-run: none was built at the workspace root. */
export function oneIndexOnly(cs: CodeServer): void {
  assert.equal(existsSync(join(cs.workspace, 'demo-run', '.credit-lens', 'index.sqlite')), true);
  assert.equal(existsSync(join(cs.workspace, '.credit-lens')), false, 'a second index at the workspace root');
}

/**
 * u. An index an older Credit Lens wrote is upgraded, not shown as "no index yet": demo-run's index
 * is taken back to schema 11 (without the `flag_episode` table the Runs view reads), the window
 * reloads, and the extension runs one indexing pass on it. The log says so, the Runs view lists
 * both runs again, and the index is at the current schema. Last in the suite: the reload and the
 * rewritten index would touch every step after it.
 */
export async function olderIndexUpgraded(cs: CodeServer): Promise<void> {
  const indexPath = join(cs.workspace, 'demo-run', '.credit-lens', 'index.sqlite');
  const writer = openDatabase(indexPath);
  try {
    revertTo11(writer);
  } finally {
    writer.close();
  }
  await cs.reloadWindow();
  // The workbench restores the side bar a moment after the reload: clicking the Credit Lens container
  // before then (chooseRunFolder does when the Runs view is not visible yet) closed it again.
  await cs
    .runsView()
    .waitFor({ timeout: 20_000 })
    .catch(() => undefined);
  await cs.chooseRunFolder('demo-run');
  const rows = cs.runsView().locator('.monaco-list-row');
  // With three folders indexed, the runs are children of the folder's row.
  const folder = rows.filter({ hasText: /^demo-run/ }).first();
  if ((await folder.getAttribute('aria-expanded')) === 'false') await folder.locator('.monaco-tl-twistie').click();
  await rows.filter({ hasText: 'planner-solver-verifier' }).first().waitFor({ timeout: 90_000 });
  await rows.filter({ hasText: 'routed-experts' }).first().waitFor({ timeout: 30_000 });
  await waitFor(
    () => /Upgrading the index of \S*demo-run/.test(cs.exthostLogs().channel),
    30_000,
    'the upgrade line in the Credit Lens log',
  );
  const reader = openDatabase(indexPath, { readonly: true });
  try {
    assert.equal(schemaVersionOf(reader), schemaVersion);
  } finally {
    reader.close();
  }
}
