import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IndexSummary } from '../src/core/indexSummary';
import { loadAverage, missingTimeBinary, timedProcess, type ProcessTiming } from './processTiming';
import { appendableCopy, quantile, type LiveTailResult } from './liveTail';
import { dashboardTimings, longEpisodeTimings, type ViewTiming } from './viewBench';

// `node dist/bench.js scale [--sizes large,large3,large10]` (issue 15): the scale curve. For each
// run (1, 3 and 10 GB of the same team's episodes), whole processes under GNU time: a cold index
// with search, the first LOO table straight from the traces (`table`, no index), a re-index with
// nothing changed, LOO from the logged counterfactuals, the audit from
// credit alone (`--no-text`: its flags are what the views sort by; the audit that also reads every
// message's text is timed on the first run only, its cost being per message), then the view services in a child process of their own (its peak RSS is the panels'
// host side): the dashboard overview, 500-row pages sorted by reward and by flags, a full-text
// search, and opening a 10,000-message episode; at the last (largest) run, the live tail: append →
// visible in the Runs view and the dashboard, on a hard-linked copy of the folder.

export interface ScalePoint {
  readonly name: string;
  readonly traceBytes: number;
  readonly episodes: number;
  readonly messages: number;
  readonly cold: ProcessTiming;
  /** The cold pass's own split: episodes listed, then the search stage (ms, from `--json`). */
  readonly coldIndexMs: number;
  readonly coldSearchMs: number;
  readonly reindex: ProcessTiming;
  readonly indexBytes: number;
  readonly loo: ProcessTiming;
  /** `table --method loo`: the first answer from the trace files, no index. */
  readonly table: ProcessTiming;
  readonly audit: ProcessTiming;
  /** The audit with the message-text evidence (first point only). */
  readonly auditText?: ProcessTiming;
  readonly views: ViewsResult;
  /** Append → visible, ms per append (last point only). */
  readonly liveTailMs?: readonly number[];
  readonly load: number;
}

export interface ViewsResult {
  readonly timings: readonly ViewTiming[];
  readonly maxRssMib: number;
}

export type ScaleResult =
  | { readonly kind: 'skipped'; readonly reason: string }
  | { readonly kind: 'measured'; readonly points: readonly ScalePoint[] };

/** Measures one point per dataset folder (each already generated); `self` is dist/bench.js. */
export function scaleCurve(datasets: readonly { name: string; dir: string }[], cli: string, self: string): ScaleResult {
  const noTime = missingTimeBinary();
  if (noTime) return { kind: 'skipped', reason: noTime };
  const points: ScalePoint[] = [];
  for (const dataset of datasets) {
    process.stderr.write(`scale curve: ${dataset.name}…\n`);
    const last = points.length === datasets.length - 1;
    points.push(measurePoint(dataset.name, dataset.dir, cli, self, points.length === 0, last));
    process.stderr.write(`${formatScaleCurve({ kind: 'measured', points })}\n`);
  }
  return { kind: 'measured', points };
}

const liveTailAppends = 10;

