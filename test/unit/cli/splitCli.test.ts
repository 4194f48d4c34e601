import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, test } from 'node:test';
import { runCli as run } from '../../builders/cliRunner';
import { tempFolder } from '../../builders/episodeBuilder';

// verl's rollout/ (80 training episodes) and validation/ (12) dumps side by side (generate.py).
let root = '';

before(() => {
  root = join(tempFolder(), 'search-r1-retrieval-qwen7b');
  cpSync(resolve('test/fixtures/importers/verl/generated/search-r1-retrieval-qwen7b'), root, { recursive: true });
  assert.equal(run('index', root).status, 0);
});

const computed = (args: readonly string[]): number => {
  const result = run('credit', root, '--method', 'shared', '--json', ...args);
  assert.equal(result.status, 0, result.stderr);
  return (JSON.parse(result.stdout) as { runs: { computed: number; episodes: unknown[] }[] }).runs[0]?.computed ?? -1;
};

test('credit-lens credit works on the training split by default; --split validation and all', () => {
  assert.equal(computed([]), 80);
  assert.equal(computed(['--split', 'train']), 80);
  assert.equal(computed(['--split', 'validation']), 12);
  assert.equal(computed(['--split', 'all']), 92);
  const bad = run('credit', root, '--method', 'shared', '--split', 'dev');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--split: expected train, validation or all, got "dev"/);
});

test('credit-lens audit counts training episodes by default; --split validation and all', () => {
  const episodes = (args: readonly string[]): number => {
    const result = run('audit', root, '--json', ...args);
    assert.equal(result.status, 0, result.stderr);
    return (
      (JSON.parse(result.stdout) as { agents: { agent: string; episodes: number }[] }).agents.find(
        (a) => a.agent === 'policy',
      )?.episodes ?? -1
    );
  };
  assert.equal(episodes([]), 80);
  assert.equal(episodes(['--split', 'validation']), 12);
  assert.equal(episodes(['--split', 'all']), 92);
});
