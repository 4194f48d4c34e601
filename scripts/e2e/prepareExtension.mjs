// Lays out the built extension as an unpacked folder in a code-server --extensions-dir:
//   <extensions-dir>/credit-lens.credit-lens-<version>/{package.json, dist/, media/, schema/,
//                                                     node_modules/{better-sqlite3,bindings,file-uri-to-path}}
// Copies (never symlinks), so code-server's extension host (Node 20, ABI 115) loads the very addon
// the unit tests use. Builds nothing: run `node esbuild.mjs` first.
//
//   node scripts/e2e/prepareExtension.mjs <extensions-dir>      (prints the extension folder)
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runtime packages the addon needs when loaded through node_modules (better-sqlite3 → bindings → file-uri-to-path). */
const runtimePackages = ['better-sqlite3', 'bindings', 'file-uri-to-path'];

/**
 * Copies the extension into `extensionsDir`; returns the extension folder. Throws with a clear
 * message when something the extension needs is missing.
 */
export function prepareExtension(extensionsDir, root = repo) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const id = `${manifest.publisher}.${manifest.name}`;
  const target = join(resolve(extensionsDir), `${id}-${manifest.version}`);
  const required = [
    'dist/extension.js',
    'dist/indexWorker.js',
    'dist/parseWorker.js',
    'dist/webview',
    'media',
    'schema',
  ];
  const missing = required.filter((p) => !existsSync(join(root, p)));
  if (missing.length > 0)
    throw new Error(`prepareExtension: missing ${missing.join(', ')} — run \`node esbuild.mjs\` first`);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  cpSync(join(root, 'package.json'), join(target, 'package.json'));
  for (const dir of ['dist', 'media', 'schema']) {
    cpSync(join(root, dir), join(target, dir), {
      recursive: true,
      dereference: true,
      filter: (src) => !src.endsWith('.map'),
    });
  }
  for (const name of runtimePackages) {
    const from = join(root, 'node_modules', name);
    if (!existsSync(from)) throw new Error(`prepareExtension: node_modules/${name} is missing — run \`npm ci\``);
    cpSync(from, join(target, 'node_modules', name), {
      recursive: true,
      dereference: true,
      // The addon's sources and intermediate build files are not needed at runtime.
      filter: (src) =>
        !/[/\\]better-sqlite3[/\\](deps|src)([/\\]|$)/.test(src) &&
        !/[/\\]build[/\\]Release[/\\](obj|\.deps|obj\.target)([/\\]|$)/.test(src),
    });
  }
  const addon = join(target, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  if (!existsSync(addon)) throw new Error(`prepareExtension: ${addon} was not copied — is better-sqlite3 built?`);
  return target;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/e2e/prepareExtension.mjs <extensions-dir>');
    process.exit(2);
  }
  try {
    console.log(prepareExtension(dir));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
