import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { formatSummary } from '../../../src/cli/formatSummary';
import { indexRunFolder } from '../../../src/ingest/indexRunFolder';
import { inferRuns } from '../../../src/ingest/runLayout';
import { scanRunFolder } from '../../../src/ingest/scanRunFolder';
import { addSideFileRules, sideFileKind } from '../../../src/ingest/sideFiles';
import { IndexStore } from '../../../src/store/indexStore';
import { tempFolder } from '../../builders/episodeBuilder';
import { parquetFixtures } from './importers/parquetFixtures';

const verlFixture = join(__dirname, '../../fixtures/importers/verl');

function write(root: string, rel: string, content: string | Buffer): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

function verlExperiment(root: string, name: string): void {
  for (const split of ['rollout', 'validation']) {
    mkdirSync(join(root, name, split), { recursive: true });
    copyFileSync(join(verlFixture, split, '12.jsonl'), join(root, name, split, '12.jsonl'));
  }
}

function runsOf(store: IndexStore): string[] {
  return store.summary.summary().runs.map((r) => `${r.root}:${r.layout ?? '-'}:${r.episodes}`);
}

test('a folder with two verl experiments is two runs, each with its rollout and validation dumps', async () => {
  const root = tempFolder();
  verlExperiment(root, 'exp-a');
  verlExperiment(root, 'exp-b');
  const store = IndexStore.open(':memory:');
  await indexRunFolder(root, store, { search: false });
  const summary = store.summary.summary();
  assert.equal(summary.errorCount, 0);
  assert.equal(summary.runs.length, 2);
  assert.deepEqual(
    summary.runs.map((r) => [r.root, r.layout]),
    [
      ['exp-a', 'verl'],
      ['exp-b', 'verl'],
    ],
  );
  assert.equal(summary.runs[0]?.episodes, summary.runs[1]?.episodes);
  assert.ok(
    formatSummary(summary).some((l) => l.includes('2 runs inferred from the layout: exp-a (verl), exp-b (verl)')),
  );
});

test('two TRL output_dirs are two runs: no cross-experiment duplicates; repeats inside one are counted, not errors', async () => {
  const root = tempFolder();
  const a = Buffer.from(parquetFixtures.a, 'base64');
  const b = Buffer.from(parquetFixtures.b, 'base64');
  write(root, 'trl-1/completions/completions_00010.parquet', a);
  write(root, 'trl-1/completions/completions_00011.parquet', b);
  write(root, 'trl-1/checkpoint-500/model.safetensors', 'weights');
  write(root, 'trl-2/completions/completions_00010.parquet', a);
  const store = IndexStore.open(':memory:');
  await indexRunFolder(root, store, { search: false });
  const summary = store.summary.summary();
  assert.deepEqual(summary.errors, []);
  assert.deepEqual(runsOf(store), ['trl-1:trl:6', 'trl-2:trl:4']);
  assert.equal(summary.repeatedRows, 2);
  assert.deepEqual(summary.otherFiles, ['trl-1/checkpoint-500/']);
  const lines = formatSummary(summary);
  assert.ok(lines.some((l) => l.includes('2 repeated rows skipped')));
  assert.ok(lines.some((l) => l.includes('completions_00011.parquet (2 episodes, 2 repeated rows skipped)')));
});

