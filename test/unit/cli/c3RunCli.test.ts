// Issue 12 (C3): a run folder as C3 writes it, end to end through the built CLI.
import assert from 'node:assert/strict';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { scanRunFolder } from '../../../src/ingest/scanRunFolder';
import { cliPath as cli, runCli as run } from '../../builders/cliRunner';
import { tempFolder } from '../../builders/episodeBuilder';

const c3Run = join(import.meta.dirname, '..', '..', 'fixtures', 'importers', 'c3', 'run');

before(() => {
  assert.ok(existsSync(cli), 'dist/cli.js missing: run `node esbuild.mjs` first');
});

test('the scan lists C3 side files as other files, never as traces', () => {
  const scanned = scanRunFolder(c3Run);
  assert.deepEqual(
    scanned.files.map((f) => f.uri),
    ['eval_during_train.jsonl', 'train_rollouts.jsonl'],
  );
  assert.deepEqual(
    scanned.others.map((o) => o.uri),
    ['budget_ledger.jsonl', 'eval_during_train.jsonl.metrics.jsonl', 'run_config.json'],
  );
});

test('a C3 run folder indexes every leaf trajectory and eval line with no error, and audit raises no silent flag', () => {
  const root = tempFolder();
  cpSync(c3Run, root, { recursive: true });
  const indexed = run('index', root);
  assert.equal(indexed.status, 0, indexed.stderr);
  const summary = JSON.parse(run('info', root, '--json').stdout).summary;
  assert.equal(summary.errorCount, 0, JSON.stringify(summary.errors));
  // 2 steps × 2 questions × fanout [2, 2] = 16 leaves, plus 2 questions × 2 samples of eval.
  assert.equal(summary.episodes, 20);
  const audit = run('audit', root, '--json');
  assert.equal(audit.status, 0, audit.stderr);
  const report = JSON.parse(audit.stdout) as { flags: { kind: string; agent?: string }[] };
  assert.deepEqual(
    report.flags.filter((f) => f.kind === 'silent'),
    [],
  );
  assert.ok(
    report.flags.every((f) => f.agent === undefined || ['reasoner', 'actor'].includes(f.agent)),
    JSON.stringify(report.flags),
  );
  rmSync(root, { recursive: true, force: true });
});
