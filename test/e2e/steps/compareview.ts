// Issue 18 part 1, e2e test t (test/e2e/extension.e2e.ts): from the palette, the Compare view
// compares the demo's shared-reward run (A) with its third run (B, `planner-solver-verifier-credit`,
// trained on a marginal-contribution signal), and the verifier's row shows a positive credit-share
// change and its free-rider flag gone (the demo's credit under the default method is stored by the
// earlier steps).
import assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { escapeRegExp } from './realDataChecks';
import type { CodeServer } from './workbench';

/** The demo's two runs: shared-reward training (A) and the run whose verifier keeps contributing (B). */
export const compareRuns = { a: 'planner-solver-verifier', b: 'planner-solver-verifier-credit' } as const;

/** Chooses `run` in the run dropdown of side `side` (options read `<run> (1,920 episodes, steps …)`). */
async function chooseRun(view: FrameLocator, side: 'a' | 'b', run: string): Promise<void> {
  const dropdown = view.locator(`.side-${side} .run-choice`);
  await dropdown.click();
  await dropdown
    .locator('vscode-option', { hasText: new RegExp(`^${escapeRegExp(run)} \\(`) })
    .first()
    .click();
}

/**
 * Opens "Credit Lens: Compare Runs…", compares A = {@link compareRuns}.a with B = .b under the
 * default method, and asserts the verifier: a positive share change in its row, "free-rider
 * disappeared" in its flags cell and in the flags table; screenshot `i18-compare-view`.
 */
export async function compareViewStep(cs: CodeServer): Promise<void> {
  await cs.runCommand('View: Close All Editors');
  await cs.chooseRunFolder('demo-run');
  await cs.runCommand('Credit Lens: Compare Runs…', 60_000, { exact: true });
  const view = cs.activeWebview();
  await view.locator('.compare-picker').waitFor({ timeout: 60_000 });
  await chooseRun(view, 'a', compareRuns.a);
  await chooseRun(view, 'b', compareRuns.b);
  await view.locator('.compare-button').click();
  const agents = view.locator('table.compare-agents');
  await agents.waitFor({ timeout: 60_000 });
  const verifier = agents.locator('tr.agent-row', { has: view.locator('th', { hasText: /^verifier$/ }) });
  assert.equal(await verifier.count(), 1, 'one row for the verifier');
  const change = (await verifier.locator('.share-change').textContent()) ?? '';
  assert.match(
    change,
    /^\+\d+\.\d pp \[\+\d+\.\d, \+\d+\.\d\] pp$/,
    `the verifier's share rises from A to B, its 95% interval above 0: ${change}`,
  );
  assert.match((await verifier.locator('.flag-changes').textContent()) ?? '', /free-rider disappeared/);
  const flag = view.locator('table.compare-flags tr.flag-change', {
    has: view.locator('td.agent-name', { hasText: /^verifier$/ }),
  });
  assert.deepEqual((await flag.filter({ hasText: 'free-rider' }).first().locator('td').allTextContents()).slice(1, 3), [
    'free-rider',
    'disappeared',
  ]);
  await cs.screenshot('i18-compare-view');
}
