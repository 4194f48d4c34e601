import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mulberry32 } from '../src/core/mulberry32';
import { writeDemoRun } from '../src/demo/writeDemoRun';
import { runCreditJob, type CreditJobOptions, type RunCreditResult } from '../src/engine/credit/creditJob';
import type { EvaluatorChoice } from '../src/engine/credit/chooseEvaluator';
import { startAgentServer } from '../src/engine/evaluators/replay/localAgentServer';
import { parseReplayOptions } from '../src/engine/evaluators/replay/replayOptions';
import { runIndexJob } from '../src/engine/indexJob';

// `node dist/bench.js replay-budget [--episodes N] [--repeat R]`: the calls the budget saves. On the
// demo's planner-solver-verifier run (every value replayed, `--no-logged`) against the demo's agents
// on a local OpenAI-compatible server, an exact replayed leave-one-out gives each agent's run mean
// and the calls it takes; then `--budget B` passes (R seeds each, every pass on a fresh copy of the
// index so nothing is cached) estimate the same means with the control variate, and a uniform
// subsample of episodes costing the same B calls (drawn from the exact values, no extra call) is
// the reference. The error is the root-mean-square error of the per-agent run means.

const team = 'planner-solver-verifier';
const shares = [0.05, 0.1, 0.2, 0.4] as const;

/** One budget: what it spent and how far its run means are from the exact ones. */
export interface BudgetRow {
  readonly budget: number;
  readonly spent: number;
  readonly exactEpisodes: number;
  readonly rmse: number;
  readonly maxError: number;
  /** Mean reported 95% half-width of the per-agent estimates. */
  readonly halfWidth: number;
  readonly uniformRmse: number;
}

export interface BudgetBench {
  readonly episodes: number;
  readonly repeats: number;
  readonly fullCalls: number;
  readonly fullSeconds: number;
  readonly truth: ReadonlyMap<string, number>;
  readonly rows: readonly BudgetRow[];
}

/** Runs the bench: the exact pass, then each budget `repeats` times. */
export async function replayBudget(episodes: number, repeats: number): Promise<BudgetBench> {
  const work = mkdtempSync(join(tmpdir(), 'credit-lens-replay-budget-'));
  const server = await startAgentServer();
  try {
    writeDemoRun(work, { episodes });
    const template = join(work, 'template.sqlite');
    await runIndexJob({ root: work, dbPath: template, search: false });
    const evaluator = replayChoice(server.url);
    const base = { root: work, method: 'loo', run: team, useLogged: false, evaluator } as const;
    const started = performance.now();
    const exactValues: number[][] = [];
    const full = await pass(work, template, 'full', base, (rows) => exactValues.push(...rows));
    const fullSeconds = (performance.now() - started) / 1000;
    const agents = full.agents.map((a) => a.agent);
    const truth = new Map(full.agents.map((a) => [a.agent, a.mean]));
    const fullCalls = full.usage?.calls ?? 0;
    const perEpisode = fullCalls / Math.max(1, exactValues.length);
    const rows: BudgetRow[] = [];
    for (const share of shares) {
      const budget = Math.round(share * fullCalls);
      const runs: RunCreditResult[] = [];
      for (let seed = 1; seed <= repeats; seed++)
        runs.push(await pass(work, template, `b${budget}-${seed}`, { ...base, budget, budgetSeed: seed }));
      const uniform = Array.from({ length: repeats }, (_, k) =>
        uniformMeans(exactValues, Math.floor(budget / perEpisode), k + 1),
      );
      rows.push(budgetRow(budget, runs, agents, truth, uniform));
    }
    return { episodes: exactValues.length, repeats, fullCalls, fullSeconds, truth, rows };
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

function replayChoice(url: string): EvaluatorChoice {
  const parsed = parseReplayOptions({ url });
  if (!parsed.ok) throw new Error(parsed.error);
  return { kind: 'replay', options: parsed.value };
}

/** One credit pass on a fresh copy of the template index (so nothing is cached); `onRows` gets the per-episode LOO values. */
async function pass(
  root: string,
  template: string,
  name: string,
  options: CreditJobOptions,
  onRows?: (values: number[][]) => void,
): Promise<RunCreditResult> {
  const db = join(root, `${name}.sqlite`);
  copyFileSync(template, db);
  const byEpisode = new Map<number, number[]>();
  const result = await runCreditJob(
    { ...options, dbPath: db },
    {
      onEpisode: (report) => {
        const rows = report.rows.get('loo')?.filter((r) => r.messageSeq === null) ?? [];
        byEpisode.set(
          report.episode.episodeId,
          rows.map((r) => r.value),
        );
      },
    },
  );
  rmSync(db, { force: true });
  const run = result.runs[0];
  if (!run || run.failures.length > 0) throw new Error(`pass ${name} failed: ${run?.failures[0]?.reason ?? 'no run'}`);
  onRows?.([...byEpisode.values()]);
  return run;
}

/** Per-agent means of `count` episodes drawn uniformly without replacement. */
function uniformMeans(values: readonly number[][], count: number, seed: number): number[] {
  const random = mulberry32(seed);
  const pool = [...values];
  for (let i = 0; i < count && i < pool.length; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j] as number[], pool[i] as number[]];
  }
  const chosen = pool.slice(0, Math.max(1, count));
  const agents = chosen[0]?.length ?? 0;
  return Array.from({ length: agents }, (_, a) => chosen.reduce((s, v) => s + (v[a] ?? 0), 0) / chosen.length);
}

