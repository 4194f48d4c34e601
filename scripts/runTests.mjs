// Runs every test/**/*.test.ts with node's test runner and tsx (Node 20's --test does not expand
// globs). No test can hang: each has 5 minutes, and the run ends when the tests do, whatever handle a
// failed test left open. Pass a path fragment to run a subset: `node scripts/runTests.mjs ingest`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

function listTests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listTests(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const filter = process.argv[2];
const files = listTests('test')
  .filter((file) => !filter || file.includes(filter))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${filter ?? 'test/**/*.test.ts'}`);
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-timeout=300000', '--test-force-exit', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
