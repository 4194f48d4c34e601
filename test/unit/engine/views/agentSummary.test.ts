// Issue 16: the dashboard's per-agent summary on step-less evaluation data (tau-bench), before
// and after an audit.
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runAudit } from '../../../../src/engine/audit/auditJob';
import { runIndexJob } from '../../../../src/engine/indexJob';
import { agentSummary, histogram, histogramBins } from '../../../../src/engine/views/agentSummary';
import { DashboardViewService } from '../../../../src/engine/views/dashboardViewService';
import { openDatabase } from '../../../../src/store/database';
import { tempFolder } from '../../../builders/episodeBuilder';

const tauBench = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'importers', 'tau-bench', 'trajectories.json');

async function indexedTauBench(): Promise<string> {
  const root = tempFolder();
  cpSync(tauBench, join(root, 'trajectories.json'));
  await runIndexJob({ root, search: false });
  return root;
}

function summaryOf(root: string, method: 'shared' | 'loo'): ReturnType<DashboardViewService['agentSummary']> {
  const db = openDatabase(join(root, '.credit-lens', 'index.sqlite'), { readonly: true });
  try {
    const service = new DashboardViewService(db, root);
    const run = service.runs()[0];
    assert.ok(run, 'the folder has a run');
    assert.equal(run.steps.count, 0, 'tau-bench logs no training step');
    return service.agentSummary(run.runId, method);
  } finally {
    db.close();
  }
}

test('a step-less run has a per-agent summary: shared credit is the mean logged reward, not audited yet', async () => {
  const root = await indexedTauBench();
  const summary = summaryOf(root, 'shared');
  assert.equal(summary.status, 'computed');
  assert.equal(summary.steplessEpisodes, summary.coverage.episodes, 'every episode is step-less');
  assert.ok(summary.coverage.episodes > 0);
  assert.equal(summary.audit, null, 'never audited');
  assert.ok(summary.agents.length >= 2, JSON.stringify(summary.agents.map((a) => a.agent)));
  for (const a of summary.agents) {
    assert.equal(a.emptyRate, null, `${a.agent}: no text check before an audit`);
    assert.equal(a.copyRate, null);
    assert.ok(a.meanCredit !== null && a.meanCredit >= 0 && a.meanCredit <= 1, `${a.agent}: ${String(a.meanCredit)}`);
    assert.ok(a.ci && a.ci[0] <= a.meanCredit && a.meanCredit <= a.ci[1]);
  }
  const shares = summary.agents.reduce((s, a) => s + (a.tokenShare ?? 0), 0);
  assert.ok(shares === 0 || Math.abs(shares - 1) < 1e-9, `token shares sum to 1 when tokens are logged: ${shares}`);
  assert.ok(summary.histogram);
  const perAgent = summary.histogram.counts.values.slice(0, histogramBins).reduce<number>((s, n) => s + (n ?? 0), 0);
  assert.equal(perAgent, summary.agents[0]?.episodes, 'the first agent histogram counts its episodes');
});

test('after an audit the summary carries the text checks and every verdict it could not reach', async () => {
  const root = await indexedTauBench();
  await runAudit({ root, method: 'loo' });
  const summary = summaryOf(root, 'loo');
  assert.ok(summary.audit, 'audited');
  assert.equal(summary.audit.method, 'loo');
  assert.ok(summary.audit.unreachable.length > 0, 'loo cannot be reached on tau-bench without counterfactuals');
  assert.ok(
    summary.audit.unreachable.every((u) => u.length > 20),
    'each verdict comes with its reason',
  );
  assert.ok(
    summary.agents.some((a) => a.emptyRate !== null && a.copyRate !== null),
    'the audit read the text of the agents that spoke',
  );
});

test('no drawn credit: no mean, no share, no histogram (never zeros)', () => {
  const summary = agentSummary({
    runId: 1,
    method: 'loo',
    status: 'not-computed',
    coverage: { episodes: 3, drawn: 0, approximate: 0, notIdentifiable: 0, failed: 0, reason: null, remedy: null },
    steplessEpisodes: 3,
    agents: [
      { agentId: 1, name: 'planner' },
      { agentId: 2, name: 'solver' },
    ],
    values: [],
    activity: [{ agentId: 1, episodes: 3, messages: 4, tokens: null }],
    flags: [],
    audit: undefined,
  });
  assert.deepEqual(
    summary.agents.map((a) => [a.meanCredit, a.ci, a.creditShare, a.tokenShare]),
    [
      [null, null, null, null],
      [null, null, null, null],
    ],
  );
  assert.equal(summary.histogram, null);
});

test('histograms share one bin grid across agents; equal values get a unit-wide domain; NaN is skipped', () => {
  const h = histogram(
    ['a', 'b'],
    [
      [0, 1],
      [0.5, Number.NaN],
    ],
  );
  assert.ok(h);
  assert.deepEqual(h.domain, [0, 1]);
  const row = (r: number): number[] => h.counts.values.slice(r * histogramBins, (r + 1) * histogramBins) as number[];
  assert.equal(row(0)[0], 1);
  assert.equal(row(0)[histogramBins - 1], 1, 'the largest value falls in the last bin');
  assert.equal(row(1)[histogramBins / 2], 1);
  assert.equal(
    row(1).reduce((s, n) => s + n, 0),
    1,
  );
  assert.deepEqual(histogram(['a'], [[2, 2]])?.domain, [1.5, 2.5]);
  assert.equal(histogram(['a'], [[]]), null);
});
