import assert from 'node:assert/strict';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { RunComparison } from '../../../../src/core/runComparison';
import { creditRunName, teamRunName } from '../../../../src/demo/teamEpisodes';
import { writeDemoRun } from '../../../../src/demo/writeDemoRun';
import { runAudit } from '../../../../src/engine/audit/auditJob';
import { CompareArgumentError, compareRuns } from '../../../../src/engine/compare/compareJob';
import { runIndexJob } from '../../../../src/engine/indexJob';
import { tempFolder } from '../../../builders/episodeBuilder';

const root = tempFolder();

before(async () => {
  writeDemoRun(root, { routed: false });
  await runIndexJob({ root, search: false });
  await runAudit({ root, readText: false });
});

function verifier(c: RunComparison) {
  const agent = c.agents.find((a) => a.agent === 'verifier');
  assert.ok(agent);
  return agent;
}

describe('compare on the demo: shared reward vs marginal-contribution training', () => {
  it('pairs every episode by task and GRPO rollout, and the verifier gains credit share with an interval above 0', () => {
    const c = compareRuns({ root, run: teamRunName, vsRun: creditRunName, method: 'loo' });
    assert.deepEqual(
      [c.pairing.key, c.pairing.pairs, c.pairing.unpairedA, c.pairing.unpairedB, c.pairing.ambiguousKeys],
      ['task', 1280, 0, 0, 320],
    );
    const v = verifier(c);
    assert.equal(v.share?.test, 'normal');
    assert.ok((v.share?.difference ?? NaN) > 0 && (v.share?.interval[0] ?? NaN) > 0, JSON.stringify(v.share));
    assert.ok(v.shareB > v.shareA);
    assert.ok(v.credit.interval[0] > 0, 'the verifier earns more marginal credit after the change');
    assert.equal(v.statusA, 'exact');
    assert.equal(v.sourceA, 'logged');
    // Shares are fractions of the positive credit: they add up to 1 on each side.
    const sum = (pick: (a: RunComparison['agents'][number]) => number) => c.agents.reduce((s, a) => s + pick(a), 0);
    assert.ok(Math.abs(sum((a) => a.shareA) - 1) < 1e-9 && Math.abs(sum((a) => a.shareB) - 1) < 1e-9);
  });

  it('reports the free-rider flag over steps 25–40 disappearing', () => {
    const c = compareRuns({ root, run: teamRunName, vsRun: creditRunName, method: 'loo' });
    const freeRider = c.flags.find((f) => f.kind === 'free-rider');
    assert.equal(freeRider?.agent, 'verifier');
    assert.equal(freeRider?.change, 'disappeared');
    assert.equal(freeRider?.stepsB, undefined);
    const [from, to] = freeRider?.stepsA ?? [0, 0];
    assert.ok(from >= 17 && from <= 33 && to === 40, `${from}–${to}`);
    assert.ok(
      c.flags.every((f) => f.change === 'disappeared'),
      'the credit run raises no flag',
    );
  });

  it('compares two step ranges of one run on the same code path, and the flag window decides what a range keeps', () => {
    const c = compareRuns({ root, run: teamRunName, steps: [1, 10], vsSteps: [31, 40], method: 'loo' });
    assert.equal(c.a.label, `${teamRunName} steps 1..10`);
    assert.equal(c.pairing.episodesA, 320);
    assert.equal(c.pairing.unpairedA + c.pairing.pairs, 320);
    assert.equal(c.flags.find((f) => f.kind === 'free-rider')?.change, 'appeared');
    assert.throws(() => compareRuns({ root, run: teamRunName, method: 'loo' }), CompareArgumentError);
  });

  it('compares runs of two indexed folders', async () => {
    const other = tempFolder();
    cpSync(join(root, creditRunName), join(other, creditRunName), { recursive: true });
    rmSync(join(other, creditRunName, '.credit-lens'), { recursive: true, force: true });
    await runIndexJob({ root: other, search: false });
    await runAudit({ root: other, readText: false });
    const c = compareRuns({ root, rootB: other, run: teamRunName, method: 'loo' });
    assert.equal(c.b.run, creditRunName);
    assert.equal(c.pairing.pairs, 1280);
    assert.ok((verifier(c).share?.interval[0] ?? NaN) > 0);
    assert.throws(() => compareRuns({ root, rootB: other, method: 'loo' }), /holds 2 runs .*--run/);
  });
});
