// The e2e step of issue 17 part 1: the Episode view's swimlanes on the demo. The lead calls it from
// test/e2e/extension.e2e.ts once an episode of the demo's pipeline run is open (step g), e.g.
//   await openPipelineEpisode('s18-g0-r0');
//   await swimlanesStep({ webview: activeWebview, screenshot });
import assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';

export interface SwimlanesStepOptions {
  /** The active webview frame (extension.e2e.ts: `activeWebview`). */
  readonly webview: () => FrameLocator;
  /** Saves a screenshot under `name` (extension.e2e.ts: `screenshot`). */
  readonly screenshot: (name: string) => Promise<void>;
}

/**
 * One lane per roster agent (the same names, in the same order, as the Agents panel; the verifier's
 * lane among them), one block per message (a demo episode fits the view, so every block is drawn),
 * and a click on the verifier's last block selects that message in the list; screenshot
 * `i17-swimlanes`.
 */
export async function swimlanesStep(o: SwimlanesStepOptions): Promise<void> {
  const view = o.webview();
  const blocks = view.locator('.swimlanes .lane-block');
  await blocks.first().waitFor({ timeout: 30_000 });
  const lanes = (await view.locator('.swimlanes .lane-label .lane-name').allInnerTexts()).map((t) => t.trim());
  const agents = (await view.locator('.agent-bars .agent-name').allInnerTexts()).map((t) => t.trim());
  assert.deepEqual(lanes, agents, 'one lane per roster agent, in roster order');
  assert.ok(lanes.includes('verifier'), `the verifier has a lane: ${JSON.stringify(lanes)}`);
  const messages = Number(
    (await view.locator('.facts .fact').filter({ hasText: 'Messages' }).locator('dd').innerText()).replace(/,/g, ''),
  );
  assert.ok(messages > 0);
  assert.equal(await blocks.count(), messages, 'one block per message');
  assert.equal(await view.locator('.swimlanes .lane-row').count(), lanes.length);
  // Every block reads its position and its lane's agent; click the verifier's last one.
  const verifierLane = lanes.indexOf('verifier');
  const verifierSeqs = await view
    .locator(`.swimlanes .lane-block[data-lane="${String(verifierLane)}"]`)
    .evaluateAll((els) => els.map((e) => Number((e as unknown as { dataset: Record<string, string> }).dataset['seq'])));
  const seq = Math.max(...verifierSeqs);
  assert.ok(Number.isInteger(seq), 'the verifier spoke');
  const block = view.locator(`.swimlanes .lane-block[data-seq="${String(seq)}"]`);
  assert.match((await block.getAttribute('aria-label')) ?? '', new RegExp(`^#${String(seq)} verifier · `));
  await block.click();
  const row = view.locator(`.msg.is-current[data-seq="${String(seq)}"]`);
  await row.waitFor({ timeout: 30_000 });
  assert.equal((await row.locator('.msg-agent').innerText()).trim(), 'verifier');
  assert.equal(
    await view.locator('.lanes-viewport').getAttribute('aria-activedescendant'),
    `lane-block-${String(seq)}`,
  );
  await o.screenshot('i17-swimlanes');
}
