import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { writeDemoRun } from '../../../src/demo/writeDemoRun';
import { decodeEpisode } from '../../../src/ingest/canonical/decodeEpisode';
import { decodeManifest } from '../../../src/ingest/canonical/decodeManifest';

const root = mkdtempSync(join(tmpdir(), 'credit-lens-demo-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('writeDemoRun', () => {
  it('writeDemoRun(outDir) writes the three runs as run.json + rollouts/step_NNNN.jsonl with matching counts', () => {
    const out = join(root, 'default');
    const result = writeDemoRun(out);
    assert.deepEqual(
      result.runs.map((r) => [r.name, r.folder, r.files, r.episodes]),
      [
        ['planner-solver-verifier', join(out, 'planner-solver-verifier'), 40, 1280],
        ['planner-solver-verifier-credit', join(out, 'planner-solver-verifier-credit'), 40, 1280],
        ['routed-experts', join(out, 'routed-experts'), 20, 640],
      ],
    );
    for (const run of result.runs) {
      const manifest = decodeManifest(JSON.parse(readFileSync(join(run.folder, 'run.json'), 'utf8')), run.name);
      assert.ok(manifest.ok && manifest.value.name === run.name);
      const files = readdirSync(join(run.folder, 'rollouts')).sort();
      assert.equal(files[0], 'step_0001.jsonl');
      assert.equal(files.length, run.files);
      let lines = 0;
      let bytes = 0;
      for (const file of files) {
        const text = readFileSync(join(run.folder, 'rollouts', file), 'utf8');
        bytes += statSync(join(run.folder, 'rollouts', file)).size;
        assert.ok(text.endsWith('\n') && !text.includes('\r'), file);
        const step = Number(/step_(\d+)/.exec(file)?.[1]);
        for (const line of text.slice(0, -1).split('\n')) {
          const decoded = decodeEpisode(JSON.parse(line));
          assert.ok(decoded.ok && decoded.value.step === step, `${file}: ${decoded.ok ? 'wrong step' : decoded.error}`);
          lines++;
        }
      }
      assert.equal(lines, run.episodes);
      assert.equal(bytes, run.bytes);
    }
  });

  it('writeDemoRun(outDir, {episodes, routed: false, creditRun: false}) writes exactly that many team episodes and no other run', () => {
    const out = join(root, 'small');
    const result = writeDemoRun(out, { episodes: 100, routed: false, creditRun: false, verbose: true, rounds: 3 });
    assert.equal(result.runs.length, 1);
    assert.deepEqual(readdirSync(out), ['planner-solver-verifier']);
    const run = result.runs[0];
    assert.equal(run?.episodes, 100);
    assert.equal(run?.files, 4);
    const last = readFileSync(join(out, 'planner-solver-verifier', 'rollouts', 'step_0004.jsonl'), 'utf8');
    assert.equal(last.split('\n').length - 1, 4);
    assert.ok((run?.bytes ?? 0) / 100 >= 3072);
  });
});
