import type { CreditJobResult } from '../credit/creditJob';
import type { CreditOutputRow } from '../../store/creditRepository';
import { count, seconds } from './format';
import { describeAdvantageChoice } from '../credit/advantageConvention';

const fixed = (n: number | null | undefined, digits = 3): string => (n === null || n === undefined || !Number.isFinite(n) ? '—' : n.toFixed(digits));

/** The terminal report of a credit pass: per run, per agent mean, 95% interval and early → late. */
export function formatCreditReport(root: string, method: string, result: CreditJobResult): string[] {
  const lines = [`Credit (${method}) of ${root}`];
  for (const run of result.runs) {
    const evaluator = run.evaluator ?? 'none (logged values only)';
    lines.push(`  ${run.run.name || '(root)'}${run.run.mechanism ? ` (${run.run.mechanism})` : ''}: ${count(run.computed)} episodes computed, ${count(run.failures.length)} failed; evaluator ${evaluator}`);
    lines.push(`    advantages: ${describeAdvantageChoice(run.advantage)}`);
    lines.push(`    ${'agent'.padEnd(14)} ${'episodes'.padStart(8)} ${'mean'.padStart(8)}   ${'95% CI'.padEnd(18)} early → late`);
    for (const a of run.agents) {
      const ci = `[${fixed(a.ci[0])}, ${fixed(a.ci[1])}]`;
      lines.push(`    ${a.agent.padEnd(14)} ${count(a.episodes).padStart(8)} ${fixed(a.mean).padStart(8)}   ${ci.padEnd(18)} ${fixed(a.early)} → ${fixed(a.late)}`);
    }
    if (run.budget) {
      const b = run.budget;
      lines.push(`    budget ${count(b.budget)} evaluator calls (planned ${count(Math.round(b.plannedCost))}): ${count(b.exactEpisodes)} of ${count(b.totalEpisodes)} episodes exact; run means (control variate):`);
      for (const a of b.agents) lines.push(`      ${a.agent.padEnd(14)} ${fixed(a.estimate)} ± ${fixed(1.959964 * a.stderr)} (95%)`);
    }
  }
  const v = result.values;
  const lookups = v.cached + v.evaluated;
  const hitRate = lookups > 0 ? `${((v.cached / lookups) * 100).toFixed(1)}%` : 'n/a';
  lines.push(`  values: ${count(v.logged)} logged, ${count(v.cached)} cached, ${count(v.evaluated)} evaluated (cache hit rate ${hitRate}); took ${seconds(result.elapsedMs)}`);
  return lines;
}

export const csvHeader = 'run,episode,step,group,reward,agent,message,method,value,stderr,ci_low,ci_high,advantage,approximate,source';

/** One stored credit row as CSV (the run's name first). */
export function csvLine(run: string, r: CreditOutputRow): string {
  const cells = [run, r.external_id, r.train_step, r.group_id, r.outcome, r.agent, r.message_seq, r.method, r.value, r.stderr, r.ci_low, r.ci_high, r.advantage, r.approximate, r.source];
  return cells.map(csvCell).join(',');
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
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
  };
}