function budgetRow(
  budget: number,
  runs: readonly RunCreditResult[],
  agents: readonly string[],
  truth: ReadonlyMap<string, number>,
  uniform: readonly number[][],
): BudgetRow {
  const errors = runs.flatMap((r) => (r.budget?.agents ?? []).map((a) => a.estimate - (truth.get(a.agent) ?? NaN)));
  const uniformErrors = uniform.flatMap((means) => means.map((m, a) => m - (truth.get(agents[a] ?? '') ?? NaN)));
  const halfWidths = runs.flatMap((r) => (r.budget?.agents ?? []).map((a) => 1.959964 * a.stderr));
  return {
    budget,
    spent: mean(runs.map((r) => r.usage?.calls ?? 0)),
    exactEpisodes: mean(runs.map((r) => r.budget?.exactEpisodes ?? 0)),
    rmse: Math.sqrt(mean(errors.map((e) => e * e))),
    maxError: Math.max(...errors.map(Math.abs)),
    halfWidth: mean(halfWidths),
    uniformRmse: Math.sqrt(mean(uniformErrors.map((e) => e * e))),
  };
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

/** The bench as Markdown: the exact pass, then one row per budget. */
export function formatReplayBudget(b: BudgetBench): string {
  const f = (x: number, d = 3): string => x.toFixed(d);
  const truth = [...b.truth].map(([agent, m]) => `${agent} ${f(m)}`).join(', ');
  const lines = [
    `Exact replayed LOO: ${b.episodes} episodes, ${b.fullCalls} calls, ${f(b.fullSeconds, 1)} s; run means ${truth}.`,
    `Budgeted passes: ${b.repeats} seeds per budget, each on a fresh index.`,
    '',
    '| budget (calls) | share of exact | calls spent (mean) | calls saved | exact episodes (mean) | RMSE of run means | max error | mean 95% half-width | uniform subsample RMSE (same calls) |',
    '|---|---|---|---|---|---|---|---|---|',
    ...b.rows.map(
      (r) =>
        `| ${r.budget} | ${f((100 * r.budget) / b.fullCalls, 0)}% | ${f(r.spent, 1)} | ${f(b.fullCalls - r.spent, 0)} | ${f(r.exactEpisodes, 1)} | ${f(r.rmse)} | ${f(r.maxError)} | ${f(r.halfWidth)} | ${f(r.uniformRmse)} |`,
    ),
  ];
  return lines.join('\n');
}
