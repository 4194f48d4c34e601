// Runs every test/**/*.test.ts with node's test runner and tsx (Node 20's --test does not expand
// globs). No test can hang: each has 5 minutes, and the whole run has `runDeadlineMs`, after which it
// is killed and fails. Pass a path fragment to run a subset: `node scripts/runTests.mjs ingest`.
//
// Not `--test-force-exit`: under it the runner sometimes dropped the end of a file's results from
// its report with the exit code still 0 (the last three tests of one importer's file, once in two full
// runs; open-gsd/gsd-core#4031 reports the same on Node 22 and 24), so a failure there could pass.
// A file that leaves a handle open now shows as a run that does not end, and the deadline fails it.
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
/** Twice a full run's 14 minutes on two cores, well inside CI's 90. */
const runDeadlineMs = 30 * 60_000;
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-timeout=300000', ...files],
  { stdio: 'inherit', timeout: runDeadlineMs, killSignal: 'SIGKILL' },
);
if (result.error?.code === 'ETIMEDOUT') {
  console.error(
    `runTests: the test run did not end within ${runDeadlineMs / 60_000} minutes: ` +
      'a test file kept its process alive after its tests (an open handle)',
  );
} else if (result.error || result.signal) {
  console.error(
    `runTests: the test runner ${result.error ? `failed: ${result.error.message}` : `ended by ${result.signal}`}`,
  );
}
process.exit(result.error || result.signal ? 1 : (result.status ?? 1));
