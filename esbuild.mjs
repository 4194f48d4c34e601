// Builds every bundle: the extension host, the index worker, the CLI, the benchmark and the webview.
// `--production` minifies and drops source maps; `--watch` rebuilds on change.
import * as esbuild from 'esbuild';

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

const configs = [
  { ...node, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js' },
  { ...node, entryPoints: ['src/engine/indexWorker.ts'], outfile: 'dist/indexWorker.js' },
  { ...node, entryPoints: ['src/ingest/parseWorker.ts'], outfile: 'dist/parseWorker.js' },
  { ...node, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js' },
  { ...node, entryPoints: ['bench/bench.ts'], outfile: 'dist/bench.js' },
  {
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    entryPoints: ['webview/src/main.ts'],
    outdir: 'dist/webview',
    sourcemap: !production,
    sourcesContent: false,
    minify: production,
    logLevel: 'warning',
    plugins: [problemMatcher],
  },
];

if (watch) {
  for (const config of configs) await (await esbuild.context(config)).watch();
} else {
  await Promise.all(configs.map((config) => esbuild.build(config)));
}
