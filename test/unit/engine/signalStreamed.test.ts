import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { CreditEpisode, CreditRow } from '../../../src/core/creditInput';
import type { Episode } from '../../../src/core/episode';
import { writeDemoRun } from '../../../src/demo/writeDemoRun';
import { runCreditJob, type CreditJobOptions } from '../../../src/engine/credit/creditJob';
import { creditForRun } from '../../../src/engine/credit/runCredit';
import { storedSignalCells, StreamedSignalTally } from '../../../src/engine/credit/signalPass';
import { runIndexJob } from '../../../src/engine/indexJob';
import { CreditInputRepository } from '../../../src/store/creditInputRepository';
import { IndexStore } from '../../../src/store/indexStore';
import { SignalRepository, type SignalCell, type SignalScope } from '../../../src/store/signalRepository';
import { e16Sample } from '../../builders/e16Episodes';
import { jsonl, tempFolder } from '../../builders/episodeBuilder';
import { runContextFor } from '../../builders/runContext';

// The cells a first whole pass tallies as it writes (signalPass.ts StreamedSignalTally) must be those
// the stored-credit read (storedSignalCells) gives for the credit the pass stored, cell by cell.

/** Names the one run of a folder of loose trace files. */
const onlyRun = '';

const indexPath = (root: string): string => join(root, '.credit-lens', 'index.sqlite');

/** Cells as stored (ρ NaN is NULL), in (split kind, step, agent) order. */
function normalised(cells: readonly SignalCell[]): SignalCell[] {
  return cells
    .map((c) => ({ ...c, rho: c.rho !== null && Number.isFinite(c.rho) ? c.rho : null }))
    .sort((a, b) => a.splitKind.localeCompare(b.splitKind) || a.step - b.step || a.agentId - b.agentId);
}

/** What one run's pass tallied as it wrote (undefined: it fell back), and what the stored-credit read gives after it. */
async function passCells(
  root: string,
  run: string,
  options: Omit<CreditJobOptions, 'root'>,
  scope: SignalScope = { kind: 'all' },
): Promise<{ tallied: SignalCell[] | undefined; read: SignalCell[] }> {
  const store = IndexStore.open(indexPath(root));
  try {
    const input = new CreditInputRepository(store.db);
    const credited = input.runs().find((r) => run === onlyRun || r.name === run);
    assert.ok(credited, `run ${run} indexed`);
    const { result, signalCells } = await creditForRun(credited, runContextFor(store, { root, ...options }));
    const read = storedSignalCells(new SignalRepository(store.db), credited.runId, result.params, scope);
    assert.ok(read, 'the convention is known');
    return { tallied: signalCells && normalised(signalCells), read: normalised(read) };
  } finally {
    store.close();
  }
}

/** The job's stored cells of `method` for `run`, and those the stored-credit read gives for the same credit. */
function jobCells(root: string, run: string, method: string): { stored: SignalCell[]; read: SignalCell[] } {
  const store = IndexStore.open(indexPath(root));
  try {
    const key = store.db
      .prepare<{ runId: number; hash: string; json: string }>(
        `SELECT p.run_id AS runId, p.params_hash AS hash, p.params_json AS json FROM credit_params p JOIN run r USING (run_id)
         WHERE (r.name = ? OR ? = '') AND p.method = ?`,
      )
      .get(run, run, method);
    assert.ok(key, `${method} credit stored for ${run}`);
    const stored = store.db
      .prepare<SignalCell>(
        `SELECT split_kind AS splitKind, train_step AS step, agent_id AS agentId, n, opposite, zero, shared_only AS sharedOnly,
           rho, no_group AS noGroup, no_credit AS noCredit, no_reward AS noReward
         FROM signal_step_agent WHERE run_id = ? AND method = ? AND params_hash = ?`,
      )
      .all(key.runId, method, key.hash);
    const params = { method, hash: key.hash, params: JSON.parse(key.json) as Record<string, unknown> };
    const read = storedSignalCells(new SignalRepository(store.db), key.runId, params, { kind: 'all' });
    assert.ok(read);
    return { stored: normalised(stored), read: normalised(read) };
  } finally {
    store.close();
  }
}

/** Total of one count over the cells. */
const total = (cells: readonly SignalCell[], count: 'n' | 'opposite' | 'noGroup' | 'noCredit'): number =>
  cells.reduce((s, c) => s + c[count], 0);

async function demoIndex(): Promise<string> {
  const root = tempFolder();
  writeDemoRun(root, { episodes: 640, routed: false, creditRun: false });
  await runIndexJob({ root, search: false });
  return root;
}

/** A run's episodes in groups that come back once closed (what the tally cannot follow). */
function interleaved(): Episode[] {
  return ['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b'].map((group, k) =>
    e16Sample(`i${String(k)}`, 1, group, k % 3 === 0 ? 1 : 0, k % 2, 0),
  );
}

