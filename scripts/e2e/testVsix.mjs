// The end-to-end suite once more, against the packaged VSIX instead of the unpacked build: packs it
// (`npm run package`: production bundles, the SQLite addon in dist/native, no node_modules), installs
// it into a fresh code-server and runs the same tests. Catches a VSIX that would fail on activation.
// Like run.mjs --if-available, it is skipped outside CI when code-server or Chromium is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const codeServer = process.env.CODE_SERVER ?? join(repo, '.cache/code-server/node_modules/.bin/code-server');
const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
if ((!existsSync(codeServer) || !existsSync(chromium)) && process.env.CI !== 'true') {
  console.log(
    'vsix e2e: skipped (code-server or Chromium missing; see docs/e2e.md). .ci/run installs both and runs it.',
  );
  process.exit(0);
}
const run = (command, args, env = {}) => {
  const result = spawnSync(command, args, { cwd: repo, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
run('npm', ['run', '-s', 'package']);
const vsix = readdirSync(join(repo, 'dist-vsix')).find((name) => name.endsWith('.vsix'));
if (!vsix) throw new Error('npm run package produced no .vsix in dist-vsix/');
run(process.execPath, [join(repo, 'scripts/e2e/run.mjs')], { E2E_VSIX: join(repo, 'dist-vsix', vsix) });
