import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../../builders/cliRunner';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { betterSqlite3Loads, hasNodeSqlite } from '../store/sqliteFakes';

const onNodeSqlite = hasNodeSqlite && !betterSqlite3Loads;

test(
  'the CLI on node:sqlite indexes and reads an index without printing Node’s SQLite ExperimentalWarning',
  {
    skip: onNodeSqlite
      ? false
      : `the CLI opens better-sqlite3 on Node ${process.version} (scripts/testStoreOnNode.mjs runs this on Node 22 and 24)`,
  },
  (t) => {
    // What Node itself prints on loading node:sqlite (Node 22 warns; Node 24.22 no longer does).
    const bare = spawnSync(process.execPath, ['-e', "require('node:sqlite')"], { encoding: 'utf8', timeout: 30_000 });
    t.diagnostic(
      `Node ${process.version} on require('node:sqlite'): ${bare.stderr.trim() === '' ? 'no warning' : (bare.stderr.split('\n')[0] ?? '')}`,
    );
    const root = tempFolder();
    writeFileSync(join(root, 'a.jsonl'), jsonl(episode('x1'), episode('x2')));
    const index = runCli('index', root); // the worker thread opens the index
    const info = runCli('info', root, '--json'); // the main thread does
    assert.equal(index.status, 0, index.stderr);
    assert.equal(info.status, 0, info.stderr);
    assert.equal((JSON.parse(info.stdout) as { summary: { episodes: number } }).summary.episodes, 2);
    for (const run of [index, info]) assert.doesNotMatch(run.stderr, /ExperimentalWarning/);
  },
);
