// The e2e step of "Credit Lens: Credit Table from the Trace Files…" (test/e2e/extension.e2e.ts e3):
// the table `credit-lens table` prints, computed by the extension from the trace files of the
// current run folder and shown in a read-only editor, checked against the CLI's own text.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { clickQuickPickRow, type CodeServer } from './workbench';

/** Spaces as Monaco renders them (non-breaking) and runs of them collapsed, for comparing text. */
const squash = (text: string): string => text.replace(/[\s\u00a0]+/g, ' ').trim();

/** The agent rows of `credit-lens table <folder> --method loo`: the lines the editor must show. */
function cliAgentRows(repo: string, folder: string): string[] {
  const out = spawnSync(process.execPath, [join(repo, 'dist/cli.js'), 'table', folder, '--method', 'loo'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(
    out.status,
    0,
    `credit-lens table: status ${out.status}, signal ${out.signal}: ${out.stderr}${out.stdout}`,
  );
  const rows = out.stdout.split('\n').filter((line) => /^\s+(planner|solver|verifier)\s+\d/.test(line));
  assert.ok(rows.length >= 3, `agent rows of the CLI's table: ${out.stdout}`);
  return rows;
}

/** e3. The command on the current run folder (demo-run): LOO, the CLI's agent rows in a read-only editor tab. */
export async function traceTableShown(cs: CodeServer): Promise<void> {
  const { page } = cs;
  await cs.runCommand('View: Close All Editors');
  await cs.runCommand('Credit Lens: Credit Table from the Trace Files…');
  const loo = page.locator('.quick-input-list .monaco-list-row', { hasText: /^LOO/ }).first();
  await loo.waitFor({ timeout: 30_000 });
  await clickQuickPickRow(page, loo);
  const tab = page.locator('.tabs-container .tab', { hasText: 'LOO from the trace files' }).first();
  await tab.waitFor({ timeout: 90_000 });
  const lines = page.locator('.editor-instance .view-lines').first();
  await lines.waitFor({ timeout: 30_000 });
  const expected = cliAgentRows(cs.repo, join(cs.workspace, 'demo-run')).map(squash);
  const deadline = Date.now() + 30_000;
  let shown = '';
  for (;;) {
    shown = squash((await lines.textContent()) ?? '');
    if (expected.every((row) => shown.includes(row))) break;
    assert.ok(Date.now() < deadline, `the CLI's agent rows ${JSON.stringify(expected)} in the editor: ${shown}`);
    await page.waitForTimeout(250);
  }
  assert.match(shown, /no index written/);
  assert.match(shown, /planner-solver-verifier/);
  // Read-only: typing changes nothing.
  await lines.click();
  await page.keyboard.type('zzz');
  assert.doesNotMatch(squash((await lines.textContent()) ?? ''), /zzz/);
}
