// Issue 16 (parts 1 and 5), an e2e step of extension.e2e.ts: with the Run Dashboard open on a run,
// its agent summary shows one row per agent with a mean credit (or "no credit", "not identifiable")
// and, before an audit, "not audited yet" instead of 0 in the audit's columns.
import assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';

export interface AgentSummaryStepOptions {
  /** The dashboard's webview frame (extension.e2e.ts: `activeWebview()`). */
  readonly webview: () => FrameLocator;
  /** Saves a screenshot under `name` (extension.e2e.ts: `screenshot`). */
  readonly screenshot: (name: string) => Promise<void>;
  /** The agents of the run, in roster order (the demo: planner, solver, verifier). */
  readonly agents: readonly string[];
  /** Whether the run was audited before this step. */
  readonly audited: boolean;
  /** Whether the run logs training steps (the demo does; tau-bench and Who&When do not). */
  readonly stepped: boolean;
  /** The screenshot's name (default `dash-agent-summary`). */
  readonly name?: string;
}

/** Asserts the text content and counts of the agent summary, then saves `<name>.png` (default `dash-agent-summary.png`). */
export async function agentSummaryStep(o: AgentSummaryStepOptions): Promise<void> {
  const view = o.webview();
  const rows = view.locator('.agent-table tbody tr');
  await rows.first().waitFor({ timeout: 30_000 });
  assert.equal(await rows.count(), o.agents.length, 'one row per agent');
  assert.deepEqual(await view.locator('.agent-table tbody tr td:nth-child(1)').allInnerTexts(), [...o.agents]);
  for (const mean of await view.locator('.agent-table tbody tr td:nth-child(3)').allInnerTexts())
    assert.match(
      mean,
      /^(no credit|not identifiable|0|[+−]\d)/,
      `a mean credit, "no credit" or "not identifiable": ${mean}`,
    );
  const audit = await view.locator('.agent-audit > p').innerText();
  assert.match(audit, o.audited ? /^Audited / : /^Not audited yet/);
  const flags = await view.locator('.agent-table tbody tr td:nth-child(9)').allInnerTexts();
  if (!o.audited)
    assert.deepEqual(
      flags,
      o.agents.map(() => 'not audited yet'),
      'never "0 flags" before an audit',
    );
  assert.equal(await view.locator('section.charts').isVisible(), o.stepped, 'charts only for a run with steps');
  await o.screenshot(o.name ?? 'dash-agent-summary');
}
