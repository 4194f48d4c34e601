import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/** The built CLI (dist/cli.js); `npm test` builds it before the tests run. */
export const cliPath = resolve('dist/cli.js');

/** Runs `credit-lens …args` as a user would, and returns its exit status and output. */
export function runCli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cliPath, ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 64 << 20,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
