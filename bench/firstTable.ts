import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAverage, median, missingTimeBinary, timedProcess, type ProcessTiming } from './processTiming';

// `node dist/bench.js first-table [--small] [--repeat N]` (issue 15): the first LOO table of a
// cold folder, Credit Lens against the pandas notebook that computes it (bench/peers/pandas_loo.py),
// each as whole processes timed by /usr/bin/time (wall, user CPU, peak RSS). Credit Lens is `index`
// then `credit --method loo` (logged counterfactuals), on an index deleted before each repetition,
// twice: with the full-text index built by the first command, and episodes first (`index
// --no-search`: the table's path; a later `index` adds search). The sides alternate, so that the
// load of a shared machine falls on all alike. A third side is the first answer itself: `table
// --method loo`, the same per-agent table straight from the trace files with no index written; its
// per-agent means are checked against the notebook's.

/** `index` then `credit`: each process, and the two summed (wall, CPU; the larger peak RSS). */
export interface CreditLensTable {
  readonly total: ProcessTiming;
  readonly index: ProcessTiming;
  readonly credit: ProcessTiming;
}

export interface FirstTableRound {
  readonly withSearch: CreditLensTable;
  readonly episodesFirst: CreditLensTable;
  /** `credit-lens table --method loo --json`: from the trace files, nothing stored. */
  readonly fromTraces: ProcessTiming;
  readonly pandas: ProcessTiming;
  /** The 1-minute load average when the round ended. */
  readonly load: number;
}

export type FirstTableResult =
  | { readonly kind: 'skipped'; readonly reason: string }
  | { readonly kind: 'measured'; readonly dir: string; readonly rounds: readonly FirstTableRound[] };

/** The python with pandas: `$CREDIT_LENS_PYTHON`, else Debian's /usr/bin/python3 (python3-pandas). */
export function peerPython(): string {
  return process.env['CREDIT_LENS_PYTHON'] ?? '/usr/bin/python3';
}

