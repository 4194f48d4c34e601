import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// One whole process timed by GNU time (wall, user CPU, peak RSS): the measurement behind the
// first-table and scale-curve benchmarks, so the two report the same figures the same way.

/** One whole-process measurement. */
export interface ProcessTiming {
  readonly wallS: number;
  readonly userS: number;
  readonly maxRssMib: number;
  /** What the process wrote to stdout (the JSON of `--json` commands). */
  readonly stdout: string;
}

export const timeBinary = '/usr/bin/time';

/** Why whole processes cannot be timed here, or null when GNU time is present. */
export function missingTimeBinary(): string | null {
  return existsSync(timeBinary) ? null : `${timeBinary} (GNU time) not found (Debian: apt-get install time)`;
}

/** Runs `command args` under GNU time in `scratch` (which receives the time file); throws when it fails. */
export function timedProcess(scratch: string, command: string, args: readonly string[]): ProcessTiming {
  const out = join(scratch, 'time.txt');
  const run = spawnSync(timeBinary, ['-f', '%e %U %M', '-o', out, command, ...args], {
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${run.stderr.slice(-2000)}`);
  const [wall = 'NaN', user = 'NaN', rssKb = 'NaN'] =
    readFileSync(out, 'utf8').trim().split('\n').pop()?.split(' ') ?? [];
  return { wallS: Number(wall), userS: Number(user), maxRssMib: Number(rssKb) / 1024, stdout: run.stdout };
}

/** The 1-minute load average (the machine is shared: every table row says how busy it was). */
export function loadAverage(): number {
  return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}
