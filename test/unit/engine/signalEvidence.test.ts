import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeDemoRun } from '../../../src/demo/writeDemoRun';
import { runAudit } from '../../../src/engine/audit/auditJob';
import { runIndexJob } from '../../../src/engine/indexJob';
import { flagEvidenceRows, flagMessage } from '../../../src/engine/report/flagEvidence';
import { IndexStore } from '../../../src/store/indexStore';
import { tempFolder } from '../../builders/episodeBuilder';

describe('audit evidence: sign disagreement over a flagged window (credit-methods.md §3.18)', () => {
  it('the demo verifier (free-rider 25–40): every sample unpushed by its own LOO, the shared reward pushing the non-constant groups', async () => {
    const root = tempFolder();
    writeDemoRun(root, { episodes: 1280, routed: false });
    await runIndexJob({ root, search: false });
    const report = (await runAudit({ root, readText: false })).runs.find((r) => r.run === 'planner-solver-verifier');
    const flag = report?.flags.find((f) => f.kind === 'free-rider');
    assert.ok(flag?.steps, 'the verifier is flagged free-rider');
    const [from, to] = flag.steps;
    const signal = flag.evidence['signal'] as Record<string, number | string>;
    // Oracle from the episodes alone: 32 samples a step; the shared reward pushes exactly the episodes
    // of groups whose rewards differ (a constant group has advantage 0 for every rollout, §3.15).
    const store = IndexStore.open(join(root, '.credit-lens', 'index.sqlite'));
    const oracle = store.db
      .prepare<{ n: number; pushed: number }>(
        `SELECT count(*) AS n, sum(g.lo <> g.hi) AS pushed FROM episode e
         JOIN (SELECT run_id, train_step, group_id, min(outcome) AS lo, max(outcome) AS hi FROM episode GROUP BY 1, 2, 3) g
           ON g.run_id = e.run_id AND g.train_step = e.train_step AND g.group_id = e.group_id
         JOIN run r ON r.run_id = e.run_id WHERE r.name = 'planner-solver-verifier' AND e.train_step BETWEEN ? AND ?`,
      )
      .get(from, to);
    store.close();
    assert.ok(oracle && oracle.n === 32 * (to - from + 1));
    assert.deepEqual(
      [
        signal['method'],
        signal['from'],
        signal['to'],
        signal['n'],
        signal['opposite'],
        signal['zero'],
        signal['sharedOnly'],
      ],
      ['loo', from, to, oracle.n, 0, oracle.n, oracle.pushed],
    );
    const pushed = `${String(Number(((100 * oracle.pushed) / oracle.n).toPrecision(3)))}%`;
    assert.ok(
      flagMessage(flag).includes(
        `in steps ${String(from)}–${String(to)}, 0% of verifier's ${String(oracle.n)} samples were pushed the wrong way by the shared reward, and ${pushed} were pushed by it while verifier's own loo advantage was 0`,
      ),
      flagMessage(flag),
    );
    const decoupling = report?.flags.find((f) => f.kind === 'decoupling');
    assert.equal(decoupling?.evidence['signal'], undefined, 'only idle and free-rider windows carry it');
  });

  it('flag text: the window, the wrong-way share and the samples in words; nothing when none is stored', () => {
    const evidence = {
      meanCredit: 0.01,
      n: 100,
      signal: {
        method: 'shapley',
        from: 3,
        to: 9,
        n: 50,
        opposite: 19,
        zero: 5,
        sharedOnly: 0,
        wrongWay: 0.38,
        noPush: 0.1,
        sharedOnlyShare: 0,
      },
    };
    const flag = { kind: 'idle', agent: 'critic', scope: 'step', steps: [3, 9] as const, evidence };
    assert.match(
      flagMessage(flag),
      /; in steps 3–9, 38% of critic's 50 samples were pushed the wrong way by the shared reward$/,
    );
    const row = flagEvidenceRows(evidence).find((r) => r.label === 'shared reward vs own signal');
    assert.equal(row?.value, "38% of the agent's 50 samples were pushed the wrong way by the shared reward");
    assert.doesNotMatch(flagMessage({ ...flag, evidence: { meanCredit: 0.01, n: 100 } }), /pushed/);
  });
});
