// `npm start`: writes the seeded demo runs to ./demo-run, indexes and audits them (the CLI prints a
// short summary and the verdicts), provisions code-server on first start (scripts/provision.mjs), and
// serves the demo in a browser-served VS Code with the extension installed, opening a browser when
// there is one. Later starts reuse everything. When code-server cannot be provisioned it says which
// command would, and the CLI demo and its audit stay on screen.
//
// Env: CREDIT_LENS_DEMO_DIR (default ./demo-run), PORT (default 8080, the next free one when taken), CODE_SERVER (a code-server binary to use),
// CREDIT_LENS_SERVE=0 (stop after the audit), CREDIT_LENS_NO_PROVISION=1 (install nothing),
// BROWSER (the command that opens the URL), CREDIT_LENS_DEMO_MODELS=1 (also serve the demo's agents
// as a local model server, to replay in the Episode view; scripts/demoModels.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { prepareExtension } from './e2e/prepareExtension.mjs';
import { defaultCodeServer, ensureCodeServer, explain, hasExecutable, repo } from './provision.mjs';
import { demoModelsHelp, startDemoModels, writeReplaySetting } from './demoModels.mjs';

const demo = resolve(process.env.CREDIT_LENS_DEMO_DIR ?? join(repo, 'demo-run'));
const cli = (args, stdio = 'inherit') =>
  spawnSync(process.execPath, [join(repo, 'dist/cli.js'), ...args], { stdio, encoding: 'utf8' });

const written = cli(['demo', '--out', demo, ...process.argv.slice(2)]);
if (written.status !== 0) process.exit(written.status ?? 1);
console.log('');
const audit = cli(['audit', demo], ['ignore', 'pipe', 'inherit']);
process.stdout.write(audit.stdout ?? '');
if (audit.status !== 0) process.exit(audit.status ?? 1);
// The verdicts again at the end, after the provisioning lines: one line a run, then each flag.
const verdicts = (audit.stdout ?? '')
  .split('\n')
  .filter((line) => /^Audit of |^ {2}[a-z][a-z-]+: |^ {2}no flags/.test(line));
const recap = () =>
  console.log(`\nThe audit of the demo (node bin/credit-lens.js audit demo-run):\n${verdicts.join('\n')}`);

const codeServerHome = join(repo, '.cache/code-server-home');
const models =
  process.env.CREDIT_LENS_DEMO_MODELS === '1' ? await startDemoModels(repo, await freePort(8100)) : undefined;
writeReplaySetting(join(codeServerHome, 'data', 'User', 'settings.json'), models?.url);
const modelsHelp = () => {
  if (models) console.log(`\n${demoModelsHelp(models.url, demo).join('\n')}`);
};
if (process.env.CREDIT_LENS_SERVE === '0') {
  modelsHelp();
  if (!models) process.exit(0);
  console.log('Ctrl-C stops the demo model server.');
  process.on('SIGINT', () => process.exit(0));
  await new Promise(() => undefined);
}
console.log('');
const provisioned = await ensureCodeServer(process.env.CODE_SERVER ?? defaultCodeServer);
if (!provisioned.ok) {
  explain('\nVS Code (code-server) is not available', provisioned);
  console.log('  then run `npm start` again.');
  recap();
  process.exit(0);
}
await serve(provisioned.binary);

async function serve(codeServer) {
  const started = Date.now();
  const port = await freePort(Number(process.env.PORT ?? 8080));
  const home = codeServerHome;
  const extensions = join(home, 'extensions');
  mkdirSync(join(home, 'config'), { recursive: true });
  prepareExtension(extensions, repo);
  writeFileSync(join(home, 'config', 'config.yaml'), `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const args = [
    '--config',
    join(home, 'config', 'config.yaml'),
    '--user-data-dir',
    join(home, 'data'),
    '--extensions-dir',
    extensions,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    demo,
  ];
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(demo)}`;
  const log = join(home, 'code-server.log');
  const server = spawn(codeServer, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, XDG_CONFIG_HOME: join(home, 'config') },
  });
  const output = [];
  const keep = (chunk) => output.push(String(chunk));
  server.stdout.on('data', keep);
  server.stderr.on('data', keep);
  server.on('exit', (code) => {
    writeFileSync(log, output.join(''));
    console.log(`code-server exited (${String(code)}); its log: ${log}`);
    process.exit(code ?? 0);
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
  if (!(await healthy(port, 60_000))) {
    console.log(`code-server did not answer on port ${port} within 60 s; its output:\n${output.join('').slice(-2000)}`);
    server.kill('SIGTERM');
    return;
  }
  recap();
  modelsHelp();
  console.log(`\nVS Code is serving the demo at ${url}  (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  console.log(
    "Open the Credit Lens view in the activity bar: the runs, the flags, the Run Dashboard and each episode's heatmap.",
  );
  console.log(
    `From another machine: ssh -L ${port}:127.0.0.1:${port} <this host>, then open the URL. Ctrl-C stops the server.`,
  );
  openBrowser(url);
}

/** `preferred` when it is free on loopback, else the next free port above it. */
async function freePort(preferred) {
  for (let port = preferred; port < preferred + 50; port++) {
    const free = await new Promise((done) => {
      const probe = createServer().once('error', () => done(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${preferred}–${preferred + 49}`);
}

/** Polls code-server's /healthz until it answers, up to `timeoutMs`. */
async function healthy(port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return true;
    await new Promise((wait) => setTimeout(wait, 250));
  }
  return false;
}

/** Opens `url` with $BROWSER, or xdg-open on a desktop; says nothing when neither is there. */
function openBrowser(url) {
  const opener =
    process.env.BROWSER ||
    ((process.env.DISPLAY || process.env.WAYLAND_DISPLAY) && hasExecutable('xdg-open') ? 'xdg-open' : undefined);
  if (!opener) return;
  const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}