/** Runs every side `repeat` times, alternating; skipped (with the reason) when pandas or GNU time is absent. */
export function firstTable(dir: string, cli: string, peerScript: string, repeat: number): FirstTableResult {
  const python = peerPython();
  const noTime = missingTimeBinary();
  if (noTime) return { kind: 'skipped', reason: noTime };
  const probe = spawnSync(python, ['-c', 'import pandas'], { encoding: 'utf8' });
  if (probe.status !== 0)
    return { kind: 'skipped', reason: `pandas not importable by ${python} (Debian: apt-get install python3-pandas)` };
  const scratch = mkdtempSync(join(tmpdir(), 'credit-lens-first-table-'));
  try {
    const table = (indexFlags: readonly string[]): CreditLensTable => creditLensTable(scratch, cli, dir, indexFlags);
    const rounds: FirstTableRound[] = [];
    for (let i = 0; i < repeat; i++) {
      const withSearch = table([]);
      const pandas = timedProcess(scratch, python, [peerScript, dir]);
      const episodesFirst = table(['--no-search']);
      const fromTraces = timedProcess(scratch, process.execPath, [cli, 'table', dir, '--method', 'loo', '--json']);
      rounds.push({ withSearch, episodesFirst, fromTraces, pandas, load: loadAverage() });
    }
    return { kind: 'measured', dir, rounds };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function creditLensTable(scratch: string, cli: string, dir: string, indexFlags: readonly string[]): CreditLensTable {
  const db = join(scratch, 'index.sqlite');
  for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  const index = timedProcess(scratch, process.execPath, [cli, 'index', dir, '--db', db, '--json', ...indexFlags]);
  const credit = timedProcess(scratch, process.execPath, [cli, 'credit', dir, '--db', db, '--method', 'loo']);
  const total = {
    wallS: index.wallS + credit.wallS,
    userS: index.userS + credit.userS,
    maxRssMib: Math.max(index.maxRssMib, credit.maxRssMib),
    stdout: credit.stdout,
  };
  return { total, index, credit };
}

/** The rounds and their medians, with the speed and memory ratios (pandas ÷ Credit Lens). */
export function formatFirstTable(result: FirstTableResult): string {
  if (result.kind === 'skipped') return `first-table: pandas peer skipped: ${result.reason}`;
  const lines = [
    `First LOO table from a cold folder: ${result.dir}`,
    '| round | with search: s (index + credit) | peak RSS MiB | episodes first: s (index + credit) | peak RSS MiB | `table`: s | peak RSS MiB | pandas s | peak RSS MiB | load |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const side = (t: CreditLensTable): string =>
    `${t.total.wallS.toFixed(2)} (${t.index.wallS.toFixed(2)} + ${t.credit.wallS.toFixed(2)}) | ${t.total.maxRssMib.toFixed(0)}`;
  result.rounds.forEach((r, i) => {
    const pandas = `${r.pandas.wallS.toFixed(2)} | ${r.pandas.maxRssMib.toFixed(0)}`;
    const traces = `${r.fromTraces.wallS.toFixed(2)} | ${r.fromTraces.maxRssMib.toFixed(0)}`;
    lines.push(
      `| ${String(i + 1)} | ${side(r.withSearch)} | ${side(r.episodesFirst)} | ${traces} | ${pandas} | ${String(r.load)} |`,
    );
  });
  const theirs = median(result.rounds.map((r) => r.pandas.wallS));
  const theirRss = median(result.rounds.map((r) => r.pandas.maxRssMib));
  const ratio = (label: string, pick: (r: FirstTableRound) => CreditLensTable): string => {
    const ours = median(result.rounds.map((r) => pick(r).total.wallS));
    const ourRss = median(result.rounds.map((r) => pick(r).total.maxRssMib));
    return `${label}: ${ours.toFixed(2)} s / ${ourRss.toFixed(0)} MiB, ${(theirs / ours).toFixed(2)}× as fast as pandas with ${(ourRss / theirRss).toFixed(2)}× its memory`;
  };
  const traces = (pick: (t: ProcessTiming) => number): number => median(result.rounds.map((r) => pick(r.fromTraces)));
  lines.push(
    `medians: pandas ${theirs.toFixed(2)} s / ${theirRss.toFixed(0)} MiB; ${ratio('with search', (r) => r.withSearch)}; ${ratio('episodes first', (r) => r.episodesFirst)}; ` +
      `\`table\` (from the traces): ${traces((t) => t.wallS).toFixed(2)} s / ${traces((t) => t.maxRssMib).toFixed(0)} MiB, ${(theirs / traces((t) => t.wallS)).toFixed(2)}× as fast as pandas with ${(traces((t) => t.maxRssMib) / theirRss).toFixed(2)}× its memory`,
    sameAnswer(result.rounds[0]),
  );
  return lines.join('\n');
}

/** Whether `table`'s per-agent LOO means are the notebook's (its last lines: agent, count, mean). */
function sameAnswer(round: FirstTableRound | undefined): string {
  if (!round) return '';
  const theirs = new Map<string, number>();
  for (const m of round.pandas.stdout.matchAll(/^(\S+)\s+\d+\s+(-?[\d.]+(?:e-?\d+)?)$/gm))
    theirs.set(m[1] ?? '', Number(m[2]));
  let ours: { runs: { agents: { agent: string; mean: number }[] }[] };
  try {
    ours = JSON.parse(round.fromTraces.stdout) as typeof ours;
  } catch {
    return 'answers: `table --json` printed no JSON';
  }
  const agents = ours.runs.flatMap((r) => r.agents);
  const gaps = agents.map((a) => Math.abs(a.mean - (theirs.get(a.agent) ?? Number.NaN)));
  const worst = Math.max(...gaps);
  const same = agents.length > 0 && agents.length === theirs.size && gaps.every((g) => g <= 1e-6);
  return `answers: per-agent LOO means of \`table\` and pandas ${same ? 'agree' : 'DIFFER'} (${agents.length} agents, largest |difference| ${worst.toExponential(1)}; pandas prints 6 decimals)`;
}
