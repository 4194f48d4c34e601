// Issue 18 part 2, the e2e step of the episode diff: on the demo's pipeline run, rollout s1-g0-r0
// of GRPO group s1-g0 opens in the Episode view, its "Diff with…" offers the group's other
// rollouts, and s1-g0-r1 opens beside it: both sides, the rewards of the index, the aligned rows and
// at least one marked word difference show. Wired in extension.e2e.ts as the last test.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openDatabase } from '../../../src/store/database';
import { formatNumber } from '../../../webview/src/kit/format';
import { clickQuickPickRow, type CodeServer } from './workbench';

const run = 'planner-solver-verifier';
const group = 's1-g0';
const [a, b] = ['s1-g0-r0', 's1-g0-r1'] as const;

/** The two rollouts' rewards and message counts in the index (they must exist: the demo writes them). */
function rolloutsInIndex(indexPath: string): Map<string, { reward: number | null; messages: number }> {
  const db = openDatabase(indexPath, { readonly: true });
  try {
    const rows = db
      .prepare<{ id: string; reward: number | null; messages: number }>(
        `SELECT e.external_id AS id, e.outcome AS reward, e.n_messages AS messages
         FROM episode e JOIN run r ON r.run_id = e.run_id
         WHERE r.name = ? AND e.group_id = ? AND e.external_id IN (?, ?)`,
      )
      .all(run, group, a, b);
    return new Map(rows.map((r) => [r.id, { reward: r.reward, messages: r.messages }]));
  } finally {
    db.close();
  }
}

/** Opens s1-g0-r0, diffs it with s1-g0-r1 through "Diff with…", and checks what the diff panel shows. */
export async function episodeDiffStep(cs: CodeServer): Promise<void> {
  const indexPath = join(cs.workspace, 'demo-run', '.credit-lens', 'index.sqlite');
  const inIndex = rolloutsInIndex(indexPath);
  const left = inIndex.get(a);
  const right = inIndex.get(b);
  assert.ok(left && right, `the demo's ${run} has rollouts ${a} and ${b} of group ${group}`);
  await cs.runCommand('View: Close All Editors');
  // The tests before index other folders of the workspace: make the demo's folder current again,
  // so "Open Episode by Id…" looks in its index.
  await cs.chooseRunFolder('demo-run');
  await cs.openPipelineEpisode(a);
  await cs.activeWebview().locator('.diff-link button').click();
  // The quick pick offers the group's other rollouts first.
  const rows = cs.page.locator('.quick-input-list .monaco-list-row');
  await rows.first().waitFor({ timeout: 15_000 });
  const labels = await rows.locator('.label-name').allTextContents();
  assert.ok(labels.includes(b), `the other rollouts are offered: ${labels.join(', ')}`);
  assert.ok(!labels.includes(a), 'not the episode itself');
  await clickQuickPickRow(
    cs.page,
    rows.filter({ has: cs.page.locator('.label-name', { hasText: new RegExp(`^${b}$`) }) }).first(),
  );
  const view = cs.activeWebview();
  await view.locator('.diff-rows').waitFor({ timeout: 60_000 });
  assert.equal(await view.locator('h1').textContent(), `Diff: ${a} ↔ ${b}`);
  assert.deepEqual(await view.locator('.side-card h2').allTextContents(), [`A · Episode ${a}`, `B · Episode ${b}`]);
  const rewards = await view.locator('.reward-row td').allTextContents();
  assert.deepEqual(
    rewards.slice(0, 2),
    [formatNumber(left.reward), formatNumber(right.reward)],
    'the rewards of the index',
  );
  const aligned = await view.locator('.diff-row').count();
  assert.ok(aligned >= Math.max(left.messages, right.messages), `${String(aligned)} aligned rows`);
  // Texts load as rows come into view; with the Chat and Problems panels open (4.139.1) the rows
  // start below the fold, so bring the first one into view as a reader would scroll to it.
  await view.locator('.diff-row').first().scrollIntoViewIfNeeded();
  await view.locator('.diff-row .text:not(.is-loading)').first().waitFor({ timeout: 30_000 });
  await view.locator('mark.changed').first().waitFor({ timeout: 30_000 });
  assert.ok((await view.locator('mark.changed').count()) >= 1, 'at least one marked difference');
  assert.match((await view.locator('.counts').textContent()) ?? '', /^\d+ paired \([1-9]\d* with changed text\)/);
  await cs.screenshot('diff-episodes');
}
