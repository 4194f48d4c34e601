// Runs the end-to-end suite (test/e2e/*.e2e.ts) against a real code-server (docs/e2e.md): by
// default 4.100.3 (VS Code 1.100, Node 20, better-sqlite3); CODE_SERVER_VERSION=4.139.1 the newest
// (VS Code 1.139, Node 24, where the extension must fall back to node:sqlite).
//
//   bash scripts/install-code-server.sh && node esbuild.mjs && node scripts/e2e/run.mjs
//   bash scripts/install-code-server.sh 4.139.1 && CODE_SERVER_VERSION=4.139.1 node scripts/e2e/run.mjs
//
// code-server runs on the Node its package.json names (engines.node): the system Node when the
// majors agree, else the runtime scripts/nodeRuntimes.mjs provisions (Node 24 from npm).
//
// Env: CODE_SERVER (binary; default .cache/code-server/node_modules/.bin/code-server, or
//      .cache/code-server-<v>/… with CODE_SERVER_VERSION=<v>), CHROMIUM (default /usr/bin/chromium),
//      E2E_EPISODES (demo episodes per run, default 640: the smallest demo on which the verifier's
//      free-rider flag is raised; the workspace also holds copies of the tau-bench and Who&When
//      fixtures, which the tests index), KEEP_E2E_DIR=1 (keep the temporary folder with code-server's
//      logs), E2E_TEST_TIMEOUT (ms per test and for the whole suite file, which node's --test-timeout
//      also bounds; default 600000: every test has its own, shorter timeout).
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { provisionNode, RuntimeUnavailable } from '../nodeRuntimes.mjs';
import { prepareExtension } from './prepareExtension.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const defaultVersion = '4.100.3';
const version = process.env.CODE_SERVER_VERSION ?? defaultVersion;
const installDir = join(repo, '.cache', version === defaultVersion ? 'code-server' : `code-server-${version}`);
const codeServer = process.env.CODE_SERVER ?? join(installDir, 'node_modules/.bin/code-server');
const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
const episodes = process.env.E2E_EPISODES ?? '640';
const testTimeoutMs = Number(process.env.E2E_TEST_TIMEOUT ?? '600000');
/** The suite file is bounded by the test timeout; past it and five minutes more, its process is killed. */
const e2eDeadlineMs = testTimeoutMs + 5 * 60_000;
const fixtures = 'test/fixtures/importers';
const realRuns = [
  { from: `${fixtures}/tau-bench`, to: 'tau-bench' },
  // One Who&When subset, with the dataset's licence and provenance note beside it (not its other subsets).
  { from: `${fixtures}/who-and-when`, to: 'who-and-when', leaveOut: ['Algorithm-Generated', 'Synthetic'] },
];
const started = Date.now();
const log = (text) => console.log(`[e2e +${((Date.now() - started) / 1000).toFixed(1)}s] ${text}`);

function fail(message) {
  console.error(`e2e: ${message}`);
  process.exit(1);
}

// `--if-available` (npm test): outside CI, a machine without code-server or Chromium skips the suite
// and says what to install; in CI (.ci/run installs both) a missing prerequisite is a failure.
const ifAvailable = process.argv.includes('--if-available') && process.env.CI !== 'true';
function missing(message) {
  if (!ifAvailable) fail(message);
  console.log(`e2e: skipped (${message}). .ci/run installs both and runs the suite.`);
  process.exit(0);
}

// 1. Prerequisites.
if (!existsSync(codeServer))
  missing(
    `code-server not found at ${codeServer}; run \`bash scripts/install-code-server.sh ${version}\` (or set CODE_SERVER)`,
  );
if (!existsSync(chromium))
  missing(`${chromium} not found; run \`apt-get update && apt-get install -y chromium ripgrep\` (or set CHROMIUM)`);
if (!existsSync(join(repo, 'dist/extension.js')) || !existsSync(join(repo, 'dist/cli.js')))
  fail('dist/ is not built; run `node esbuild.mjs` first');
const runtime = codeServerRuntime(codeServer);
log(
  `code-server ${runtime.version} (VS Code ${runtime.vscode}) on Node ${runtime.nodeVersion}; the extension should open ${runtime.expectedDriver}`,
);

const root = mkdtempSync(join(tmpdir(), 'credit-lens-e2e-'));
const workspace = join(root, 'workspace');
const userData = join(root, 'user-data');
const extensionsDir = join(root, 'extensions');
const resultsDir = join(repo, 'test-results', 'e2e');
mkdirSync(join(userData, 'User'), { recursive: true });
mkdirSync(workspace, { recursive: true });
mkdirSync(resultsDir, { recursive: true });

