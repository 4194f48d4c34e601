import assert from 'node:assert/strict';
import { test } from 'node:test';
import { auditValidation } from '../../bench/auditValidation';
import { indexAndAudit } from '../../bench/realAudit';
import { tempFolder } from '../builders/episodeBuilder';

// The validation of issue 4: seeded runs with injected free riders, idlers, silent and dominant
// agents and honest controls (team sizes 2–5, pipeline and vote, noise 0–0.15), audited end to end.
test('audit flags reach precision ≥ 0.9 and recall ≥ 0.85 on the seeded validation suite', async () => {
  const result = await auditValidation(tempFolder('credit-lens-validation-'), indexAndAudit);
  const overall = result.overall;
  assert.ok(overall.precision >= 0.9, `precision ${overall.precision} (${JSON.stringify(result.perKind)})`);
  assert.ok(overall.recall >= 0.85, `recall ${overall.recall} (${JSON.stringify(result.perKind)})`);
});
