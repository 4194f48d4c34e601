// `credit-lens influence`, end to end through the built CLI on the canonical pipeline fixture.
import assert from 'node:assert/strict';
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { cliPath as cli, runCli as run } from '../../builders/cliRunner';
import { tempFolder } from '../../builders/episodeBuilder';

const valid = join(import.meta.dirname, '..', '..', 'fixtures', 'canonical', 'valid');

before(() => {
  assert.ok(existsSync(cli), 'dist/cli.js missing: run `node esbuild.mjs` first');
});

function indexedFixture(): string {
  const root = tempFolder();
  cpSync(join(valid, 'pipeline.jsonl'), join(root, 'pipeline.jsonl'));
  cpSync(join(valid, 'run.json'), join(root, 'run.json'));
  assert.equal(run('index', root, '--no-search').status, 0);
  return root;
}

test('influence --episode --json gives the logged weights and the logged removal of one episode', () => {
  const root = indexedFixture();
  const result = run('influence', root, '--episode', 's12-q0042-0', '--json');
  assert.equal(result.status, 0, result.stderr);
  const { graphs } = JSON.parse(result.stdout) as {
    graphs: {
      episode: string;
      graph: { edges: { from: string; to: string | null; kind: string; value: number; exact: boolean }[] };
    }[];
  };
  assert.equal(graphs.length, 1);
  const edges = graphs[0]?.graph.edges.map((e) => `${e.from}>${e.to ?? 'outcome'} ${e.kind} ${String(e.value)}`);
  // messages[1] (solver) draws on [0] with 0.7; messages[2] (verifier) on [0] and [1] with 0.1 and 0.9.
  assert.ok(edges?.includes('planner>solver logged 0.7'), String(edges));
  assert.ok(edges?.includes('planner>verifier logged 0.1'), String(edges));
  assert.ok(edges?.includes('solver>verifier logged 0.9'), String(edges));
  // The fixture logs the planner's removal (replayed): v(N) − v(N∖{planner}) = 1 − 0.4.
  assert.ok(edges?.includes('planner>outcome counterfactual 0.6'), String(edges));
});

test('influence --db reads the index given, outside the run folder', () => {
  const root = tempFolder();
  cpSync(join(valid, 'pipeline.jsonl'), join(root, 'pipeline.jsonl'));
  cpSync(join(valid, 'run.json'), join(root, 'run.json'));
  const db = join(tempFolder(), 'elsewhere.sqlite');
  assert.equal(run('index', root, '--no-search', '--db', db).status, 0);
  assert.equal(run('influence', root).status, 1, 'no index in the folder itself');
  const result = run('influence', root, '--episode', 's12-q0042-0', '--db', db);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /planner → solver {2}\+0\.700 {2}logged/);
});

test('influence names the missing episode and exits 1; a bad --step is a usage error', () => {
  const root = indexedFixture();
  const missing = run('influence', root, '--episode', 'nope');
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /no episode "nope"/);
  const bad = run('influence', root, '--step', 'x');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--step/);
  const text = run('influence', root);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /influence is not credit/);
});
