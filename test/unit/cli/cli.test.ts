import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { runCli as run, cliPath as cli } from '../../builders/cliRunner';
import { episode, episodes, jsonl, tempFolder } from '../../builders/episodeBuilder';

before(() => {
  assert.ok(existsSync(cli), 'dist/cli.js missing: run `node esbuild.mjs` first');
});

test('credit-lens index then info --json report the same counts, and bad lines do not fail the command', () => {
  const root = tempFolder();
  writeFileSync(join(root, 'a.jsonl'), `${jsonl(...episodes(0, 3))}{not json\n${jsonl(episode('e9'))}`);
  const indexed = run('index', root);
  assert.equal(indexed.status, 0, indexed.stderr);
  assert.match(indexed.stdout, /episodes\s+4/);
  assert.match(indexed.stdout, /a\.jsonl:4: invalid JSON/);
  const info = run('info', root, '--json');
  assert.equal(info.status, 0, info.stderr);
  const summary = JSON.parse(info.stdout).summary;
  assert.equal(summary.episodes, 4);
  assert.equal(summary.messages, 8);
  assert.equal(summary.errorCount, 1);
  assert.deepEqual(summary.errors[0], { file: 'a.jsonl', line: 4, reason: summary.errors[0].reason });
  assert.ok(existsSync(join(root, '.credit-lens', 'index.sqlite')));
});

test('credit-lens index imports exactly the lines appended between runs', () => {
  const root = tempFolder();
  const file = join(root, 'steps.jsonl');
  writeFileSync(file, jsonl(...episodes(0, 5)));
  run('index', root);
  appendFileSync(file, `${jsonl(...episodes(5, 8))}{"id":"e8","messa`);
  const second = JSON.parse(run('index', root, '--json').stdout);
  assert.equal(second.pass.episodesAdded, 3);
  assert.equal(second.summary.episodes, 8);
  appendFileSync(file, `ges":[]}\n`);
  const third = JSON.parse(run('index', root, '--json').stdout);
  assert.equal(third.pass.episodesAdded, 1);
  assert.equal(third.summary.episodes, 9);
  assert.equal(third.summary.errorCount, 0);
});

test('credit-lens index --db writes the index where asked', () => {
  const root = tempFolder();
  writeFileSync(join(root, 'a.jsonl'), jsonl(episode('x')));
  const db = join(tempFolder(), 'nested', 'custom.sqlite');
  assert.equal(run('index', root, '--db', db).status, 0);
  assert.ok(existsSync(db));
  assert.equal(JSON.parse(run('info', root, '--db', db, '--json').stdout).summary.episodes, 1);
});

test('credit-lens exits 1 with a clear message on a fatal error and 2 on bad usage', () => {
  const missing = run('index', join(tempFolder(), 'nope'));
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /run folder not found/);
  const root = tempFolder();
  mkdirSync(join(root, 'r'));
  writeFileSync(join(root, 'r', 'run.json'), '{"format": "credit-lens", "version": "9.1"}');
  writeFileSync(join(root, 'r', 'a.jsonl'), jsonl(episode('x')));
  const future = run('index', root);
  assert.equal(future.status, 1);
  assert.match(future.stderr, /r\/run\.json:0: invalid run manifest: version: unsupported format version 9\.1/);
  assert.equal(run('frobnicate').status, 2);
  assert.equal(run('index').status, 2);
  assert.equal(run('info', tempFolder()).status, 1);
});

test('credit-lens demo writes the three demo runs, indexes them, and a second pass reads nothing', () => {
  const out = join(tempFolder(), 'demo');
  const first = run('demo', '--out', out, '--episodes', '96', '--json');
  assert.equal(first.status, 0, first.stderr);
  const result = JSON.parse(first.stdout);
  assert.deepEqual(
    result.summary.runs.map((r: { name: string; mechanism: string; episodes: number }) => [
      r.name,
      r.mechanism,
      r.episodes,
    ]),
    [
      ['planner-solver-verifier', 'pipeline', 96],
      ['planner-solver-verifier-credit', 'pipeline', 96],
      ['routed-experts', 'routed', 640],
    ],
  );
  assert.equal(result.summary.errorCount, 0);
  assert.equal(result.summary.searchableEpisodes, 832);
  const again = JSON.parse(run('index', out, '--json').stdout);
  assert.equal(again.pass.bytesRead, 0);
  assert.equal(again.pass.filesUnchanged, again.pass.filesTotal);
});