let server;
let exitCode = 1;
try {
  // 2. The demo runs (the CLI also indexes them, in demo-run/.credit-lens/).
  const demo = spawnSync(
    process.execPath,
    [join(repo, 'dist/cli.js'), 'demo', '--out', join(workspace, 'demo-run'), '--episodes', episodes],
    { encoding: 'utf8' },
  );
  if (demo.status !== 0) throw new Error(`credit-lens demo failed (${demo.status}):\n${demo.stdout}${demo.stderr}`);
  log(`demo runs written to ${workspace}/demo-run (${episodes} episodes per run)`);
  copyRealRuns(workspace);
  log(`real runs copied to ${workspace}: ${realRuns.map((r) => r.to).join(', ')} (indexed by the tests)`);

  // 3. The extension: from a packaged VSIX when E2E_VSIX names one (checks what users install),
  // else unpacked from the build into a fresh --extensions-dir.
  if (process.env.E2E_VSIX) {
    const vsix = resolve(process.env.E2E_VSIX);
    const installed = spawnSync(
      runtime.node,
      [runtime.entry, '--extensions-dir', extensionsDir, '--install-extension', vsix],
      { encoding: 'utf8', env: runtime.env },
    );
    if (installed.status !== 0) throw new Error(`installing ${vsix} failed:\n${installed.stdout}${installed.stderr}`);
    log(`extension installed from ${vsix}`);
  } else {
    const extension = prepareExtension(extensionsDir, repo);
    log(`extension laid out at ${extension}`);
  }
  // The test-only probe that calls vscode.lm.invokeTool (test r); never part of the product.
  installProbe(extensionsDir);

  // 4. code-server on a free port, with a throwaway config, user-data and extensions dir.
  const port = await freePort();
  const config = join(root, 'config.yaml');
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  writeFileSync(
    join(userData, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'telemetry.telemetryLevel': 'off',
        'security.workspace.trust.enabled': false,
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'extensions.ignoreRecommendations': true,
        'update.mode': 'none',
        'workbench.tips.enabled': false,
      },
      null,
      2,
    ),
  );
  const serverLog = join(root, 'code-server.log');
  const out = openSync(serverLog, 'a');
  server = spawn(
    runtime.node,
    [
      runtime.entry,
      '--config',
      config,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--user-data-dir',
      userData,
      '--extensions-dir',
      extensionsDir,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      workspace,
    ],
    { detached: true, stdio: ['ignore', out, out], env: { ...runtime.env, XDG_CONFIG_HOME: join(root, 'xdg-config') } },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(`${url}/healthz`, 30_000);
  log(`code-server ${url} healthy (log: ${serverLog})`);

  // 5. The tests, in a child node with tsx; they launch Chromium on E2E_URL.
  const args = process.argv.slice(2).filter((a) => a !== '--if-available');
  const testFiles = args.length > 0 ? args : [join(repo, 'test/e2e/extension.e2e.ts')];
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=1', `--test-timeout=${testTimeoutMs}`, ...testFiles],
    {
      cwd: repo,
      stdio: 'inherit',
      // Not --test-force-exit (it can drop a file's last results from the report with the exit code
      // still 0; scripts/runTests.mjs): a test process still alive after this is killed and fails.
      timeout: e2eDeadlineMs,
      killSignal: 'SIGKILL',
      env: {
        ...process.env,
        E2E_URL: `${url}/?folder=${encodeURIComponent(workspace)}`,
        E2E_WORKSPACE: workspace,
        E2E_USER_DATA: userData,
        E2E_ROOT: root,
        E2E_RESULTS: resultsDir,
        E2E_CHROMIUM: chromium,
        E2E_EXPECT_SQLITE_DRIVER: runtime.expectedDriver,
      },
    },
  );
  if (result.error?.code === 'ETIMEDOUT')
    throw new Error(`the tests did not end within ${e2eDeadlineMs / 60_000} minutes`);
  if (result.error || result.signal)
    throw new Error(`the test runner ${result.error?.message ?? `ended by ${result.signal}`}`);
  exitCode = result.status ?? 1;
  log(`tests finished with exit code ${exitCode}; screenshots in ${resultsDir}`);
  log(`the extension's log says: ${driverLine(userData) ?? 'no "SQLite driver:" line'}`);
} catch (error) {
  console.error(`e2e: ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
} finally {
  if (server?.pid !== undefined) {
    try {
      process.kill(-server.pid, 'SIGTERM'); // the whole process group, extension host included
    } catch {
      // already gone
    }
    await new Promise((r) => setTimeout(r, 500));
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  if (process.env.KEEP_E2E_DIR === '1') log(`kept ${root}`);
  else rmSync(root, { recursive: true, force: true });
}
process.exit(exitCode);

/**
 * Third-party runs the tests index from the Explorer (issue 16: views on real data): step-less
 * tau-bench trajectories, and one Who&When subset (Hand-Crafted: 8 Magentic-One failures) with its
 * licence. Each is its own run folder of the workspace, without an index.
 */
function copyRealRuns(into) {
  for (const { from, to, leaveOut = [] } of realRuns) {
    const source = join(repo, from);
    const filter = (path) => !leaveOut.some((name) => path === join(source, name));
    cpSync(source, join(into, to), { recursive: true, filter });
  }
}

/**
 * How to run `bin` (a code-server install's node_modules/.bin/code-server): its entry script, the
 * Node its package.json asks for (the system Node when the majors agree, else a provisioned one),
 * an environment with that Node first on PATH (for the processes code-server starts), and the
 * SQLite driver the extension must then open: better-sqlite3 when the build ships its addon for
 * that Node's ABI, else node:sqlite.
 */
function codeServerRuntime(bin) {
  const entry = realpathSync(bin);
  const packageDir = resolve(dirname(entry), '..', '..');
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const vscode = JSON.parse(readFileSync(join(packageDir, 'lib/vscode/package.json'), 'utf8')).version;
  const major = /\d+/.exec(manifest.engines?.node ?? '')?.[0] ?? process.versions.node.split('.')[0];
  let node = process.execPath;
  if (major !== process.versions.node.split('.')[0]) {
    try {
      node = provisionNode(major, { log });
    } catch (error) {
      const message = `code-server ${manifest.version} needs Node ${major}: ${error instanceof Error ? error.message : String(error)}`;
      if (error instanceof RuntimeUnavailable) missing(message);
      fail(message);
    }
  }
  const probe = spawnSync(node, ['-p', 'process.version + " " + process.versions.modules'], { encoding: 'utf8' });
  const [nodeVersion, abi] = probe.stdout.trim().split(' ');
  const expectedDriver = existsSync(join(repo, 'dist/native', `better_sqlite3.abi${abi}.node`))
    ? 'better-sqlite3'
    : 'node:sqlite';
  const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ''}` };
  return { entry, node, nodeVersion, version: manifest.version, vscode, expectedDriver, env };
}

