// The e2e steps of the Episode view on the demo (test/e2e/extension.e2e.ts g, h, k): an episode
// tinted by credit under two methods, its task on top (issue 16 part 2), the panel restored after a
// reload, and a recompute by replay on a local model server.
import assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { playDemoAgent } from '../../../src/demo/demoAgents';
import { startLocalChatServer } from '../../../src/engine/evaluators/replay/localChatServer';
import { episodeColoursStep } from './colour';
import type { CodeServer, MessageCredit } from './workbench';
import { influenceGraphStep } from './influence';
import { messageCreditMarksStep } from './msgcredit';
import { swimlanesStep } from './swimlanes';

export interface EpisodeTaskStep {
  /** The Episode view's frame (extension.e2e.ts's `activeWebview()`). */
  readonly webview: FrameLocator;
  /** The external id of the open episode. */
  readonly episodeId: string;
  /** Saves `<name>.png` of the page (extension.e2e.ts's `screenshot`). */
  readonly screenshot: (name: string) => Promise<void>;
}

/**
 * The demo episode's prompt and ground truth on top, its metadata (temperature, seed, template) in a
 * collapsible section, and its raw record one click away, asserted by text and count; screenshot
 * `i16-episode-task`.
 */
export async function episodeShowsTheTask({ webview, episodeId, screenshot }: EpisodeTaskStep): Promise<void> {
  const prompt = webview.locator('.task-prompt .prompt-text');
  await prompt.waitFor({ timeout: 30_000 });
  assert.ok(((await prompt.textContent()) ?? '').trim().length > 20, 'the demo prompt is a word problem');
  assert.match((await webview.locator('.task-truth').textContent()) ?? '', /^-?\d+(\.\d+)?$/);
  const metadata = webview.locator('details.task-metadata');
  assert.equal(await metadata.locator('summary').textContent(), 'Metadata (3 keys)');
  await metadata.locator('summary').click();
  const keys = metadata.locator(':scope > .value-tree > .value-key');
  await keys.first().waitFor({ timeout: 10_000 }); // the tree is drawn when the section opens
  assert.deepEqual(await keys.allTextContents(), ['temperature', 'seed', 'template']);
  await webview.locator('details.task-raw summary').click();
  const raw = webview.locator('.raw-text');
  await raw.waitFor({ timeout: 30_000 });
  assert.ok(((await raw.textContent()) ?? '').includes(`"id": "${episodeId}"`), 'the raw record is this episode');
  assert.match(
    (await webview.locator('details.task-raw .task-note').textContent()) ?? '',
    /^[\d,]+ bytes, pretty-printed$/,
  );
  await screenshot('i16-episode-task');
  // Leave the sections closed for the steps after this one.
  await webview.locator('details.task-raw summary').click();
  await metadata.locator('summary').click();
}

/** g. Episode `s18-g0-r0` (a step the audit flags): the verifier near zero under loo, not under shared; its colours and task. */
export async function flaggedEpisodeTinted(cs: CodeServer): Promise<void> {
  await cs.runCommand('View: Close All Editors');
  await cs.openPipelineEpisode('s18-g0-r0');
  const verifier = (rows: readonly MessageCredit[]): number[] =>
    rows.filter((r) => r.agent === 'verifier').map((r) => r.credit);
  const loo = await cs.chooseEpisodeMethod('loo', (rows) => verifier(rows).length > 0);
  assert.ok(
    verifier(loo).every((c) => Math.abs(c) < 0.01),
    `verifier under loo: ${JSON.stringify(loo)}`,
  );
  const shared = await cs.chooseEpisodeMethod('shared', (rows) => verifier(rows).some((c) => c > 0.1));
  assert.ok(
    verifier(shared).every((c) => c > 0.1),
    `verifier under shared: ${JSON.stringify(shared)}`,
  );
  await cs.chooseEpisodeMethod('loo', (rows) => verifier(rows).every((c) => Math.abs(c) < 0.01));
  await episodeColoursStep({ webview: cs.activeWebview, screenshot: cs.screenshot });
  await episodeShowsTheTask({ webview: cs.activeWebview(), episodeId: 's18-g0-r0', screenshot: cs.screenshot });
  // Issue 17: under loo each message shows its agent's even spread, said on the row; the swimlanes;
  // the influence graph of a late step, where the verifier no longer influences anything.
  await messageCreditMarksStep({ webview: cs.activeWebview, screenshot: cs.screenshot, kind: 'spread' });
  await swimlanesStep({ webview: cs.activeWebview, screenshot: cs.screenshot });
  await influenceGraphStep({ webview: cs.activeWebview(), screenshot: cs.screenshot });
}

/** h. After a reload the Episode panel comes back on the episode opened last (`s1-g0-r1`, by g2). */
export async function episodeRestored(cs: CodeServer): Promise<void> {
  await cs.reloadWindow();
  const webview = cs.activeWebview();
  await webview.locator('.msg.is-loaded').first().waitFor({ timeout: 60_000 });
  // The episode g2 opened last.
  await webview.locator('body', { hasText: 's1-g0-r1' }).waitFor({ timeout: 10_000 });
}

const replaySetting = 'creditLens.evaluator.replay';

/**
 * k. Recompute with replay on a local demo model server: the demo logs its counterfactuals and
 * logged values win, so the estimate is 0 calls, no confirmation is asked and nothing is sent.
 */
export async function replayRecompute(cs: CodeServer): Promise<void> {
  // The demo's agents played by a deterministic model server in this process (docs/replay.md).
  const server = await startLocalChatServer({
    reply: (r) =>
      playDemoAgent({
        model: r.model,
        messages: r.messages,
        sampling: typeof r.body['seed'] === 'number' ? { seed: r.body['seed'] } : {},
      }),
  });
  try {
    await cs.step('k-replay', async () => {
      // The user's setting (run.mjs disables Workspace Trust: the workspace is trusted).
      cs.setMachineSetting(replaySetting, { url: server.url });
      const host = new URL(server.url).host;
      await cs.runCommand('View: Close All Editors');
      await cs.openPipelineEpisode('s18-g0-r0');
      const webview = cs.activeWebview();
      await cs.chooseEpisodeMethod('loo', (rows) => rows.length > 0);
      // The setting reaches the view when the episode is (re)sent: the replay is offered first.
      await webview.locator('.evaluator-line', { hasText: `replay on ${host}` }).waitFor({ timeout: 30_000 });
      await webview.locator('.recompute-button').click();
      // The demo logs its counterfactuals and logged values win: the estimate is 0 calls, so no
      // confirmation is asked, nothing is sent to the server, and the view says so. (The calls
      // themselves are covered where nothing is logged: test/unit/cli/replayCli.test.ts.)
      const result = webview.locator('.recompute-result', {
        hasText: /^(Recomputed|Replay failed|Recompute failed)/,
      });
      await result.waitFor({ timeout: 150_000 });
      const outcome = (await result.textContent()) ?? '';
      assert.match(
        outcome,
        new RegExp(`^Recomputed \\(Leave-one-out\\): replayed on ${host.replace(/[.]/g, '\\.')}: 0 of ~0 calls`),
        outcome,
      );
      assert.equal(await cs.page.locator('.monaco-dialog-box').count(), 0, 'no confirmation for 0 calls');
      await cs.screenshot('k-replay-nothing-to-replay');
      assert.equal(server.requests.length, 0, 'the model server was not called: every value was logged');
    });
  } finally {
    // The tests after this one compute with the built-in evaluator, as a user without a replay.
    cs.setMachineSetting(replaySetting, undefined);
    await server.close();
  }
}