/**
 * Every kind of row the read tells apart, with contiguous groups: a group spanning two steps, an
 * episode without a group, one without a step, one whose credit fails (no value for a removal and
 * no evaluator: `no_credit`, while its reward still counts in its group) and one with approximate
 * credit (a removal that was not replayed in a pipeline).
 */
function edges(): Episode[] {
  const unreplayed = { intervention: 'remove', agents: ['planner'], reward: 0, replayed: false } as const;
  return [
    ...[1, 0, 1, 1].map((r, k) => e16Sample(`g1-${String(k)}`, 1, 'g1', r, k % 2, 0)),
    e16Sample('alone', 1, undefined, 1, 0, 1),
    e16Sample('g2-0', 1, 'g2', 1, 0, 0),
    e16Sample('g2-failed', 1, 'g2', 0, 0, 0, { counterfactuals: [] }),
    e16Sample('g2-approx', 1, 'g2', 1, 0, 0, {
      counterfactuals: [unreplayed, { intervention: 'remove', agents: ['solver'], reward: 1, replayed: true }],
    }),
    e16Sample('g2-1', 1, 'g2', 0, 0, 0),
    e16Sample('span-1', 1, 'span', 1, 0, 0),
    e16Sample('span-2a', 2, 'span', 0, 0, 0),
    e16Sample('span-2b', 2, 'span', 1, 1, 0),
    e16Sample('span-2c', 2, 'span', 1, 0, 1),
    e16Sample('unstepped', 0, 'g3', 1, 0, 0, { step: undefined }),
    ...[0, 1, 1].map((r, k) => e16Sample(`g4-${String(k)}`, 2, 'g4', r, r, 1 - r)),
  ];
}

/** Episode `id` of group g at step 1, agents 1 and 2, its team reward `reward`. */
function creditEpisode(id: number, reward: number): CreditEpisode {
  const where = { uri: 'a.jsonl', offset: 0, length: 0, line: id };
  const agents = [1, 2].map((agentId) => ({ agentId, name: `a${String(agentId)}` }));
  const empty = { loggedCoalitions: new Map(), loggedCounterfactuals: [], messageAuthors: [], labels: [] };
  return {
    episodeId: id,
    externalId: `e${String(id)}`,
    runId: 1,
    step: 1,
    group: 'g',
    reward,
    groundTruth: null,
    agents,
    ...where,
    ...empty,
  };
}

function creditRow(episodeId: number, agentId: number, value: number, advantage: number): CreditRow {
  const provenance = { stderr: null, ciLow: null, ciHigh: null, n: null, intervention: null };
  return { episodeId, agentId, messageSeq: null, value, status: 'exact', source: 'logged', advantage, ...provenance };
}

