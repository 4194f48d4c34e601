import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `node dist/bench.js first-table [--small] [--repeat N]` (issue 15): the first LOO table of a
// cold folder, Credit Lens against the pandas notebook that computes it (bench/peers/pandas_loo.py),
// each as whole processes timed by /usr/bin/time (wall, peak RSS). Credit Lens is `index` then
// `credit --method loo` (logged counterfactuals), on an index deleted before each repetition; the two
// alternate, so that the load of a shared machine falls on both alike.

/** One whole-process measurement. */
export interface ProcessTiming {
  readonly wallS: number;
  readonly maxRssMb: number;
}

export interface FirstTableRound {
  /** `index` and `credit` summed (wall), the larger of their peak RSS. */
  readonly creditLens: ProcessTiming;
  readonly index: ProcessTiming;
  readonly credit: ProcessTiming;
  readonly pandas: ProcessTiming;
  /** The 1-minute load average when the round ended. */
  readonly load: number;
}

export type FirstTableResult =
  | { readonly kind: 'skipped'; readonly reason: string }
  | { readonly kind: 'measured'; readonly dir: string; readonly rounds: readonly FirstTableRound[] };

const timeBinary = '/usr/bin/time';

/** The python with pandas: `$CREDIT_LENS_PYTHON`, else Debian's /usr/bin/python3 (python3-pandas). */
export function peerPython(): string {
  return process.env['CREDIT_LENS_PYTHON'] ?? '/usr/bin/python3';
}

/** Runs both sides `repeat` times, alternating; skipped (with the reason) when pandas or GNU time is absent. */
export function firstTable(dir: string, cli: string, peerScript: string, repeat: number): FirstTableResult {
  const python = peerPython();
  if (!existsSync(timeBinary)) return { kind: 'skipped', reason: `${timeBinary} (GNU time) not found` };
  const probe = spawnSync(python, ['-c', 'import pandas'], { encoding: 'utf8' });
  if (probe.status !== 0)
    return { kind: 'skipped', reason: `pandas not importable by ${python} (Debian: apt-get install python3-pandas)` };
  const scratch = mkdtempSync(join(tmpdir(), 'credit-lens-first-table-'));
  try {
    const db = join(scratch, 'index.sqlite');
    const rounds: FirstTableRound[] = [];
    for (let i = 0; i < repeat; i++) {
      for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
      const index = timedProcess(scratch, process.execPath, [cli, 'index', dir, '--db', db, '--json']);
      const credit = timedProcess(scratch, process.execPath, [cli, 'credit', dir, '--db', db, '--method', 'loo']);
      const pandas = timedProcess(scratch, python, [peerScript, dir]);
      rounds.push({
        creditLens: { wallS: index.wallS + credit.wallS, maxRssMb: Math.max(index.maxRssMb, credit.maxRssMb) },
        index,
        credit,
        pandas,
        load: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]),
      });
    }
    return { kind: 'measured', dir, rounds };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function timedProcess(scratch: string, command: string, args: readonly string[]): ProcessTiming {
  const out = join(scratch, 'time.txt');
  const run = spawnSync(timeBinary, ['-f', '%e %M', '-o', out, command, ...args], {
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${run.stderr.slice(-2000)}`);
  const [wall = 'NaN', rssKb = 'NaN'] = readFileSync(out, 'utf8').trim().split('\n').pop()?.split(' ') ?? [];
  return { wallS: Number(wall), maxRssMb: Number(rssKb) / 1024 };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

/** The rounds and their medians, with the speed and memory ratios (pandas ÷ Credit Lens). */
export function formatFirstTable(result: FirstTableResult): string {
  if (result.kind === 'skipped') return `first-table: pandas peer skipped: ${result.reason}`;
  const lines = [
    `First LOO table from a cold folder: ${result.dir}`,
    '| round | Credit Lens s | peak RSS MB | index s | credit s | pandas s | peak RSS MB | load |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const cell = (t: ProcessTiming): string => `${t.wallS.toFixed(2)} | ${t.maxRssMb.toFixed(0)}`;
  result.rounds.forEach((r, i) => {
    const split = `${r.index.wallS.toFixed(2)} | ${r.credit.wallS.toFixed(2)}`;
    lines.push(`| ${String(i + 1)} | ${cell(r.creditLens)} | ${split} | ${cell(r.pandas)} | ${String(r.load)} |`);
  });
  const ours = median(result.rounds.map((r) => r.creditLens.wallS));
  const theirs = median(result.rounds.map((r) => r.pandas.wallS));
  const ourRss = median(result.rounds.map((r) => r.creditLens.maxRssMb));
  const theirRss = median(result.rounds.map((r) => r.pandas.maxRssMb));
  lines.push(
    `medians: Credit Lens ${ours.toFixed(2)} s / ${ourRss.toFixed(0)} MB, pandas ${theirs.toFixed(2)} s / ${theirRss.toFixed(0)} MB;` +
      ` Credit Lens is ${(theirs / ours).toFixed(2)}× as fast with ${(ourRss / theirRss).toFixed(2)}× the memory`,
  );
  return lines.join('\n');
}
