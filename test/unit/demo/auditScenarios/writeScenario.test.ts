import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { scenarioEpisodes, type ScenarioSpec } from '../../../../src/demo/auditScenarios/scenario';
import { writeScenario } from '../../../../src/demo/auditScenarios/writeScenario';
import { decodeEpisode } from '../../../../src/ingest/canonical/decodeEpisode';
import { decodeManifest } from '../../../../src/ingest/canonical/decodeManifest';

const root = mkdtempSync(join(tmpdir(), 'credit-lens-scenario-'));
after(() => rmSync(root, { recursive: true, force: true }));

const spec: ScenarioSpec = {
  seed: 3,
  teamSize: 3,
  mechanism: 'pipeline',
  noise: 0.05,
  roles: ['free-rider', 'honest', 'honest'],
  steps: 3,
  groupsPerStep: 2,
  samplesPerGroup: 4,
};

describe('writeScenario', () => {
  it('writeScenario(dir, spec) writes <dir>/<name>/run.json and one JSONL file per step', () => {
    const result = writeScenario(root, spec);
    assert.deepEqual(result, { folder: join(root, 's3-pipeline-n3-noise0.05-free-rider-honest-honest'), episodes: 24 });
    const manifest = decodeManifest(JSON.parse(readFileSync(join(result.folder, 'run.json'), 'utf8')), 'x');
    assert.ok(manifest.ok && manifest.value.name === 's3-pipeline-n3-noise0.05-free-rider-honest-honest');
    const files = readdirSync(join(result.folder, 'rollouts')).sort();
    assert.deepEqual(files, ['step_0001.jsonl', 'step_0002.jsonl', 'step_0003.jsonl']);
    const lines = files.flatMap((file) => {
      const text = readFileSync(join(result.folder, 'rollouts', file), 'utf8');
      assert.ok(text.endsWith('\n'));
      return text.slice(0, -1).split('\n');
    });
    const decoded = lines.map((line) => decodeEpisode(JSON.parse(line)));
    assert.ok(decoded.every((d) => d.ok));
    assert.deepEqual(
      lines.map((line) => JSON.parse(line)),
      JSON.parse(JSON.stringify([...scenarioEpisodes(spec)])),
    );
  });

  it('writeScenario(dir, spec) replaces an earlier copy of the folder', () => {
    const { folder } = writeScenario(root, spec);
    writeFileSync(join(folder, 'rollouts', 'step_0009.jsonl'), '{}\n');
    writeScenario(root, { ...spec, steps: 2 });
    assert.ok(!existsSync(join(folder, 'rollouts', 'step_0009.jsonl')));
    assert.deepEqual(readdirSync(join(folder, 'rollouts')).sort(), ['step_0001.jsonl', 'step_0002.jsonl']);
  });
});
