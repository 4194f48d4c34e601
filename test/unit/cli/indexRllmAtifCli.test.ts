import assert from 'node:assert/strict';
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { runCli as run, cliPath as cli } from '../../builders/cliRunner';
import { tempFolder } from '../../builders/episodeBuilder';

before(() => {
  assert.ok(existsSync(cli), 'dist/cli.js missing: run `node esbuild.mjs` first');
});

interface Source {
  file: string;
  format: string;
  episodes: number;
  errors: number;
}

function indexFixture(name: string): Source[] {
  const root = tempFolder();
  cpSync(join(__dirname, '../../fixtures/importers', name), join(root, name), { recursive: true });
  const indexed = run('index', root);
  assert.equal(indexed.status, 0, indexed.stderr);
  assert.match(indexed.stdout, /errors\s+0\n/);
  return (JSON.parse(run('info', root, '--json').stdout) as { summary: { sources: Source[] } }).summary.sources;
}

test('credit-lens index reads rLLM training and eval episodes without a mapping file; meta.json is not an error', () => {
  const sources = indexFixture('rllm');
  const episodes = sources.filter((s) => s.file.endsWith('.json') && !/meta\.json|batch_summary/.test(s.file));
  assert.equal(episodes.length, 6);
  for (const s of sources.filter((x) => x.format !== 'other_file'))
    assert.deepEqual([s.format, s.errors], ['rllm', 0], s.file);
  // meta.json is a side file of the eval store: listed as an other file, never read as a trace or an error.
  const meta = sources.find((s) => s.file === 'rllm/eval/meta.json');
  assert.ok(meta === undefined || (meta.errors === 0 && meta.episodes === 0), JSON.stringify(meta));
});

test('credit-lens index reads a Harbor ATIF run without a mapping file: one episode, sub-agents as agents, the continuation joined', () => {
  const sources = indexFixture('atif');
  for (const s of sources.filter((x) => x.file.endsWith('.json')))
    assert.deepEqual([s.format, s.errors], ['atif', 0], s.file);
  assert.deepEqual(
    sources.filter((s) => s.episodes > 0).map((s) => [s.file, s.episodes]),
    [['atif/run-1/trajectory.json', 1]],
  );
});

test('a mapping file reads a wandb table (MARTI): array rows named by the root "columns"', () => {
  const sources = indexFixture('mapping/marti');
  assert.deepEqual(sources, [
    { file: 'mapping/marti/samples_10.table.json', format: 'marti-wandb', episodes: 3, errors: 0 },
  ]);
});

test('a mapping file reads MAPoRL data.json: questions and models are object keys, one message per model per turn', () => {
  const sources = indexFixture('mapping/maporl');
  assert.deepEqual(sources, [{ file: 'mapping/maporl/data.json', format: 'maporl', episodes: 2, errors: 0 }]);
});
