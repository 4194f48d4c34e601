import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { runCli as run, cliPath as cli } from '../../builders/cliRunner';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';

before(() => {
  assert.ok(existsSync(cli), 'dist/cli.js missing: run `node esbuild.mjs` first');
});

/** A folder with canonical JSONL, JSONL and a JSON array of two formats described by mapping files. */
function mixedFolder(): string {
  const root = tempFolder();
  writeFileSync(join(root, 'a.jsonl'), jsonl(episode('c1'), episode('c2')));
  mkdirSync(join(root, 'logs'));
  const messages = { path: '$.turns[*]', agent: '$.who', content: '$.text' };
  writeFileSync(
    join(root, 'logs', 'chat.mapping.json'),
    JSON.stringify({
      format: 'chat-lines',
      label: 'Chat lines',
      container: 'jsonl',
      episode: { id: '$.uid' },
      messages,
    }),
  );
  writeFileSync(
    join(root, 'logs', 'dump.mapping.json'),
    JSON.stringify({
      format: 'chat-dump',
      label: 'Chat dump',
      container: 'json',
      records: 'array',
      episode: { id: '$.key' },
      messages,
    }),
  );
  writeFileSync(
    join(root, 'logs', 'day1.jsonl'),
    `${JSON.stringify({ uid: 'u1', turns: [{ who: 'planner', text: 'go' }] })}\n`,
  );
  writeFileSync(
    join(root, 'logs', 'dump.json'),
    JSON.stringify([
      { key: 'k1', turns: [{ who: 'solver', text: 'done' }] },
      { key: 'k2', turns: [] },
    ]),
  );
  return root;
}

test("credit-lens index on a folder mixing three formats reports each source's detected format (text and --json), and info too", () => {
  const root = mixedFolder();
  const indexed = run('index', root);
  assert.equal(indexed.status, 0, indexed.stderr);
  assert.match(
    indexed.stdout,
    /formats\s+chat-dump 1 file \/ 2 ep; chat-lines 1 file \/ 1 ep; credit_lens_jsonl 1 file \/ 2 ep/,
  );
  assert.match(
    indexed.stdout,
    /\n {2}sources\n {4}credit_lens_jsonl {2}a\.jsonl \(2 episodes\)\n {4}chat-lines +logs\/day1\.jsonl \(1 episode\)\n {4}chat-dump +logs\/dump\.json \(2 episodes\)\n/,
  );
  const json = JSON.parse(run('info', root, '--json').stdout);
  assert.deepEqual(json.summary.sources, [
    { file: 'a.jsonl', format: 'credit_lens_jsonl', episodes: 2, errors: 0 },
    { file: 'logs/day1.jsonl', format: 'chat-lines', episodes: 1, errors: 0 },
    { file: 'logs/dump.json', format: 'chat-dump', episodes: 2, errors: 0 },
  ]);
  assert.equal(json.summary.files, 3);
});

test('credit-lens index --format forces one importer; an unknown name fails naming the known ones; --format help lists them', () => {
  const root = mixedFolder();
  const forced = JSON.parse(run('index', root, '--format', 'credit_lens_jsonl', '--json').stdout);
  assert.deepEqual(
    forced.summary.sources.map((s: { format: string }) => s.format),
    ['credit_lens_jsonl', 'credit_lens_jsonl', 'unknown'],
  );
  const unknown = run('index', root, '--format', 'nope');
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /unknown format "nope" \(known: credit_lens_jsonl, .*chat-lines.*\)/);
  const help = run('index', '--format', 'help');
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^credit_lens_jsonl\s+Credit Lens JSONL \(jsonl\)/m);
});
