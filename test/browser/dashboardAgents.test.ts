// Issue 16: the agent summary, the whole dashboard of a step-less run (tau-bench, Who&When), in
// light, dark and high-contrast themes, with markup in every text field it renders.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { AgentSummary, DashboardRunsData } from '../../src/protocol/dashboardPanel';
import { browserSuite } from './harness/suite';
import { dashboardEntry, dashboardHost, emptyAgentSummary, waitForStatus } from './dashboard/dashboardHost';
import { scriptedRun } from './dashboard/scriptedRun';
import type { HarnessTheme } from './harness/server';

const suite = browserSuite();
const browser = suite.browser;

const img = '<img src=x onerror="window.__xss=1">';
const script = '</script><script>window.__xss=1</script>';
const agents = [`planner ${img}`, `solver ${script}`, 'verifier'];

/** A step-less run of 1,280 episodes (evaluation data): every episode has train_step NULL. */
function steplessRuns(): DashboardRunsData {
  const run = scriptedRun({ agents, steps: 1, episodes: 40 });
  const first = run.runs.runs[0];
  assert.ok(first);
  return {
    ...run.runs,
    runs: [{ ...first, episodes: 1280, agents, steps: { min: null, max: null, count: 0 }, flags: 0 }],
  };
}

/** Owen computed for 1 episode of 1,280; audited, with verdicts it could not reach. */
function auditedSummary(runs: DashboardRunsData): AgentSummary {
  const base = emptyAgentSummary(runs, { folder: runs.folder, runId: 1, method: 'owen' });
  const row = base.agents.map((a, i) => ({
    ...a,
    episodes: 1,
    meanCredit: i === 0 ? 0 : 0.25 * i,
    ci: [0.25 * i, 0.25 * i] as const,
    creditShare: i / 3,
    tokenShare: 1 / 3,
    emptyRate: i === 2 ? null : 0.1 * i,
    copyRate: i === 2 ? null : 0,
    flags: i === 1 ? [{ kind: 'idle', count: 2 }] : [],
  }));
  return {
    ...base,
    status: 'computed',
    coverage: { ...base.coverage, drawn: 1 },
    agents: row,
    histogram: {
      domain: [0, 0.5],
      counts: { rows: agents, cols: [0, 0.25], values: [1, 0, 0, 1, 0, 1] },
    },
    audit: {
      method: 'loo',
      auditedAt: '2026-12-01T10:20:30.000Z',
      unreachable: [
        `idle, free-rider, dominant and decoupling for ${agents[0] ?? ''}: no loo credit could be computed ${img}`,
        `decoupling for verifier: the run logs no training step ${script}`,
      ],
    },
  };
}

async function openStepless(theme: HarnessTheme, summary?: (runs: DashboardRunsData) => AgentSummary) {
  const run = scriptedRun({ agents, steps: 1, episodes: 40 });
  const host = dashboardHost(run);
  host.runs = steplessRuns();
  if (summary) {
    const answer = summary(host.runs);
    host.agentSummary = () => answer;
  }
  const h = await browser.open({
    entry: dashboardEntry,
    host: host.host,
    theme,
    viewport: { width: 1360, height: 900 },
  });
  await waitForStatus(h.page, /\d episodes?/);
  await h.page.locator('.agent-table tbody tr').first().waitFor();
  return { h, host };
}

const cellTexts = (h: { page: Page }, column: number): Promise<string[]> =>
  h.page.locator(`.agent-table tbody tr td:nth-child(${String(column)})`).allInnerTexts();

/** Leave-one-out not identifiable on any episode (Who&When: every logged reward is 0), with markup in the reason and remedy. */
function notIdentifiableSummary(runs: DashboardRunsData): AgentSummary {
  const base = emptyAgentSummary(runs, { folder: runs.folder, runId: 1, method: 'loo' });
  return {
    ...base,
    status: 'not-identifiable',
    coverage: {
      ...base.coverage,
      notIdentifiable: 1280,
      reason: `all 8 sampled episodes log reward 0 ${img}`,
      remedy: `log counterfactuals ${script}`,
    },
  };
}