function measurePoint(
  name: string,
  dir: string,
  cli: string,
  self: string,
  withText: boolean,
  withLiveTail: boolean,
): ScalePoint {
  const scratch = mkdtempSync(join(tmpdir(), 'credit-lens-scale-'));
  try {
    const db = join(scratch, 'index.sqlite');
    const node = (script: string, args: readonly string[]): ProcessTiming =>
      timedProcess(scratch, process.execPath, [script, ...args]);
    // The cold index first: it is the figure of a first pass over files not yet in the page cache;
    // `table` then reads them as a researcher's second command would.
    const cold = node(cli, ['index', dir, '--db', db, '--json']);
    const table = node(cli, ['table', dir, '--method', 'loo', '--json']);
    const { pass, summary } = JSON.parse(cold.stdout) as { pass: ColdPass; summary: IndexSummary };
    const reindex = node(cli, ['index', dir, '--db', db, '--json']);
    const indexBytes = ['', '-wal'].reduce((sum, s) => sum + (existsSync(db + s) ? statSync(db + s).size : 0), 0);
    const loo = node(cli, ['credit', dir, '--db', db, '--method', 'loo']);
    const auditText = withText ? node(cli, ['audit', dir, '--db', db, '--method', 'loo']) : undefined;
    const audit = node(cli, ['audit', dir, '--db', db, '--method', 'loo', '--no-text']);
    const viewsRun = node(self, ['views-at', dir, db]);
    const views = JSON.parse(viewsRun.stdout) as { timings: ViewTiming[] };
    const live = withLiveTail
      ? node(
          self,
          ['live-tail', '--dir', appendableCopy(dir, join(scratch, 'live')), '--db', db, '--json'].concat([
            '--appends',
            String(liveTailAppends),
          ]),
        )
      : undefined;
    return {
      name,
      traceBytes: pass.bytesRead,
      episodes: pass.episodesAdded,
      messages: summary.runs.reduce((sum, run) => sum + run.messages, 0),
      cold,
      coldIndexMs: pass.indexMs,
      coldSearchMs: pass.searchMs,
      reindex,
      indexBytes,
      loo,
      table,
      audit,
      ...(auditText ? { auditText } : {}),
      views: { timings: views.timings, maxRssMib: viewsRun.maxRssMib },
      ...(live ? { liveTailMs: (JSON.parse(live.stdout) as LiveTailResult).latencyMs } : {}),
      load: loadAverage(),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

interface ColdPass {
  readonly bytesRead: number;
  readonly episodesAdded: number;
  readonly indexMs: number;
  readonly searchMs: number;
}

/** The child process of `views-at`: the dashboard's services on an indexed, audited run, then a long episode. */
export async function viewsAt(dir: string, db: string): Promise<ViewsResult> {
  const timings = [...(await dashboardTimings(dir, db)), ...(await longEpisodeTimings([10_000]))];
  return { timings, maxRssMib: (process.resourceUsage().maxRSS * 1024) / 2 ** 20 };
}

const gb = (bytes: number): number => bytes / 1e9;

/** One row per figure, one column per run, and the growth per GB from the first run to the last. */
export function formatScaleCurve(result: ScaleResult): string {
  if (result.kind === 'skipped') return `scale curve skipped: ${result.reason}`;
  const points = result.points;
  const head = `| figure | ${points.map((p) => `${p.name} (${gb(p.traceBytes).toFixed(2)} GB, ${p.episodes.toLocaleString('en')} episodes)`).join(' | ')} | per GB, last ÷ first |`;
  const rows: string[] = [head, `|---|${points.map(() => '---|').join('')}---|`];
  const row = (label: string, value: (p: ScalePoint) => number, digits = 1, perGb = true): void => {
    const cells = points.map((p) => value(p).toFixed(digits));
    const first = points[0];
    const last = points[points.length - 1];
    const growth =
      perGb && first && last && points.length > 1
        ? (value(last) / gb(last.traceBytes) / (value(first) / gb(first.traceBytes))).toFixed(2)
        : '';
    rows.push(`| ${label} | ${cells.join(' | ')} | ${growth} |`);
  };
  row('cold index with search, wall s', (p) => p.cold.wallS);
  row('— episodes listed after, s', (p) => p.coldIndexMs / 1000);
  row('— user CPU s', (p) => p.cold.userS);
  row('cold index peak RSS MiB', (p) => p.cold.maxRssMib, 0, false);
  row('re-index, nothing changed, wall s', (p) => p.reindex.wallS, 2, false);
  row('index size MB', (p) => p.indexBytes / 1e6, 0);
  row('LOO (logged), wall s', (p) => p.loo.wallS);
  row('LOO episodes/s (whole process)', (p) => p.episodes / p.loo.wallS, 0, false);
  row('LOO peak RSS MiB', (p) => p.loo.maxRssMib, 0, false);
  row('first LOO table (`table`, no index), wall s', (p) => p.table.wallS);
  row('— episodes/s (whole process)', (p) => p.episodes / p.table.wallS, 0, false);
  row('— peak RSS MiB', (p) => p.table.maxRssMib, 0, false);
  row('audit --no-text, wall s', (p) => p.audit.wallS);
  row('audit --no-text peak RSS MiB', (p) => p.audit.maxRssMib, 0, false);
  row('audit with text, wall s', (p) => p.auditText?.wallS ?? NaN, 1, false);
  row('audit with text peak RSS MiB', (p) => p.auditText?.maxRssMib ?? NaN, 0, false);
  const names = points[0]?.views.timings.map((t) => t.name) ?? [];
  for (const name of names)
    row(`view: ${name}, first ms`, (p) => p.views.timings.find((t) => t.name === name)?.firstMs ?? NaN, 1, false);
  row('views process peak RSS MiB', (p) => p.views.maxRssMib, 0, false);
  row('live tail: append → visible, median ms', (p) => quantile(p.liveTailMs ?? [], 0.5), 0, false);
  row('live tail: append → visible, p95 ms', (p) => quantile(p.liveTailMs ?? [], 0.95), 0, false);
  row('load average at the end', (p) => p.load, 2, false);
  return rows.join('\n');
}
