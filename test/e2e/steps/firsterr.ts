// The e2e step of issue 17's first errors (credit-methods.md §3.13): a failed demo episode under
// prefix credit, computed from the Episode view. The lead calls it from test/e2e/extension.e2e.ts
// with the demo open, e.g.
//   await cs.runCommand('View: Close All Editors');
//   await cs.openPipelineEpisode('s18-g0-r1');
//   await firstErrorStep({ webview: cs.activeWebview, screenshot: cs.screenshot, expected: 'none' });
// The demo's failed episodes log every coalition value, and a failed team's sub-teams fail too, so
// all their prefix values are 0: prefix names no first error there, and the view says why. On data
// whose prefix values drop (replayed or logged), pass `expected: { message, agent }`.
import assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { openDatabase } from '../../../src/store/database';

/** A failed episode (team reward 0) of `run` in the index at `indexPath`, read with its own SQL. */
export function failedEpisode(indexPath: string, run: string): string {
  const db = openDatabase(indexPath, { readonly: true });
  try {
    const row = db
      .prepare<{ id: string }>(
        `SELECT e.external_id AS id FROM episode e JOIN run r ON r.run_id = e.run_id
         WHERE r.name = ? AND e.outcome = 0 ORDER BY e.train_step DESC, e.episode_id LIMIT 1`,
      )
      .get(run);
    assert.ok(row, `a failed episode in ${run}`);
    return row.id;
  } finally {
    db.close();
  }
}

export interface FirstErrorStepOptions {
  /** The active webview frame (extension.e2e.ts: `cs.activeWebview`). */
  readonly webview: () => FrameLocator;
  /** Saves a screenshot under `name` (extension.e2e.ts: `cs.screenshot`). */
  readonly screenshot: (name: string) => Promise<void>;
  /** `none`: no first error is named (the demo); else the message and agent it must name. */
  readonly expected: 'none' | { readonly message: number; readonly agent: string };
}

/**
 * With a failed episode open in the Episode view: chooses Prefix, recomputes it (the built-in
 * evaluator; the demo's logged values answer, so nothing is evaluated), then asserts the first
 * error's header line and its marks: one `✕` block whose label reads "first error", one row badge
 * and the header's jump — or, for `none`, the header's "none named" with its reason and no mark at
 * all. Saves `i17-first-error.png`.
 */
export async function firstErrorStep(o: FirstErrorStepOptions): Promise<void> {
  const view = o.webview();
  await view.locator('.swimlanes .lane-block').first().waitFor({ timeout: 30_000 });
  const reward = await view.locator('.facts .fact').filter({ hasText: 'Reward' }).locator('dd').innerText();
  assert.equal(Number(reward.trim()), 0, `a failed episode (reward ${reward})`);
  await view.locator('vscode-dropdown.method-switch').click();
  await view.locator('vscode-option[value="prefix"]').click();
  await view.locator('.recompute-button').click();
  const result = view.locator('.recompute-result', { hasText: /^(Recomputed|Recompute failed)/ });
  await result.waitFor({ timeout: 120_000 });
  assert.match((await result.textContent()) ?? '', /^Recomputed \(Prefix/);
  const line = view.locator('.first-error-line');
  await line.waitFor({ timeout: 30_000 });
  assert.equal(await line.count(), 1, 'one first-error line in the header');
  const blocks = view.locator('.swimlanes .lane-block.is-first-error');
  const badges = view.locator('.msg .msg-first-error');
  if (o.expected === 'none') {
    assert.match(
      await line.innerText(),
      /^First error: none named — no message drops the prefix value by δ = 0\.25 or more, so none is named the first error\.$/,
    );
    assert.equal(await blocks.count(), 0, 'no block marked');
    assert.equal(await badges.count(), 0, 'no row badge');
  } else {
    const { message, agent } = o.expected;
    assert.match(
      await line.innerText(),
      new RegExp(`^✕ First error: message #${String(message)} \\(agent ${agent}\\), from `),
    );
    assert.equal(await blocks.count(), 1, 'one block marked');
    assert.equal(await blocks.getAttribute('data-seq'), String(message));
    assert.match((await blocks.getAttribute('aria-label')) ?? '', / · first error, from /);
    await line.locator('button', { hasText: `message #${String(message)}` }).click();
    await view.locator(`.msg.is-current[data-seq="${String(message)}"] .msg-first-error`).waitFor({ timeout: 30_000 });
    assert.equal(await badges.count(), 1, 'one row badge');
  }
  assert.match(await view.locator('.lanes-note').innerText(), /✕ with a dashed outline the first error/);
  await o.screenshot('i17-first-error');
}
