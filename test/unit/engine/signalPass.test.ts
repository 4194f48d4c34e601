import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCreditJob } from '../../../src/engine/credit/creditJob';
import { runIndexJob } from '../../../src/engine/indexJob';
import { IndexStore } from '../../../src/store/indexStore';
import { signalQueries, SignalRepository, type SignalStepAgent } from '../../../src/store/signalRepository';
import { e16Groups as e16, e16Sample as sample } from '../../builders/e16Episodes';
import { jsonl, tempFolder } from '../../builders/episodeBuilder';
import { assertClose } from '../credit/stats/assertClose';
import { queryPlan } from '../store/queryPlan';

function cells(root: string): Map<string, SignalStepAgent> {
  const store = IndexStore.open(join(root, '.credit-lens', 'index.sqlite'));
  try {
    const hash = store.db
      .prepare<{ h: string }>("SELECT params_hash AS h FROM credit_params WHERE method = 'loo'")
      .get()?.h;
    assert.ok(hash, 'loo credit stored');
    const names = new Map(
      store.db
        .prepare<{ id: number; name: string }>('SELECT agent_id AS id, name FROM agent')
        .all()
        .map((a) => [a.id, a.name]),
    );
    const rows = new SignalRepository(store.db).byStep(1, 'loo', hash, 'train');
    return new Map(rows.map((r) => [`${String(r.step)}:${names.get(r.agentId) ?? '?'}`, r]));
  } finally {
    store.close();
  }
}

async function indexAndCredit(root: string, extra: { steps?: [number, number] } = {}): Promise<void> {
  await runIndexJob({ root, search: false });
  await runCreditJob({ root, method: 'loo', ...extra });
}

describe('recordSignalDisagreement (credit-methods.md §3.18)', () => {
  it('stores E16 per step and agent when the credit pass ends, with the ungrouped episode counted apart', async () => {
    const root = tempFolder();
    writeFileSync(join(root, 'a.jsonl'), jsonl(...e16(1), sample('lonely', 1, undefined, 1, 0, 0)));
    await indexAndCredit(root);
    const planner = cells(root).get('1:planner');
    assert.ok(planner);
    assert.deepEqual(
      [planner.n, planner.opposite, planner.zero, planner.sharedOnly, planner.noGroup, planner.noCredit],
      [8, 1, 4, 0, 1, 0],
    );
    // verl's eps 1e-6 rescales each group but keeps the ranks: ρ is E16's 12/√1120.
    assertClose(planner.rho ?? NaN, 12 / Math.sqrt(1120));
    const solver = cells(root).get('1:solver');
    assert.deepEqual([solver?.n, solver?.opposite, solver?.zero], [8, 0, 4]);
  });

  it('live tail: a pass over appended steps adds their rows and leaves the others as they were', async () => {
    const root = tempFolder();
    writeFileSync(join(root, 'a.jsonl'), jsonl(...e16(1)));
    await indexAndCredit(root);
    const before = cells(root).get('1:planner');
    appendFileSync(join(root, 'a.jsonl'), jsonl(...e16(2)));
    await indexAndCredit(root, { steps: [2, 2] });
    const after = cells(root);
    assert.deepEqual(after.get('1:planner'), before);
    assert.deepEqual([after.get('2:planner')?.n, after.get('2:planner')?.opposite], [8, 1]);
  });

  it('a re-read file drops its steps until the pass that re-credits them replaces their rows', async () => {
    const root = tempFolder();
    writeFileSync(join(root, 'a.jsonl'), jsonl(...e16(1)));
    writeFileSync(join(root, 'b.jsonl'), jsonl(...e16(2)));
    await indexAndCredit(root);
    // Rewritten: step 2's E7 group now fails where the planner alone mattered (R = [0, 1, 0, 1]).
    const rewritten = [0, 1, 0, 1].map((r, g) => sample(`s2-x-${String(g)}`, 2, 's2-x', r, 0, 0));
    writeFileSync(join(root, 'b.jsonl'), jsonl(...rewritten));
    await runIndexJob({ root, search: false });
    assert.equal(cells(root).get('2:planner'), undefined, 'the deleted episodes took their step with them');
    assert.equal(cells(root).get('1:planner')?.n, 8, 'other steps stay');
    await runCreditJob({ root, method: 'loo', steps: [2, 2] });
    // D_planner = R: the same signs, no flip, nothing constant.
    const step2 = cells(root).get('2:planner');
    assert.deepEqual([step2?.n, step2?.opposite, step2?.zero], [4, 0, 0]);
  });

  it('the overview reads the aggregate table only (no episode or credit row)', () => {
    const store = IndexStore.open(':memory:');
    try {
      const plan = queryPlan(store.db, signalQueries.byStep, { run: 1, method: 'loo', hash: 'h', split: 'train' });
      assert.ok(
        plan.some((d) => d.includes('signal_step_agent')),
        plan.join('\n'),
      );
      assert.ok(
        plan.every((d) => !/\b(episode|credit|episode_agent)\b/.test(d)),
        plan.join('\n'),
      );
      assert.ok(
        plan.some((d) => /SEARCH signal_step_agent USING PRIMARY KEY/.test(d)),
        plan.join('\n'),
      );
    } finally {
      store.close();
    }
  });
});
