import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { scanRunFolder } from '../../../../src/ingest/scanRunFolder';

// The folder layout of docs/trace-format.md §1, checked against the scanner the indexer uses.

const validDir = join(__dirname, '../../../fixtures/canonical/valid');
const manifest = JSON.stringify({ format: 'credit-lens', version: '1.0' });
const line = `${JSON.stringify({ id: 'e', messages: [] })}\n`;

function makeFolder(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'credit-lens-layout-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('run folder layout', () => {
  const made: string[] = [];
  after(() => made.forEach((root) => rmSync(root, { recursive: true, force: true })));

  test('scanRunFolder(root) reads the valid fixtures as two runs, the sub-folder one named after its folder', () => {
    const scanned = scanRunFolder(validDir);
    assert.deepEqual(
      scanned.runs.map((r) => [r.root, r.name, r.manifest?.mechanism]),
      [
        ['', 'gsm8k-pipeline-magrpo', 'pipeline'],
        ['routed', 'routed', 'routed'],
      ],
    );
    assert.deepEqual(
      scanned.files.map((f) => [f.uri, f.runRoot]),
      [
        ['minimal.jsonl', ''],
        ['pipeline.jsonl', ''],
        ['routed/routed.jsonl', 'routed'],
      ],
    );
  });

  test('scanRunFolder(root) reads *.jsonl, *.ndjson, *.json (not run.json or mapping files), *.eval and *.parquet files only', () => {
    const root = makeFolder({
      'a.jsonl': line,
      'b.ndjson': line,
      'c.json': line,
      'd.JSONL': line,
      'e.txt': line,
      'f.eval': line,
      'g.parquet': line,
      'run.json': manifest,
      'mapping.json': '{}',
      'verl.mapping.json': '{}',
    });
    made.push(root);
    assert.deepEqual(
      scanRunFolder(root).files.map((f) => f.uri),
      ['a.jsonl', 'b.ndjson', 'c.json', 'f.eval', 'g.parquet'],
    );
  });

  test('scanRunFolder(root) skips hidden folders, node_modules and the .credit-lens index folder', () => {
    const root = makeFolder({
      'keep/a.jsonl': line,
      '.hidden/a.jsonl': line,
      '.credit-lens/a.jsonl': line,
      'node_modules/pkg/a.jsonl': line,
    });
    made.push(root);
    assert.deepEqual(
      scanRunFolder(root).files.map((f) => f.uri),
      ['keep/a.jsonl'],
    );
  });

  test('scanRunFolder(root) gives files to the nearest folder above them with a run.json', () => {
    const root = makeFolder({
      'run.json': manifest,
      'top.jsonl': line,
      'eval/val.jsonl': line,
      'ablation/run.json': manifest,
      'ablation/a.jsonl': line,
      'ablation/deep/b.jsonl': line,
    });
    made.push(root);
    const scanned = scanRunFolder(root);
    assert.deepEqual(
      scanned.runs.map((r) => r.root),
      ['', 'ablation'],
    );
    assert.deepEqual(
      scanned.files.map((f) => [f.uri, f.runRoot]),
      [
        ['ablation/a.jsonl', 'ablation'],
        ['ablation/deep/b.jsonl', 'ablation'],
        ['eval/val.jsonl', ''],
        ['top.jsonl', ''],
      ],
    );
  });

  test('scanRunFolder(root) makes the indexed folder a run named after it when it has no run.json', () => {
    const root = makeFolder({ 'rollouts.jsonl': line });
    made.push(root);
    const [run] = scanRunFolder(root).runs;
    assert.equal(run?.root, '');
    assert.equal(run?.manifest, undefined);
    assert.equal(run?.name.startsWith('credit-lens-layout-'), true);
  });

  test('scanRunFolder(root) reports a run.json of an unknown major version against run.json', () => {
    const root = makeFolder({
      'old/run.json': JSON.stringify({ format: 'credit-lens', version: '2.0' }),
      'old/a.jsonl': line,
    });
    made.push(root);
    const run = scanRunFolder(root).runs.find((r) => r.root === 'old');
    assert.equal(run?.manifestIssue?.uri, 'old/run.json');
    assert.match(
      run?.manifestIssue?.reason ?? '',
      /^invalid run manifest: version: unsupported format version 2\.0: this Credit Lens reads major version 1;/,
    );
  });
});