describe('sign disagreement tallied as the pass writes (credit-methods.md §3.18)', () => {
  it('a NaN value (stored as NULL) is no sample, though the group advantages gave its row one', () => {
    const tally = StreamedSignalTally.of({ method: 'loo', params: { advantage: 'verl' }, hash: 'h' }, 'train');
    assert.ok(tally);
    const rewards = [1, 0, 1];
    tally.addGroup(
      rewards.map((reward, k) => ({
        episode: creditEpisode(k + 1, reward),
        rows: new Map([
          [
            'loo',
            [
              creditRow(k + 1, 1, k === 1 ? Number.NaN : reward, reward - 0.5),
              creditRow(k + 1, 2, reward, 0.5 - reward),
            ],
          ],
        ]),
      })),
    );
    const cells = tally.cells();
    assert.ok(cells, 'one step: the tally stands');
    const [first, second] = normalised(cells);
    assert.deepEqual([first?.agentId, first?.n, first?.noCredit, first?.opposite], [1, 2, 1, 0]);
    assert.deepEqual([second?.agentId, second?.n, second?.noCredit, second?.opposite], [2, 3, 0, 3]);
  });

  it('holds one step at a time, and gives up when a finished step comes back', () => {
    const tally = StreamedSignalTally.of({ method: 'loo', params: { advantage: 'verl' }, hash: 'h' }, 'train');
    assert.ok(tally);
    const group = (first: number, step: number) =>
      [1, 0].map((reward, k) => ({
        episode: { ...creditEpisode(first + k, reward), step, group: `g${String(first)}` },
        rows: new Map([['loo', [creditRow(first + k, 1, reward, reward - 0.5), creditRow(first + k, 2, 0, 0)]]]),
      }));
    tally.addGroup(group(1, 1));
    tally.addGroup(group(3, 2));
    assert.deepEqual(
      normalised(tally.cells() ?? []).map((c) => [c.step, c.agentId, c.n]),
      [
        [1, 1, 2],
        [1, 2, 2],
        [2, 1, 2],
        [2, 2, 2],
      ],
    );
    tally.addGroup(group(5, 1)); // step 1 again, after step 2 began
    assert.equal(tally.cells(), undefined);
  });

  it('loo and shapley on the demo: the tallied cells are those the stored-credit read gives, cell by cell', async () => {
    const root = await demoIndex();
    for (const method of ['loo', 'shapley'] as const) {
      const { tallied, read } = await passCells(root, 'planner-solver-verifier', { method });
      assert.ok(tallied, `${method}: a first whole pass tallies in-stream`);
      assert.equal(read.length, 20 * 3, `${method}: a cell per step and agent`);
      assert.ok(total(read, 'opposite') > 0 && total(read, 'n') > total(read, 'opposite'), 'cells that tell apart');
      assert.deepEqual(tallied, read, method);
    }
  });

  it('the job stores the tallied cells: equal to what the stored-credit read gives after it', async () => {
    const root = await demoIndex();
    await runCreditJob({ root, method: 'loo', run: 'planner-solver-verifier' });
    const { stored, read } = jobCells(root, 'planner-solver-verifier', 'loo');
    assert.equal(stored.length, 60);
    assert.deepEqual(stored, read);
  });

  it('ungrouped, unstepped, failed and approximate episodes and a group over two steps: tallied as read back', async () => {
    const root = tempFolder();
    writeFileSync(join(root, 'a.jsonl'), jsonl(...edges()));
    await runIndexJob({ root, search: false });
    const { tallied, read } = await passCells(root, onlyRun, { method: 'loo' });
    assert.ok(tallied, 'a first whole pass over contiguous groups tallies in-stream');
    assert.equal(total(read, 'noGroup'), 2, 'the ungrouped episode, both agents');
    assert.equal(total(read, 'noCredit'), 3, 'the failed episode (both agents) and the approximate planner');
    assert.deepEqual(tallied, read);
  });

  it('a pass over some steps tallies those steps only, as the read of them gives', async () => {
    const root = await demoIndex();
    const steps: [number, number] = [3, 6];
    const { tallied, read } = await passCells(
      root,
      'planner-solver-verifier',
      { method: 'loo', steps },
      {
        kind: 'steps',
        steps: [3, 4, 5, 6],
      },
    );
    assert.ok(tallied);
    assert.deepEqual([...new Set(read.map((c) => c.step))], [3, 4, 5, 6]);
    assert.deepEqual(tallied, read);
  });

  it('a pass over both splits tallies each episode under its own kind, as the read gives', async () => {
    const root = tempFolder();
    const heldOut = [1, 0, 1].map((r, k) =>
      e16Sample(`held-out-${String(k)}`, 2, 'v1', r, k % 2, 0, { split: k === 2 ? 'VAL' : 'validation' }),
    );
    writeFileSync(join(root, 'a.jsonl'), jsonl(...edges(), ...heldOut));
    await runIndexJob({ root, search: false });
    const { tallied, read } = await passCells(root, onlyRun, { method: 'loo', split: 'all' });
    assert.ok(tallied, 'a first whole pass over both kinds tallies in-stream');
    assert.deepEqual([...new Set(read.map((c) => c.splitKind))].sort(), ['train', 'validation']);
    assert.equal(
      total(
        read.filter((c) => c.splitKind === 'validation'),
        'n',
      ),
      6,
      'three held-out episodes, two agents',
    );
    assert.deepEqual(tallied, read);
  });

  it('falls back to the stored-credit read where the tally cannot stand for it', async () => {
    const cases: { name: string; lines: Episode[]; options: Omit<CreditJobOptions, 'root'> }[] = [
      { name: 'groups that come back', lines: interleaved(), options: { method: 'loo' } },
      {
        name: 'validation episodes beside the training ones',
        lines: [...edges(), e16Sample('held-out', 1, 'v1', 1, 0, 0, { split: 'validation' })],
        options: { method: 'loo' },
      },
    ];
    for (const { name, lines, options } of cases) {
      const root = tempFolder();
      writeFileSync(join(root, 'a.jsonl'), jsonl(...lines));
      await runIndexJob({ root, search: false });
      const { tallied } = await passCells(root, onlyRun, options);
      assert.equal(tallied, undefined, name);
      const again = tempFolder();
      writeFileSync(join(again, 'a.jsonl'), jsonl(...lines));
      await runIndexJob({ root: again, search: false });
      await runCreditJob({ root: again, ...options });
      const { stored, read } = jobCells(again, onlyRun, 'loo');
      assert.ok(stored.length > 0, name);
      assert.deepEqual(stored, read, name);
    }
  });

  it('a partial pass (chosen episodes, a second pass) falls back', async () => {
    const root = tempFolder();
    writeFileSync(join(root, 'a.jsonl'), jsonl(...edges()));
    await runIndexJob({ root, search: false });
    const store = IndexStore.open(indexPath(root));
    const some = store.db.prepare<{ id: number }>('SELECT episode_id AS id FROM episode LIMIT 3').all();
    store.close();
    const chosen = await passCells(root, onlyRun, { method: 'loo', episodes: some.map((e) => e.id) });
    assert.equal(chosen.tallied, undefined, 'chosen episodes');
    const whole = await passCells(root, onlyRun, { method: 'loo' });
    assert.equal(whole.tallied, undefined, 'the parameter set is stored already');
  });
});
