// Issue 17 (part 3, the influence graph), the e2e step for the lead to wire into extension.e2e.ts
// once a late episode of the demo's pipeline run is open in the Episode view (640 episodes give 20
// steps; the verifier stops catching errors from step 15 on), e.g.
//   await openPipelineEpisode('s20-g0-r0');
//   await influenceGraphStep({ webview: activeWebview(), screenshot });
import assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';

export interface InfluenceStepOptions {
  /** The Episode view's frame (extension.e2e.ts's `activeWebview()`). */
  readonly webview: FrameLocator;
  /** Saves `<name>.png` of the page (extension.e2e.ts's `screenshot`). */
  readonly screenshot: (name: string) => Promise<void>;
}

/**
 * The Episode view's influence graph of a late demo episode: three agents and the outcome as
 * nodes; the table lists the logged weights planner → solver and solver → verifier and each agent's
 * counterfactual effect on the outcome, the verifier's 0; the verifier has no outgoing influence and
 * is marked "no influence"; screenshot `i17-influence`.
 */
export async function influenceGraphStep({ webview, screenshot }: InfluenceStepOptions): Promise<void> {
  const section = webview.locator('section.influence');
  const rows = section.locator('.influence-table tbody tr');
  await rows.first().waitFor({ timeout: 30_000 });
  assert.equal(await section.locator('h2').textContent(), 'Influence (not credit)');
  assert.equal(await section.locator('.influence-node').count(), 4);
  const table = await rows.evaluateAll((trs) =>
    trs.map((tr) =>
      Array.from(
        (tr as unknown as { children: ArrayLike<{ textContent: string | null }> }).children,
        (td) => td.textContent ?? '',
      ),
    ),
  );
  const edges = table.map(([from, to, kind, value]) => `${from ?? ''} → ${to ?? ''} ${kind ?? ''} ${value ?? ''}`);
  assert.ok(edges.includes('planner → solver logged +0.800'), edges.join(' | '));
  assert.ok(
    edges.some((e) => e.startsWith('solver → verifier logged ')),
    edges.join(' | '),
  );
  assert.ok(edges.includes('verifier → outcome counterfactual 0'), edges.join(' | '));
  // No outgoing influence: every row from the verifier reads 0.
  const fromVerifier = table.filter(([from]) => from === 'verifier');
  assert.ok(fromVerifier.length > 0);
  for (const row of fromVerifier) assert.equal(row[3], '0', `verifier row ${row.join(' · ')}`);
  assert.equal(await section.locator('.influence-quiet').textContent(), 'No influence: verifier.');
  assert.equal(
    await section.locator('.influence-node.influence-none').getAttribute('aria-label'),
    'verifier: no influence',
  );
  await section.scrollIntoViewIfNeeded();
  await screenshot('i17-influence');
}
