import type { CalibrationResult } from '../credit/calibration';
import type { CreditJobResult, RunFailure } from '../credit/creditJob';
import type { FailureGroup } from '../credit/failureTally';
import type { AgentSummary } from '../credit/creditSummary';
import type { CreditOutputRow } from '../../store/creditRepository';
import { count, csvCell, seconds } from './format';
import { describeAdvantageChoice } from '../credit/advantageConvention';
import { budgetSavingText, replayUsageLine } from './formatReplay';

/** A number to `digits` decimals, `—` when there is none. */
export const fixed = (n: number | null | undefined, digits = 3): string =>
  n === null || n === undefined || !Number.isFinite(n) ? '—' : n.toFixed(digits);

/** The terminal report of a credit pass: per run, per agent mean, 95% interval, early → late and status. */
export function formatCreditReport(root: string, method: string, result: CreditJobResult): string[] {
  const lines = [`Credit (${method}) of ${root}`];
  for (const run of result.runs) {
    const evaluator = run.evaluator ?? 'none (logged values only)';
    lines.push(
      `  ${run.run.name || '(root)'}${run.run.mechanism ? ` (${run.run.mechanism})` : ''}: ${count(run.computed)} episodes computed, ${count(run.unidentified)} not identifiable, ${count(run.failed)} failed; evaluator ${evaluator}`,
    );
    const seed = (run.params.params['monteCarlo'] as { seed?: number } | undefined)?.seed;
    if (seed !== undefined)
      lines.push(
        `    Monte-Carlo seed ${seed} (per episode: seed xor episode row id); rerun with --seed ${seed} to reproduce`,
      );
    if (run.calibration) lines.push(`    ${calibrationLine(run.calibration)}`);
    if (run.usage) lines.push(`    ${replayUsageLine(run.usage)}`);
    lines.push(`    advantages: ${describeAdvantageChoice(run.advantage)}`);
    lines.push(...agentTableLines(run.agents));
    lines.push(...problemLines(run.problems, run.ungrouped));
    if (run.budget) {
      const b = run.budget;
      lines.push(
        `    budget ${count(b.budget)} evaluator calls (planned ${count(Math.round(b.plannedCost))}; ${budgetSavingText(b)}): ${count(b.exactEpisodes)} of ${count(b.totalEpisodes)} episodes exact; run means (control variate):`,
      );
      for (const a of b.agents)
        lines.push(`      ${a.agent.padEnd(14)} ${fixed(a.estimate)} ± ${fixed(1.959964 * a.stderr)} (95%)`);
    }
  }
  const v = result.values;
  const lookups = v.cached + v.evaluated;
  const hitRate = lookups > 0 ? `${((v.cached / lookups) * 100).toFixed(1)}%` : 'n/a';
  lines.push(
    `  values: ${count(v.logged)} logged, ${count(v.cached)} cached, ${count(v.evaluated)} evaluated (cache hit rate ${hitRate}); took ${seconds(result.elapsedMs)}`,
  );
  return lines;
}

/** The per-agent table of a credit summary (none when there is no agent), indented for a run. */
export function agentTableLines(agents: readonly AgentSummary[]): string[] {
  if (agents.length === 0) return [];
  const lines = [
    `    ${'agent'.padEnd(14)} ${'episodes'.padStart(8)} ${'mean'.padStart(8)}   ${'95% CI'.padEnd(18)} ${'early → late'.padEnd(16)} status`,
  ];
  for (const a of agents) {
    const ci = `[${fixed(a.ci[0])}, ${fixed(a.ci[1])}]`;
    lines.push(
      `    ${a.agent.padEnd(14)} ${count(a.episodes).padStart(8)} ${fixed(a.mean).padStart(8)}   ${ci.padEnd(18)} ${`${fixed(a.early)} → ${fixed(a.late)}`.padEnd(16)} ${statusText(a.status)}`,
    );
  }
  return lines;
}

/** One line on an evaluator's calibration against the logged rewards. */
export function calibrationLine(c: CalibrationResult): string {
  const scored =
    c.sampled > 0
      ? `reproduces ${count(c.agreed)} of ${count(c.sampled)} sampled logged rewards (${(c.rate * 100).toFixed(1)}%, ${(c.threshold * 100).toFixed(0)}% required)`
      : 'scored no episode';
  return `calibration: ${scored}: ${c.accepted ? 'accepted' : 'not accepted'}${c.reason ? ` (${c.reason})` : ''}`;
}

