import type { StepCell } from '../credit/creditSummary';
import type { TraceCreditResult, TraceCreditRun } from '../traceCredit/traceCreditJob';
import { count, csvCell, megabytes, seconds } from './format';
import { agentTableLines, fixed, statusText } from './formatCredit';

/** Step ranges of the "over training" table: at most this many rows. */
const trainingRows = 10;

/** The terminal report of `credit-lens table`: per run, the agent table, credit over training, what is missing. */
export function formatTraceCredit(root: string, method: string, result: TraceCreditResult): string[] {
  const lines = [`Credit (${method}) from the trace files of ${root} (no index written)`];
  for (const run of result.runs) lines.push(...runLines(run));
  if (result.runs.length === 0) lines.push('  no episode found');
  const p = result.pass;
  lines.push(
    `  values: ${count(result.values.logged)} logged; read ${megabytes(p.bytesRead)} (${count(p.filesTotal)} files, ${count(p.linesRead)} lines) in ${seconds(p.elapsedMs)}; ${count(p.issues)} trace issues`,
  );
  for (const issue of result.issues) lines.push(`    ${issue.uri}:${issue.line}: ${issue.reason}`);
  if (p.issues > result.issues.length) lines.push(`    … and ${count(p.issues - result.issues.length)} more`);
  lines.push('  (`credit-lens index` then `credit` stores per-episode credit for the views, with evaluators)');
  return lines;
}

function runLines(run: TraceCreditRun): string[] {
  const lines = [
    `  ${run.name || '(root)'}${run.mechanism ? ` (${run.mechanism})` : ''}: ${count(run.episodes)} episodes, ${count(run.computed)} computed, ${count(run.notIdentifiable)} not identifiable, ${count(run.failed)} failed${run.outside > 0 ? `, ${count(run.outside)} outside the split or steps asked for` : ''}`,
  ];
  const sources = Object.entries(run.sources).map(([s, n]) => `${s} ${count(n)}`);
  if (sources.length > 0) lines.push(`    values from: ${sources.join(', ')}`);
  lines.push(...agentTableLines(run.agents));
  lines.push(...overTraining(run));
  for (const r of run.reasons)
    lines.push(`    ${count(r.count)} episodes: ${r.reason}${r.remedy ? ` — to answer it: ${r.remedy}` : ''}`);
  for (const p of run.problems.slice(0, 5)) lines.push(`      e.g. ${p.where} (episode ${p.episode})`);
  return lines;
}

/** Mean credit per agent over at most {@link trainingRows} consecutive step ranges (episode-weighted). */
function overTraining(run: TraceCreditRun): string[] {
  const steps = [...new Set(run.steps.map((c) => c.step))].sort((a, b) => a - b);
  if (steps.length < 2) return [];
  const agents = run.agents.map((a) => a.agent);
  const per = Math.ceil(steps.length / trainingRows);
  const rangeOf = new Map(steps.map((s, i) => [s, Math.floor(i / per)]));
  const sums = new Map<string, { n: number; sum: number }>();
  for (const cell of run.steps) {
    const key = `${rangeOf.get(cell.step) ?? 0}\u0000${cell.agent}`;
    const s = sums.get(key) ?? { n: 0, sum: 0 };
    s.n += cell.n;
    s.sum += cell.mean * cell.n;
    sums.set(key, s);
  }
  const lines = [
    `    over training (mean per agent):`,
    `      ${'steps'.padEnd(13)} ${agents.map((a) => a.padStart(10)).join(' ')}`,
  ];
  for (let r = 0; r * per < steps.length; r++) {
    const range = `${steps[r * per]}–${steps[Math.min(steps.length, (r + 1) * per) - 1]}`;
    const cells = agents.map((a) => {
      const s = sums.get(`${r}\u0000${a}`);
      return (s ? fixed(s.sum / s.n) : '—').padStart(10);
    });
    lines.push(`      ${range.padEnd(13)} ${cells.join(' ')}`);
  }
  return lines;
}

/** CSV of every (run, step, agent) cell: the table a notebook's groupby gives, with each cell's statuses. */
export const traceCreditCsvHeader = 'run,step,agent,episodes,mean,method,status,source';

export function traceCreditCsvLines(run: TraceCreditRun, method: string): string[] {
  const source = Object.keys(run.sources).join('+') || null;
  return run.steps.map((c: StepCell) =>
    [run.name, c.step, c.agent, c.n, c.mean, method, statusText(c.status), source].map(csvCell).join(','),
  );
}