/** The "SQLite driver: …" line of the Credit Lens log channel under the user-data dir, if any. */
function driverLine(userDataDir) {
  const logs = join(userDataDir, 'logs');
  if (!existsSync(logs)) return undefined;
  const walk = (dir) =>
    readdirSync(dir).flatMap((name) =>
      statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)],
    );
  for (const file of walk(logs).filter((f) => f.includes('credit-lens.credit-lens') && f.endsWith('.log'))) {
    const line = readFileSync(file, 'utf8')
      .split('\n')
      .find((l) => l.includes('SQLite driver: '));
    if (line) return line.trim();
  }
  return undefined;
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitForHealth(healthUrl, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await globalThis.fetch(healthUrl);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (server.exitCode !== null) throw new Error(`code-server exited with ${server.exitCode} before it was healthy`);
    if (Date.now() > deadline) throw new Error(`code-server not healthy at ${healthUrl} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Lays out the test-only probe extension (test/e2e/lmToolsProbe) in `extensionsDir`. Once
 * `--install-extension` has written an extensions.json (the VSIX run), VS Code loads only the
 * extensions listed there, so the probe is listed too, as the installer lists a VSIX.
 */
function installProbe(extensionsDir) {
  const folder = 'credit-lens-e2e.lm-tools-probe-0.0.1';
  const location = join(extensionsDir, folder);
  cpSync(join(repo, 'test', 'e2e', 'lmToolsProbe'), location, { recursive: true });
  const listFile = join(extensionsDir, 'extensions.json');
  if (!existsSync(listFile)) return;
  const listed = JSON.parse(readFileSync(listFile, 'utf8'));
  const url = pathToFileURL(location);
  listed.push({
    identifier: { id: 'credit-lens-e2e.lm-tools-probe' },
    version: '0.0.1',
    location: { $mid: 1, fsPath: location, external: url.href, path: url.pathname, scheme: 'file' },
    relativeLocation: folder,
    metadata: { installedTimestamp: Date.now(), source: 'vsix' },
  });
  writeFileSync(listFile, JSON.stringify(listed));
}
