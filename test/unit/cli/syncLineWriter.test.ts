import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

// The CLI's stdout writer (src/cli/syncLineWriter.ts) in a child process writing to a real pipe:
// the lines arrive whole and in order, a reader that falls behind holds the writer back (nothing
// piles up in memory), and a closed pipe ends quietly.
const writerModule = resolve('src/cli/syncLineWriter.ts');
/** About 40 MB of output: 40,000 lines of 1,000 characters, against a pipe that holds 64 KB. */
const lines = 40_000;
const line = (i: number): string => `${String(i).padStart(8, '0')} ${'x'.repeat(991)}`;

interface ChildRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
  /** What the child wrote to stderr before its stdout was first read. */
  readonly beforeReading: string;
}

/** Runs a child writing {@link lines} lines through the writer; its pipe is left unread for `lagMs`, or closed after `closeAfter` bytes. */
async function runChild(options: { lagMs?: number; closeAfter?: number } = {}): Promise<ChildRun> {
  const code = `const { syncLineWriter } = require(${JSON.stringify(writerModule)});
    const out = syncLineWriter(1, () => { process.stderr.write('closed\\n'); process.exit(0); });
    for (let i = 0; i < ${lines}; i++) out(String(i).padStart(8, '0') + ' ' + 'x'.repeat(991));
    process.stderr.write('written\\n');`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('close', done));
  child.stdout.pause();
  if (options.lagMs !== undefined) await sleep(options.lagMs);
  const beforeReading = stderr;
  const chunks: Buffer[] = [];
  let received = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    received += chunk.length;
    if (options.closeAfter !== undefined && received >= options.closeAfter) child.stdout.destroy();
  });
  child.stdout.resume();
  const exit = await exited;
  return { stdout: Buffer.concat(chunks).toString(), stderr, code: exit, beforeReading };
}

test('every line arrives whole and in order through a pipe read late', { timeout: 120_000 }, async () => {
  const run = await runChild({ lagMs: 500 });
  assert.equal(run.code, 0, run.stderr);
  const got = run.stdout.split('\n');
  assert.equal(got.length, lines + 1, 'every line and the final newline');
  assert.ok(
    got.slice(0, lines).every((l, i) => l === line(i)),
    'in order',
  );
});

test(
  'a reader that falls behind holds the writer back: it cannot finish before reading starts',
  { timeout: 120_000 },
  async () => {
    // process.stdout.write would queue the 40 MB in memory and report at once; the writer waits.
    const run = await runChild({ lagMs: 1500 });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.beforeReading, /written/, 'the child was still writing when reading began');
    assert.match(run.stderr, /written/);
    assert.equal(run.stdout.split('\n').length, lines + 1);
  },
);

test(
  'a reader that closes the pipe early (… | head): onClosed runs and the child exits 0',
  { timeout: 120_000 },
  async () => {
    const run = await runChild({ closeAfter: 10_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /closed/);
    assert.doesNotMatch(run.stderr, /Error|EPIPE|written/);
  },
);
