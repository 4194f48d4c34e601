// `npm start`: writes the seeded demo runs to ./demo-run and indexes them (the CLI prints the
// summary), then opens them in a browser-served VS Code (code-server) with the extension installed —
// or says precisely what is missing. Serving only happens on an interactive terminal (or with
// CREDIT_LENS_SERVE=1), so scripted runs of `npm start` never hang; CREDIT_LENS_SERVE=0 skips it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareExtension } from './e2e/prepareExtension.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const demo = join(repo, 'demo-run');
const codeServer = process.env.CODE_SERVER ?? join(repo, '.cache/code-server/node_modules/.bin/code-server');
const port = Number(process.env.PORT ?? 8080);

const cli = spawnSync(process.execPath, [join(repo, 'dist/cli.js'), 'demo', '--out', demo, ...process.argv.slice(2)], { stdio: 'inherit' });
if (cli.status !== 0) process.exit(cli.status ?? 1);

const serve = process.env.CREDIT_LENS_SERVE === '1' || (process.env.CREDIT_LENS_SERVE !== '0' && process.stdout.isTTY === true);
if (!existsSync(codeServer)) {
  console.log(`
To open the demo in VS Code in your browser (code-server), install it once:
  apt-get update && apt-get install -y ripgrep     # code-server's offline install needs Debian's rg
  bash scripts/install-code-server.sh              # code-server 4.100.3 into .cache/code-server (~1 min)
then run \`npm start\` again. Or run the CLI on the demo: node bin/credit-lens.js audit demo-run`);
  process.exit(0);
}
const home = join(repo, '.cache/code-server-home');
const extensions = join(home, 'extensions');
mkdirSync(join(home, 'config'), { recursive: true });
prepareExtension(extensions, repo);
writeFileSync(join(home, 'config', 'config.yaml'), `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
const args = ['--config', join(home, 'config', 'config.yaml'), '--user-data-dir', join(home, 'data'), '--extensions-dir', extensions, '--disable-telemetry', '--disable-update-check', demo];
const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(demo)}`;
if (!serve) {
  console.log(`\nThe extension is laid out in ${extensions}. To open the demo in VS Code in your browser:\n  ${codeServer} ${args.join(' ')}\nthen browse to ${url}`);
  process.exit(0);
}
console.log(`\nStarting code-server with Credit Lens installed: open ${url}\n(open the Credit Lens view in the activity bar; Ctrl-C stops the server)`);
const server = spawn(codeServer, args, { stdio: 'inherit', env: { ...process.env, XDG_CONFIG_HOME: join(home, 'config') } });
server.on('exit', (code) => process.exit(code ?? 0));
process.on('SIGINT', () => server.kill('SIGINT'));
