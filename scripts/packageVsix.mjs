// Packages the built extension (run `node esbuild.mjs --production` first; `npm run package` does)
// into dist-vsix/credit-lens-<target>.vsix with @vscode/vsce 3.9 (4.x needs Node 22). Everything
// the extension runs is bundled in dist/, so no node_modules are packaged (--no-dependencies). The
// target is the platform of the SQLite addon(s) in dist/native/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';

const target =
  process.env.VSCE_TARGET ?? `${process.platform === 'win32' ? 'win32' : process.platform}-${process.arch}`;
const addons = readdirSync('dist/native').filter((n) => n.endsWith('.node'));
if (addons.length === 0)
  throw new Error('dist/native has no better-sqlite3 addon: run `node esbuild.mjs` after `npm ci`');
mkdirSync('dist-vsix', { recursive: true });
const out = `dist-vsix/credit-lens-${target}.vsix`;
// No public repository yet: keep README links relative instead of guessing a URL.
const flags = [
  '--no-dependencies',
  '--allow-missing-repository',
  '--no-rewrite-relative-links',
  '--target',
  target,
  '-o',
  out,
];
execFileSync('npx', ['vsce', 'package', ...flags], { stdio: 'inherit' });
console.log(`${out}: addons for ABI ${addons.map((n) => /abi(\d+)/.exec(n)?.[1] ?? n).join(', ')}`);
