// Builds every bundle: the extension host, the index worker, the CLI, the benchmark and the webview.
// `--production` minifies and drops source maps; `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, rmSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints errors in the `file:line:col: error: text` form VS Code's problem matcher reads. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => {
      if (watch) console.log('[watch] build started');
    });
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (watch) console.log('[watch] build finished');
    });
  },
};

const node = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode', 'better-sqlite3'],
  sourcemap: !production,
  sourcesContent: false,
  minify: production,
  logLevel: 'warning',
  plugins: [problemMatcher],
};

// The extension and its index worker bundle better-sqlite3's JavaScript (the VSIX ships no
// node_modules) and load its addon from dist/native (see copyNativeAddons).
const bundled = { ...node, external: ['vscode'] };

const configs = [
  { ...bundled, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js' },
  { ...bundled, entryPoints: ['src/engine/indexWorker.ts'], outfile: 'dist/indexWorker.js' },
  { ...node, entryPoints: ['src/ingest/parseWorker.ts'], outfile: 'dist/parseWorker.js' },
  { ...node, entryPoints: ['src/engine/traceCredit/traceCreditWorker.ts'], outfile: 'dist/traceCreditWorker.js' },
  { ...node, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js' },
  { ...node, entryPoints: ['bench/bench.ts'], outfile: 'dist/bench.js' },
  {
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    entryPoints: {
      main: 'webview/src/main.ts',
      episode: 'webview/src/episode/main.ts',
      dashboard: 'webview/src/dashboard/main.ts',
      group: 'webview/src/group/main.ts',
      compare: 'webview/src/compare/main.ts',
      diff: 'webview/src/diff/main.ts',
    },
    outdir: 'dist/webview',
    sourcemap: !production,
    sourcesContent: false,
    minify: production,
    logLevel: 'warning',
    plugins: [problemMatcher],
  },
];

/**
 * Places the better-sqlite3 addon built for this Node (tests, CLI, code-server) at
 * dist/native/better_sqlite3.abi<ABI>.node, plus any `native-prebuilds/better_sqlite3.abi<N>.node`
 * (e.g. an Electron build for desktop VS Code): the driver picks the one matching its runtime's ABI.
 */
function copyNativeAddons() {
  mkdirSync('dist/native', { recursive: true });
  const own = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
  if (existsSync(own)) linkOrCopy(own, `dist/native/better_sqlite3.abi${process.versions.modules}.node`);
  if (existsSync('native-prebuilds')) {
    for (const name of readdirSync('native-prebuilds').filter((n) => /^better_sqlite3\.abi\d+\.node$/.test(n))) {
      copyFileSync(`native-prebuilds/${name}`, `dist/native/${name}`);
    }
  }
}

/**
 * A hard link where the file system allows one, else a copy. Why: code run from source (the unit
 * tests) loads node_modules' addon while the bundled workers it starts load dist/native's; as two
 * files they are two copies of SQLite in one process, which do not see each other's locks and can
 * delete a WAL under each other (docs/architecture.md §2.1). One inode is one library to the loader.
 * The old file is removed first: copying onto a link would truncate node_modules' addon too.
 */
function linkOrCopy(from, to) {
  rmSync(to, { force: true });
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

copyNativeAddons();

if (watch) {
  for (const config of configs) await (await esbuild.context(config)).watch();
} else {
  await Promise.all(configs.map((config) => esbuild.build(config)));
}