/** "exact", or the mix of statuses, e.g. "approximate 900, exact 100". */
export function statusText(status: Readonly<Record<string, number>>): string {
  const parts = Object.entries(status)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  if (parts.length === 1) return parts[0]?.[0] ?? '';
  return parts.map(([s, n]) => `${s} ${count(n)}`).join(', ');
}

/** The reasons episodes were not identifiable or failed, most frequent first, with their remedy. */
function problemLines(groups: readonly FailureGroup[], ungrouped: number): string[] {
  const lines: string[] = [];
  for (const { n, first } of groups.slice(0, 5)) {
    const label = first.status === 'not-identifiable' ? 'not identifiable' : 'failed';
    lines.push(`    ${label} (${count(n)} episode${n === 1 ? '' : 's'}, e.g. ${first.where}): ${first.reason}`);
    if (first.remedy) lines.push(`      what would answer it: ${first.remedy}`);
  }
  const others = Math.max(0, groups.length - 5);
  const rest = [
    ...(others > 0 ? [`${count(others)} other reasons`] : []),
    ...(ungrouped > 0 ? [`${count(ungrouped)} episodes of further reasons`] : []),
  ];
  if (rest.length > 0) lines.push(`    … and ${rest.join(', ')} (see --json)`);
  return lines;
}

export const csvHeader =
  'run,episode,step,group,reward,agent,message,method,value,stderr,ci_low,ci_high,advantage,approximate,source,status,intervention,reason,remedy';

/** One stored credit row as CSV (the run's name first). */
export function csvLine(run: string, r: CreditOutputRow): string {
  const cells = [
    run,
    r.external_id,
    r.train_step,
    r.group_id,
    r.outcome,
    r.agent,
    r.message_seq,
    r.method,
    r.value,
    r.stderr,
    r.ci_low,
    r.ci_high,
    r.advantage,
    r.approximate,
    r.source,
    r.status,
    r.intervention,
    null,
    null,
  ];
  return cells.map(csvCell).join(',');
}

/** An episode that failed or is not identifiable, as a CSV row without a value (agent left empty). */
export function csvProblemLine(run: string, method: string, f: RunFailure): string {
  const cells = [
    run,
    f.episode,
    f.step,
    null,
    null,
    null,
    null,
    method,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    f.status ?? 'failed',
    null,
    f.reason,
    f.remedy ?? null,
  ];
  return cells.map(csvCell).join(',');
}

/** An episode of `--json` output: credit by method and agent, per-message rows when present. */
export interface EpisodeCreditJson {
  id: string;
  step: number | null;
  group: string | null;
  reward: number | null;
  credit: Record<string, Record<string, CreditValueJson>>;
  messages?: (CreditValueJson & { seq: number; agent: string; method: string })[];
}

interface CreditValueJson {
  value: number | null;
  advantage: number | null;
  stderr?: number;
  ci?: [number | null, number | null];
  approximate?: true;
  source: string | null;
  status: string;
  intervention?: string;
}

/** Groups stored rows (ordered by episode) into per-episode JSON objects. */
export function* episodesJson(rows: Iterable<CreditOutputRow>): Generator<EpisodeCreditJson> {
  let current: EpisodeCreditJson | undefined;
  let currentId = -1;
  for (const r of rows) {
    if (!current || r.episode_id !== currentId) {
      if (current) yield current;
      currentId = r.episode_id;
      current = { id: r.external_id, step: r.train_step, group: r.group_id, reward: r.outcome, credit: {} };
    }
    const value = valueJson(r);
    if (r.message_seq === null) (current.credit[r.method] ??= {})[r.agent] = value;
    else (current.messages ??= []).push({ seq: r.message_seq, agent: r.agent, method: r.method, ...value });
  }
  if (current) yield current;
}

function valueJson(r: CreditOutputRow): CreditValueJson {
  return {
    value: r.value,
    advantage: r.advantage,
    ...(r.stderr !== null ? { stderr: r.stderr, ci: [r.ci_low, r.ci_high] as [number | null, number | null] } : {}),
    ...(r.approximate ? { approximate: true as const } : {}),
    source: r.source,
    status: r.status,
    ...(r.intervention !== null ? { intervention: r.intervention } : {}),
  };
}
