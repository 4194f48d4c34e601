// What `npm start` and `npm test` need beyond npm ci, provisioned the offline way this project uses
// (docs/e2e.md): Debian packages through apt when running as root, code-server through
// scripts/install-code-server.sh into .cache/. Each step prints one progress line and the time it
// took, keeps its chatter in .cache/provision.log, and answers either `{ ok: true }` or
// `{ ok: false, reason, command }`: the command a person runs to do it by hand.
// CREDIT_LENS_NO_PROVISION=1 turns installing off (a step then only checks).
//
//   node scripts/provision.mjs test      # Chromium + ripgrep + code-server, for npm test
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const provisionLog = join(repo, '.cache', 'provision.log');
export const defaultCodeServer = join(repo, '.cache/code-server/node_modules/.bin/code-server');

/** Debian packages and the file each one provides. */
const debianFiles = { chromium: '/usr/bin/chromium', ripgrep: 'rg' };

/** True when `name` is an executable path that exists, or a command on PATH. */
export function hasExecutable(name) {
  if (name.startsWith('/')) return existsSync(name);
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

const provisioningOff = () => process.env.CREDIT_LENS_NO_PROVISION === '1';
const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
const aptCommand = (packages) => `apt-get update && apt-get install -y ${packages.join(' ')}`;

/**
 * Makes sure the Debian `packages` are installed: installs the missing ones with apt when running as
 * root, else answers the apt command to run.
 */
export async function ensureDebianPackages(packages) {
  const missing = packages.filter((p) => !hasExecutable(debianFiles[p] ?? p));
  if (missing.length === 0) return { ok: true };
  const command = aptCommand(missing);
  if (provisioningOff())
    return { ok: false, reason: `${missing.join(', ')} not installed (CREDIT_LENS_NO_PROVISION=1)`, command };
  if (!isRoot() || !hasExecutable('apt-get'))
    return {
      ok: false,
      reason: `${missing.join(', ')} not installed, and installing needs root and apt`,
      command: `sudo ${command}`,
    };
  const update = await step(`apt-get update (for ${missing.join(', ')})`, 'apt-get', ['update', '-qq']);
  const install = update.ok
    ? await step(`apt-get install ${missing.join(' ')}`, 'apt-get', ['install', '-y', '-qq', ...missing], {
        DEBIAN_FRONTEND: 'noninteractive',
      })
    : update;
  return install.ok
    ? { ok: true }
    : {
        ok: false,
        reason: `apt could not install ${missing.join(', ')} (no network to Debian's mirror?): ${install.reason}`,
        command,
      };
}

/** Makes sure code-server is installed into .cache/ (ripgrep first: its offline install needs it). */
export async function ensureCodeServer(binary = defaultCodeServer) {
  const installCommand = 'bash scripts/install-code-server.sh';
  if (existsSync(binary)) return { ok: true, binary };
  if (binary !== defaultCodeServer)
    return {
      ok: false,
      reason: `no code-server at ${binary} (CODE_SERVER)`,
      command: `unset CODE_SERVER, or ${installCommand}`,
    };
  if (provisioningOff())
    return {
      ok: false,
      reason: `code-server not installed at ${binary} (CREDIT_LENS_NO_PROVISION=1)`,
      command: installCommand,
    };
  const rg = await ensureDebianPackages(['ripgrep']);
  if (!rg.ok)
    return {
      ...rg,
      reason: `code-server's offline install needs ripgrep: ${rg.reason}`,
      command: `${rg.command} && ${installCommand}`,
    };
  const done = await step('code-server into .cache/code-server (about 90 s on 2 cores, once)', 'bash', [
    join(repo, 'scripts/install-code-server.sh'),
  ]);
  if (done.ok && existsSync(binary)) return { ok: true, binary };
  return {
    ok: false,
    reason: `installing code-server failed (no network to the npm registry?): ${done.reason ?? 'no binary'}`,
    command: installCommand,
  };
}

/**
 * Runs one provisioning command with its output in the log: one line when it starts (re-drawn with
 * the elapsed time on a terminal) and one when it ends, with the time it took.
 */
export function step(label, command, args, env = {}) {
  mkdirSync(dirname(provisionLog), { recursive: true });
  appendFileSync(provisionLog, `\n### ${new Date().toISOString()} ${command} ${args.join(' ')}\n`);
  const started = Date.now();
  const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;
  const tty = process.stdout.isTTY === true;
  process.stdout.write(`provision: ${label}…${tty ? '' : '\n'}`);
  const ticker = tty ? setInterval(() => process.stdout.write(`\rprovision: ${label}… ${elapsed()}`), 1000) : undefined;
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd: repo,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tail = [];
    const keep = (chunk) => {
      appendFileSync(provisionLog, chunk);
      tail.push(...String(chunk).split('\n').filter(Boolean));
      tail.splice(0, Math.max(0, tail.length - 5));
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const finish = (ok, reason) => {
      clearInterval(ticker);
      process.stdout.write(
        `${tty ? '\r' : ''}provision: ${label}: ${ok ? 'done' : 'FAILED'} in ${elapsed()}${ok ? '' : ` (log: ${provisionLog})`}\n`,
      );
      done(ok ? { ok } : { ok, reason });
    };
    child.on('error', (error) => finish(false, error.message));
    child.on('close', (code) => finish(code === 0, code === 0 ? undefined : (tail.at(-1) ?? `exit ${String(code)}`)));
  });
}

/** Prints one line for a step that could not be done: what is missing and the command that does it. */
export function explain(what, result) {
  console.log(`${what}: ${result.reason}\n  to do it by hand: ${result.command}`);
}

// `node scripts/provision.mjs test`: what the browser and code-server suites of npm test need. It
// never fails npm test: a suite whose dependency is missing skips itself with one line.
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'test') {
  const browser = await ensureDebianPackages(['chromium', 'ripgrep']);
  if (!browser.ok) explain('provision: the browser suites will be skipped', browser);
  const codeServer = await ensureCodeServer();
  if (!codeServer.ok) explain('provision: the code-server suites will be skipped', codeServer);
}
