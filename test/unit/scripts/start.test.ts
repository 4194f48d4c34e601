// `npm start` as a newcomer meets it (scripts/start.mjs): the demo, its audit verdicts, then VS Code
// serving the demo — or, when code-server cannot be had, the command that provisions it.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';

const repo = resolve(import.meta.dirname, '..', '..', '..');
const codeServer = join(repo, '.cache/code-server/node_modules/.bin/code-server');
const work = mkdtempSync(join(tmpdir(), 'credit-lens-start-'));
after(() => {
  rmSync(work, { recursive: true, force: true });
});

test('without code-server, npm start leaves the audit verdict on screen and says which command provisions it', () => {
  const demo = join(work, 'no-server');
  const run = spawnSync(process.execPath, ['scripts/start.mjs'], {
    cwd: repo,
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      ...process.env,
      CREDIT_LENS_DEMO_DIR: demo,
      CODE_SERVER: join(work, 'missing/code-server'),
      CREDIT_LENS_NO_PROVISION: '1',
    },
  });
  assert.equal(run.status, 0, run.stderr);
  assert.ok(existsSync(join(demo, '.credit-lens', 'index.sqlite')), 'the demo was indexed');
  const tail = run.stdout.slice(run.stdout.indexOf('VS Code (code-server) is not available'));
  assert.match(tail, /to do it by hand: unset CODE_SERVER, or bash scripts\/install-code-server\.sh/);
  assert.match(
    tail,
    /free-rider: verifier is idle while sharing a reward the team earns \(steps \d+–\d+\)/,
    'the verdict on the verifier is the last thing on screen',
  );
  assert.ok(run.stdout.split('\n').length < 60, `${String(run.stdout.split('\n').length)} lines printed`);
});

test(
  'with code-server, npm start serves the demo workspace and prints its URL',
  {
    skip: existsSync(codeServer)
      ? false
      : `code-server is not installed (${codeServer}); bash scripts/install-code-server.sh`,
    timeout: 120_000,
  },
  async () => {
    const demo = join(work, 'served');
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: repo,
      env: { ...process.env, CREDIT_LENS_DEMO_DIR: demo, PORT: '18180', BROWSER: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.on('exit', done));
    try {
      const url = await new Promise<string>((done, fail) => {
        const timer = setTimeout(() => {
          fail(new Error(`no URL within 90 s:\n${out}`));
        }, 90_000);
        child.stdout.on('data', () => {
          const match = /VS Code is serving the demo at (\S+)/.exec(out);
          if (match?.[1]) {
            clearTimeout(timer);
            done(match[1]);
          }
        });
      });
      assert.ok(url.includes(encodeURIComponent(demo)), url);
      const page = await fetch(url);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /workbench/i, 'the page is the VS Code workbench');
    } finally {
      child.kill('SIGINT');
      await exited;
    }
  },
);