test('side files are other files with no errors, by name and by content', async () => {
  const root = tempFolder();
  verlExperiment(root, 'exp');
  write(root, 'exp/run_config.json', '{"lr": 1e-6, "model": "qwen"}');
  write(root, 'exp/config.yaml', 'lr: 1e-6\n');
  write(root, 'exp/eval_during_train.jsonl.metrics.jsonl', '{"step": 1, "acc": 0.5}\n');
  write(root, 'exp/metrics.jsonl', '{"step": 1, "loss": 0.3}\n');
  write(root, 'exp/budget_ledger.jsonl', '{"step": 1, "tokens": 10}\n');
  write(root, 'exp/episodes/meta.json', '{"n": 3}');
  write(root, 'exp/wandb/run-1/files/wandb-summary.json', '{"reward": 1}');
  write(root, 'exp/tb/events.out.tfevents.1700000000.host', 'binary');
  write(root, 'exp/global_step_10/actor/model.pt', 'weights');
  write(root, 'exp/train_stats.jsonl', '{"step": 1, "kl": 0.01, "lr": 1e-6}\n{"step": 2, "kl": 0.02, "lr": 1e-6}\n');
  const store = IndexStore.open(':memory:');
  const tally = await indexRunFolder(root, store, { search: false });
  const summary = store.summary.summary();
  assert.deepEqual(summary.errors, []);
  assert.equal(summary.errorCount, 0);
  assert.deepEqual(summary.otherFiles, [
    'exp/budget_ledger.jsonl',
    'exp/config.yaml',
    'exp/episodes/meta.json',
    'exp/eval_during_train.jsonl.metrics.jsonl',
    'exp/global_step_10/',
    'exp/metrics.jsonl',
    'exp/run_config.json',
    'exp/tb/events.out.tfevents.1700000000.host',
    'exp/train_stats.jsonl',
    'exp/wandb/',
  ]);
  assert.equal(tally.otherFiles, 10);
  assert.equal(summary.files, 2);
  assert.ok(formatSummary(summary).some((l) => l.startsWith('  other files 10')));
  const again = await indexRunFolder(root, store, { search: false });
  assert.equal(again.issues, 0);
  assert.equal(store.summary.summary().otherFiles?.length, 10);
});

test('a format adds its own side-file names', () => {
  assert.equal(sideFileKind('c3_tree_stats.json'), undefined);
  addSideFileRules([{ name: 'c3_tree_stats.json', kind: 'metrics', by: 'c3' }]);
  assert.equal(sideFileKind('c3_tree_stats.json'), 'metrics');
});

test('layout inference: C3 run folders, rLLM episodes, split names, and a note where ambiguous', () => {
  const listing = (rel: string, files: string[], folders: string[] = []) => ({
    rel,
    name: rel.slice(rel.lastIndexOf('/') + 1) || 'root',
    files,
    folders,
  });
  assert.deepEqual(
    inferRuns([
      listing('c3-a', ['run_config.json', 'train_rollouts.jsonl']),
      listing('rllm/episodes', [], ['train_step_1_epoch_1']),
      listing('sweep/lr1', ['1.jsonl']),
      listing('sweep/lr2', ['1.jsonl']),
      listing('v/validation', ['0.jsonl']),
    ]).map((r) => [r.root, r.layout, r.note !== undefined]),
    [
      ['c3-a', 'c3', false],
      ['rllm', 'rllm', false],
      ['sweep/lr1', 'verl', true],
      ['sweep/lr2', 'verl', true],
      ['v', 'verl', false],
    ],
  );
});

test('a run.json wins over the layout; files outside the inferred runs stay in the root run with a note', () => {
  const root = tempFolder();
  verlExperiment(root, 'exp-a');
  verlExperiment(root, 'declared');
  write(root, 'declared/run.json', '{"name": "declared"}');
  write(root, 'loose.jsonl', '');
  const scanned = scanRunFolder(root);
  assert.deepEqual(
    scanned.runs.map((r) => [r.root, r.layout ?? null, r.layoutNote !== undefined]),
    [
      ['', null, true],
      ['declared', null, false],
      ['exp-a', 'verl', false],
    ],
  );
  assert.deepEqual(
    scanned.files.map((f) => `${f.uri}@${f.runRoot}`),
    [
      'declared/rollout/12.jsonl@declared',
      'declared/validation/12.jsonl@declared',
      'exp-a/rollout/12.jsonl@exp-a',
      'exp-a/validation/12.jsonl@exp-a',
      'loose.jsonl@',
    ],
  );
});
