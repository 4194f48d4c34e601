import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Episode } from '../../../../src/core/episode';
import { runIndexJob } from '../../../../src/engine/indexJob';
import { DashboardViewService } from '../../../../src/engine/views/dashboardViewService';
import type { RunOverview } from '../../../../src/protocol/dashboardPanel';
import type { ViewMethod } from '../../../../src/protocol/viewData';
import { IndexStore } from '../../../../src/store/indexStore';
import { mergeOverviewDelta } from '../../../../webview/src/dashboard/overviewDelta';
import { episode, jsonl, tempFolder } from '../../../builders/episodeBuilder';
import { agentCredit, agents, insertCredit, type ViewFixture } from './viewFixture';

// A run the training job keeps appending to: after every pass, the overview the webview holds,
// updated by deltas only, equals a full fetch; the delta carries only the steps that changed.

const roster = agents.map((name) => ({ name, kind: 'llm' as const }));
const say = (agent: string, content: string) => ({ agent, role: 'assistant' as const, content });
let root: string;
let file: string;
let store: IndexStore;
let service: DashboardViewService;
let runId: number;

function teamEpisode(id: string, step: number, sample: number): Episode {
  // The verifier is silent in every third episode, so the idle rate has something to count.
  const messages = agents.filter((a) => a !== 'verifier' || sample % 3 !== 0).map((a) => say(a, `${a} ${id}`));
  return episode(id, {
    step,
    group: `g${step}`,
    sample,
    reward: (sample * 7 + step) % 3 === 0 ? 0 : 1,
    agents: roster,
    messages,
  });
}

const stepLines = (step: number, from: number, to: number): string =>
  jsonl(...Array.from({ length: to - from }, (_, i) => teamEpisode(`s${step}-${from + i}`, step, from + i)));

before(async () => {
  root = tempFolder('credit-lens-delta-');
  mkdirSync(join(root, 'team'));
  writeFileSync(
    join(root, 'team', 'run.json'),
    JSON.stringify({ format: 'credit-lens', version: '1.0', name: 'team' }),
  );
  file = join(root, 'team', 'a.jsonl');
  writeFileSync(file, stepLines(1, 0, 4) + stepLines(2, 0, 4) + stepLines(3, 0, 2));
  const { index } = await runIndexJob({ root, search: false });
  store = IndexStore.open(index.path);
  runId = store.db.prepare<{ run_id: number }>("SELECT run_id FROM run WHERE name = 'team'").get()?.run_id ?? -1;
  service = new DashboardViewService(store.db, root);
  // LOO credit of the episodes indexed so far (appended ones have none, as after a live pass).
  const ids = store.db.prepare<{ external_id: string }>('SELECT external_id FROM episode').all();
  const fixture: ViewFixture = {
    root,
    store,
    teamRunId: runId,
    soloRunId: -1,
    id: (externalId) =>
      store.db.prepare<{ episode_id: number }>('SELECT episode_id FROM episode WHERE external_id = ?').get(externalId)
        ?.episode_id ?? -1,
    agentId: (name) =>
      store.db
        .prepare<{ agent_id: number }>('SELECT agent_id FROM agent WHERE run_id = ? AND name = ?')
        .get(runId, name)?.agent_id ?? -1,
  };
  insertCredit(
    fixture,
    ids.flatMap(({ external_id }, i) =>
      agentCredit(external_id, [0.5 + i / 100, 0.3 - i / 50, i % 2 === 0 ? 0.005 : 0.2]),
    ),
  );
});

after(() => store.close());

/** The overview with every number rounded to 12 digits (a per-step sum may add in another order). */
function rounded(o: RunOverview): unknown {
  return JSON.parse(JSON.stringify(o, (_k, v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(12)) : v)));
}

async function pass(lines: string): Promise<void> {
  appendFileSync(file, lines);
  await runIndexJob({ root, search: false });
}

test('loo and shared: an overview updated by deltas after every pass equals a full fetch', async () => {
  const methods: ViewMethod[] = ['loo', 'shared'];
  const held = new Map(methods.map((m) => [m, service.overview(runId, m, 0.01)]));
  assert.deepEqual(held.get('loo')?.steps, [1, 2, 3]);
  const torn = jsonl(teamEpisode('s4-3', 4, 3));
  const passes = [
    stepLines(3, 2, 4), // the step being written grows
    stepLines(4, 0, 3) + torn.slice(0, 40), // a new step, and a torn last line
    torn.slice(40) + stepLines(5, 0, 1) + stepLines(1, 4, 5), // the line completed; a late episode of an old step
  ];
  const changed = [[3], [4], [1, 4, 5]];
  for (const [p, lines] of passes.entries()) {
    await pass(lines);
    for (const method of methods) {
      const base = held.get(method)!;
      const delta = service.overviewDelta(runId, method, 0.01, base.watermark ?? 0);
      assert.deepEqual(delta.recomputed, changed[p], `${method}, pass ${p + 1}: only the changed steps`);
      const merged = mergeOverviewDelta(base, delta);
      assert.ok(merged, 'the delta applies');
      assert.deepEqual(rounded(merged), rounded(service.overview(runId, method, 0.01)), `${method}, pass ${p + 1}`);
      held.set(method, merged);
    }
  }
  for (const method of methods) {
    const base = held.get(method)!;
    assert.deepEqual(base.steps, [1, 2, 3, 4, 5]);
    const idle = service.overviewDelta(runId, method, 0.01, base.watermark ?? 0);
    assert.deepEqual([idle.recomputed, idle.columns.steps], [[], []], 'nothing appended: an empty delta');
    assert.deepEqual(rounded(mergeOverviewDelta(base, idle)!), rounded(base));
  }
  assert.equal(held.get('loo')?.status, 'computed');
  assert.ok(held.get('loo')?.meanCredit.values.some((v) => v !== null));
});

test('a delta of another run, method or roster does not apply', () => {
  const held = service.overview(runId, 'loo', 0.01);
  const delta = service.overviewDelta(runId, 'loo', 0.01, 0);
  assert.equal(mergeOverviewDelta(held, { ...delta, runId: runId + 1 }), undefined);
  assert.equal(mergeOverviewDelta(held, { ...delta, method: 'shapley' }), undefined);
  const columns = { ...delta.columns, creditShare: { ...delta.columns.creditShare, rows: ['planner', 'solver'] } };
  assert.equal(mergeOverviewDelta(held, { ...delta, columns }), undefined);
});
