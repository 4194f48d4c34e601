// Issue 17 (part 2, per-message credit at any length), an e2e step for the lead to wire into
// extension.e2e.ts: in the Episode view, a message whose number is its agent's even spread says
// `spread` on its row, and an estimated message credit shows `±half-width`; nothing else is marked.
import assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';

export interface MessageCreditStepOptions {
  /** The active webview frame (extension.e2e.ts: `activeWebview()`). */
  readonly webview: () => FrameLocator;
  /** Saves a screenshot under `name` (extension.e2e.ts: `screenshot`). */
  readonly screenshot: (name: string) => Promise<void>;
  /** What the method shown gives: an agent's even spread (LOO, Shapley, …) or per-message values. */
  readonly kind: 'spread' | 'per-message';
}

/**
 * With the Episode view open on an episode with credit (e.g. step g, under LOO: `kind: 'spread'`):
 * every loaded row with a credit value carries exactly one `spread` mark whose hover says "spread
 * evenly", and none an interval; under an exact per-message method (`kind: 'per-message'`, a short
 * demo episode under prefix or owen) no row is marked. Saves `msgcredit-<kind>.png`.
 */
export async function messageCreditMarksStep(o: MessageCreditStepOptions): Promise<void> {
  const view = o.webview();
  const rows = view.locator('.msg.is-loaded');
  await rows.first().waitFor({ timeout: 30_000 });
  const valued = view.locator('.msg.is-loaded:is([data-credit-state="value"], [data-credit-state="zero"])');
  const withValue = await valued.count();
  assert.ok(withValue > 0, 'the episode shows credit');
  const spread = await view.locator('.msg.is-loaded .msg-credit-mark.is-spread').count();
  const intervals = await view.locator('.msg.is-loaded .msg-credit-mark.is-interval').count();
  if (o.kind === 'spread') {
    assert.equal(spread, withValue, 'every row with a value says it is a spread');
    assert.equal(intervals, 0);
    assert.deepEqual(
      [...new Set(await valued.locator('.msg-credit-mark').allInnerTexts())],
      ['spread'],
      'the mark reads "spread"',
    );
    assert.match((await valued.first().locator('.msg-credit').getAttribute('title')) ?? '', /spread evenly/);
  } else {
    assert.equal(spread, 0, 'per-message values are not a spread');
    assert.equal(intervals, 0, 'a short episode has exact values, without an interval');
  }
  await o.screenshot(`msgcredit-${o.kind}`);
}
