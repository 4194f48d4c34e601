// The opt-in demo model server of `npm start` (CREDIT_LENS_DEMO_MODELS=1): `credit-lens
// serve-demo-agents` on a free port, its URL written as `creditLens.evaluator.replay` into the
// user settings of the code-server that `npm start` runs (its own home under .cache, never yours),
// so the Episode view can recompute credit by replay without a GPU. Without the opt-in, a URL left
// there by an earlier start is removed, since nothing answers on it any more.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const replaySetting = 'creditLens.evaluator.replay';

/** Starts the demo model server on `port`; resolves with its child process and URL once it listens. */
export function startDemoModels(repo, port) {
  const child = spawn(process.execPath, [join(repo, 'dist/cli.js'), 'serve-demo-agents', '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.on('exit', () => child.kill('SIGTERM'));
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
      const url = /served at (http:\/\/\S+\/v1)/.exec(output)?.[1];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`the demo model server exited (${String(code)}): ${output}`)));
  });
}

/** Sets (or, with `url` undefined, removes) the replay setting in a code-server user settings file. */
export function writeReplaySetting(settingsFile, url) {
  let settings = {};
  if (existsSync(settingsFile)) {
    try {
      settings = JSON.parse(readFileSync(settingsFile, 'utf8'));
    } catch {
      return; // a settings file with comments is the user's to edit: left alone
    }
  }
  if (url === undefined && !(replaySetting in settings)) return;
  if (url === undefined) delete settings[replaySetting];
  else settings[replaySetting] = { url };
  mkdirSync(dirname(settingsFile), { recursive: true });
  writeFileSync(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);
}

/** The lines that say how to replay the demo on the server at `url`. */
export function demoModelsHelp(url, demo) {
  return [
    `The demo model server (the demo's agents, a deterministic program) answers at ${url}`,
    `  CLI:     node bin/credit-lens.js credit ${demo} --method loo --no-logged --evaluator replay:url=${url}`,
    `  VS Code: "${replaySetting}": { "url": "${url}" } (set in this code-server's user settings)`,
  ];
}