suite.describe('Run Dashboard agent summary', () => {
  test('a step-less run before any credit or audit: no charts, "no credit" and "not audited yet", never 0', async () => {
    const { h, host } = await openStepless('light');
    const { page } = h;
    assert.equal(await page.locator('section.charts').isHidden(), true, 'no per-step chart for a step-less run');
    assert.equal(await page.getByText('No credit shares for these steps').count(), 0);
    assert.equal(await page.locator('.agent-table tbody tr').count(), 3);
    assert.deepEqual(await cellTexts(h, 1), agents, 'agent names are text');
    assert.deepEqual(await cellTexts(h, 3), ['no credit', 'no credit', 'no credit']);
    for (const column of [7, 8, 9])
      assert.deepEqual(await cellTexts(h, column), ['not audited yet', 'not audited yet', 'not audited yet']);
    assert.match(await page.locator('.agent-audit').innerText(), /^Not audited yet/);
    assert.match(await page.locator('.agent-summary').innerText(), /Leave-one-out: 0 of 1,280 episodes/);
    assert.match(await page.locator('.agent-summary').innerText(), /No episode of this run logs a training step/);
    assert.equal(await page.locator('.histogram-none').count(), 1);
    await h.screenshot('dashboard-agents-not-audited-light');
    await h.close();
    assert.deepEqual(host.invalid, []);
  });

  for (const theme of ['light', 'dark', 'high-contrast'] as const)
    test(`after an audit (${theme}): coverage, rates, flags, every unreachable verdict and histograms; markup stays text`, async () => {
      const { h, host } = await openStepless(theme, auditedSummary);
      const { page } = h;
      await page
        .locator('.agent-summary-title', { hasText: 'Owen' })
        .waitFor()
        .catch(() => undefined);
      const text = await page.locator('.agent-summary').innerText();
      assert.match(text, /: 1 of 1,280 episodes/, 'coverage of the partial method');
      assert.deepEqual(await cellTexts(h, 3), ['0', '+0.250', '+0.500'], 'a zero is a number, not "no credit"');
      assert.deepEqual(await cellTexts(h, 7), ['0.0%', '10.0%', 'text not read']);
      assert.deepEqual(await cellTexts(h, 9), ['none', 'idle 2', 'none']);
      assert.match(
        await page.locator('.agent-audit > p').innerText(),
        /Audited 2026-12-01 10:20 UTC under loo; 2 verdicts/,
      );
      await page.locator('details.unreachable summary').click();
      const verdicts = await page.locator('.unreachable-list li').allInnerTexts();
      assert.equal(verdicts.length, 2);
      assert.ok(verdicts[0]?.includes(img) && verdicts[1]?.includes(script), 'markup in a reason reads as text');
      assert.equal(await page.locator('.agent-histogram').count(), 3);
      assert.equal(await page.locator('.histogram-bar').count(), 3);
      // "no credit" and zero are told apart by more than colour: a zero is a plain value cell.
      const zero = page.locator('.agent-table tbody tr').first().locator('td').nth(2);
      assert.equal(await zero.getAttribute('class'), 'cell-value');
      assert.equal(await page.evaluate(() => (window as { __xss?: unknown }).__xss), undefined, 'no script ran');
      assert.equal(await page.locator('#app img, #app script, #app [onerror]').count(), 0);
      await h.screenshot(`dashboard-agents-audited-${theme}`);
      await h.close();
      assert.deepEqual(host.invalid, []);
    });
  for (const theme of ['light', 'dark', 'high-contrast'] as const)
    test(`a step-less run whose credit is not identifiable (${theme}): the reason and the remedy in words, never a number`, async () => {
      const { h, host } = await openStepless(theme, notIdentifiableSummary);
      const { page } = h;
      const state = page.locator('.agent-credit-state.status-not-identifiable');
      await state.waitFor();
      assert.deepEqual(await state.locator('p').allInnerTexts(), [
        'Leave-one-out credit is not identifiable for this run: no chart is drawn from it.',
        `1,280 not identifiable: all 8 sampled episodes log reward 0 ${img}.`,
        `What would answer it: log counterfactuals ${script}.`,
      ]);
      assert.deepEqual(await cellTexts(h, 3), ['not identifiable', 'not identifiable', 'not identifiable']);
      assert.deepEqual(await cellTexts(h, 5), ['not identifiable', 'not identifiable', 'not identifiable']);
      assert.match(await page.locator('.agent-summary').innerText(), /Leave-one-out: 0 of 1,280 episodes/);
      assert.equal(await page.locator('.histogram-none').count(), 1);
      assert.equal(await page.evaluate(() => (window as { __xss?: unknown }).__xss), undefined, 'no script ran');
      assert.equal(await page.locator('#app img, #app script, #app [onerror]').count(), 0);
      await h.screenshot(`dashboard-agents-not-identifiable-${theme}`);
      await h.close();
      assert.deepEqual(host.invalid, []);
    });

  test('a step-less run before any credit: the summary says none is stored yet', async () => {
    const { h } = await openStepless('dark');
    assert.deepEqual(await h.page.locator('.agent-credit-state.status-not-computed p').allInnerTexts(), [
      'No credit is stored for Leave-one-out yet. Recompute to fill the credit charts.',
    ]);
    await h.close();
  });
});
