// The one rule of every browser suite (test/browser/harness/suite.ts), run as npm test runs it: no
// Chromium → skipped with one line; Chromium that cannot start → failed within seconds, with the
// reason; in CI a missing Chromium fails. None of them may leave the process waiting.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { test } from 'node:test';

const repo = resolve(import.meta.dirname, '..', '..', '..');

function runSuite(env: Record<string, string>): { status: number | null; out: string; ms: number } {
  const started = Date.now();
  // Without NODE_TEST_CONTEXT the child is a test run of its own, not a file of this one.
  const { NODE_TEST_CONTEXT: _, ...parent } = process.env;
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', 'test/browser/runSummary.test.ts'],
    {
      cwd: repo,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...parent, CI: '', ...env },
    },
  );
  return { status: run.status, out: run.stdout + run.stderr, ms: Date.now() - started };
}

test('without Chromium a browser suite is skipped with one line naming what to install', () => {
  const run = runSuite({ E2E_CHROMIUM: '/nonexistent/chromium' });
  assert.equal(run.status, 0, run.out);
  const skipped = run.out.split('\n').filter((l) => l.includes('# Chromium is not installed (/nonexistent/chromium)'));
  assert.equal(skipped.length, 1, run.out);
  assert.match(skipped[0] ?? '', /apt-get install -y chromium/);
});

test('a Chromium that cannot start fails the suite within seconds, with the reason', () => {
  const run = runSuite({ E2E_CHROMIUM: '/bin/false' });
  assert.equal(run.status, 1, run.out);
  assert.match(run.out, /Chromium \(\/bin\/false\) could not start/);
  assert.ok(run.ms < 30_000, `took ${String(run.ms)} ms`);
});

test('in CI a missing Chromium is a failure, not a skip', () => {
  const run = runSuite({ E2E_CHROMIUM: '/nonexistent/chromium', CI: 'true' });
  assert.equal(run.status, 1, run.out);
  assert.match(run.out, /could not start/);
});
