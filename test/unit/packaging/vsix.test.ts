import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';

// A VSIX without the bundles or the SQLite addon fails only on activation, which no other unit test
// sees: check the packaged file list itself (`vsce ls`, as `npm run package` would pack it).
test('the VSIX contains the bundles, the SQLite addon, media and schemas, and nothing from sources or tests', () => {
  assert.ok(existsSync('dist/extension.js'), 'build first: node esbuild.mjs');
  const result = spawnSync('npx', ['vsce', 'ls', '--no-dependencies'], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(result.status, 0, result.stderr);
  const files = result.stdout.trim().split('\n').sort();
  for (const required of [
    'package.json',
    'README.md',
    'LICENSE',
    'dist/extension.js',
    'dist/indexWorker.js',
    'dist/parseWorker.js',
    'dist/webview/main.js',
    'dist/webview/episode.js',
    'dist/webview/dashboard.js',
    'dist/webview/group.js',
    'dist/webview/compare.js',
    'dist/webview/diff.js',
    'media/webview.css',
    'media/episode.css',
    'media/dashboard.css',
    'media/group.css',
    'media/compare.css',
    'media/diff.css',
    'media/credit-lens.svg',
    'schema/run.v1.schema.json',
  ]) {
    assert.ok(files.includes(required), `missing ${required}`);
  }
  assert.ok(
    files.some((f) => /^dist\/native\/better_sqlite3\.abi\d+\.node$/.test(f)),
    'no SQLite addon in dist/native',
  );
  const leaked = files.filter(
    (f) => /^(src|test|bench|scripts|webview|node_modules|docs)\//.test(f) || f.endsWith('.ts') || f.endsWith('.map'),
  );
  assert.deepEqual(leaked, []);
});
