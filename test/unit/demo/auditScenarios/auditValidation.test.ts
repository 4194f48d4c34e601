import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { auditValidation, formatValidation, type AuditReport } from '../../../../bench/auditValidation';
import { scenarioTruth } from '../../../../src/demo/auditScenarios/scenario';
import { scenarioName } from '../../../../src/demo/auditScenarios/scenarioPlan';
import { validationSuite } from '../../../../src/demo/auditScenarios/scenarioSuite';

const root = mkdtempSync(join(tmpdir(), 'credit-lens-validation-'));
after(() => rmSync(root, { recursive: true, force: true }));

const specs = new Map(validationSuite().map((spec) => [scenarioName(spec), spec]));

/** An oracle that reads the truth back (what a perfect auditor reports), as one flag per window. */
async function oracle(folder: string): Promise<AuditReport> {
  const spec = specs.get(basename(folder));
  assert.ok(spec, folder);
  const manifest = JSON.parse(readFileSync(join(folder, 'run.json'), 'utf8')) as { name: string };
  const flags = scenarioTruth(spec).flatMap((t) =>
    t.steps
      ? [
          { ...t, steps: [t.steps[0], t.steps[0] + 1] as const },
          { ...t, steps: [t.steps[0] + 2, t.steps[1]] as const },
        ]
      : [t],
  );
  return Promise.resolve({ runs: [{ run: manifest.name, flags }] });
}

describe('auditValidation', () => {
  it('auditValidation(workDir, oracle) scores precision and recall 1 over the whole suite', async () => {
    const result = await auditValidation(root, oracle);
    assert.equal(result.scenarios, 24);
    assert.equal(result.episodes, 17_920);
    assert.deepEqual(result.overall, { tp: result.overall.tp, fp: 0, fn: 0, precision: 1, recall: 1 });
    assert.ok(result.overall.tp >= 40);
    assert.ok((result.perKind['free-rider']?.tp ?? 0) >= 10);
    const table = formatValidation(result);
    assert.match(table, /^Audit validation: 24 scenarios, 17,920 episodes/);
    assert.match(table, /\| idle \| 6 \| 0 \| 0 \| 1\.000 \| 1\.000 \|/);
    assert.match(table, /\| \*\*overall\*\* \| \d+ \| 0 \| 0 \| 1\.000 \| 1\.000 \|/);
  });

  it('an auditor that flags nothing has recall 0; one that flags everyone has low precision', async () => {
    const silent = await auditValidation(root, () => Promise.resolve({ runs: [{ run: 'x', flags: [] }] }));
    assert.equal(silent.overall.recall, 0);
    assert.equal(silent.overall.precision, 1);
    const eager = await auditValidation(root, (folder) => {
      const manifest = JSON.parse(readFileSync(join(folder, 'run.json'), 'utf8')) as { agents: { name: string }[] };
      return Promise.resolve({
        runs: [{ run: 'x', flags: manifest.agents.map((a) => ({ kind: 'free-rider', agent: a.name })) }],
      });
    });
    assert.ok((eager.perKind['free-rider']?.precision ?? 1) < 0.5);
  });

  it('auditValidation rejects flags on undeclared agents and reports without the run', async () => {
    await assert.rejects(
      auditValidation(root, () => Promise.resolve({ runs: [{ run: 'x', flags: [{ kind: 'idle', agent: '0' }] }] })),
      /does not declare/,
    );
    await assert.rejects(
      auditValidation(root, () => Promise.resolve({ runs: [] })),
      /reported no run/,
    );
  });
});
