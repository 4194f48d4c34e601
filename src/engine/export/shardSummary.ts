import { normalInterval } from '../../credit/stats/pairedStatistics';
import type { AgentSummary } from '../credit/creditSummary';
import { ExportRepository, type ExportFlagRow } from '../../store/exportRepository';
import type { ShardProblem, ShardSet } from '../../store/shardSet';
import { ShardSummaryRepository, type AgentCreditSums, type WindowCut } from '../../store/shardSummaryRepository';

/** A run's per-agent credit over every shard that holds some of it. */
export interface ShardRunSummary {
  readonly run: string;
  readonly agents: readonly AgentSummary[];
  /** The shards (paths) whose latest parameter set differs from the first shard's: their values mix passes. */
  readonly mixedParams: readonly string[];
}

/** The stored credit and flags of several indexes read together. */
export interface ShardSummary {
  readonly shards: readonly string[];
  /** Shards left out, with why (missing, corrupt, another schema). */
  readonly skipped: readonly ShardProblem[];
  readonly method: string;
  readonly runs: readonly ShardRunSummary[];
  /** Every stored flag of every shard, with the shard's path. */
  readonly flags: readonly (Omit<ExportFlagRow, 'shard'> & { readonly shard: string })[];
}

/**
 * The per-agent summary of `credit-lens credit` (mean, 95% interval, early and late means, status
 * counts) from the credit stored in several shards, computed from additive sums so that it equals
 * the summary of one index over all their files: means are Σvalue / Σn over every shard, never a
 * mean of shard means. Nothing is computed anew; the flags are those each shard's audit stored.
 */
export function shardSummary(
  shards: ShardSet,
  skipped: readonly ShardProblem[],
  method: string,
  run?: string,
): ShardSummary {
  const repository = new ShardSummaryRepository(shards);
  const sums = combine(repository.sums(method, run));
  const cuts: WindowCut[] = [...sums.values()].map((s) => {
    const quarter = (s.max_step - s.min_step) / 4;
    return { run: s.run, agent: s.agent, low: s.min_step + quarter, high: s.max_step - quarter };
  });
  const windows = new Map<string, { early: [number, number]; late: [number, number] }>();
  for (const w of repository.windows(method, cuts, run)) {
    const entry = windows.get(key(w)) ?? { early: [0, 0], late: [0, 0] };
    entry.early = [entry.early[0] + (w.early_total ?? 0), entry.early[1] + w.early_n];
    entry.late = [entry.late[0] + (w.late_total ?? 0), entry.late[1] + w.late_n];
    windows.set(key(w), entry);
  }
  const runs = new Map<string, AgentSummary[]>();
  for (const s of sums.values()) {
    const w = windows.get(key(s));
    const list = runs.get(s.run) ?? [];
    list.push(agentSummary(s, w?.early ?? [0, 0], w?.late ?? [0, 0]));
    runs.set(s.run, list);
  }
  const params = repository.params(method, run);
  return {
    shards: shards.paths,
    skipped,
    method,
    runs: [...runs].map(([name, agents]) => ({ run: name, agents, mixedParams: mixedParams(shards, params, name) })),
    flags: [...new ExportRepository(shards).flags()]
      .filter((f) => run === undefined || f.run === run)
      .map((f) => ({ ...f, shard: shards.paths[f.shard] ?? String(f.shard) })),
  };
}

const key = (row: { run: string; agent: string }): string => JSON.stringify([row.run, row.agent]);

/** Adds up the partial sums of each (run, agent) from several connections. */
function combine(rows: readonly AgentCreditSums[]): Map<string, AgentCreditSums> {
  const out = new Map<string, AgentCreditSums>();
  for (const row of rows) {
    const seen = out.get(key(row));
    out.set(
      key(row),
      seen === undefined
        ? row
        : {
            ...seen,
            n: seen.n + row.n,
            total: seen.total + row.total,
            squares: seen.squares + row.squares,
            min_step: Math.min(seen.min_step, row.min_step),
            max_step: Math.max(seen.max_step, row.max_step),
            exact: seen.exact + row.exact,
            estimated: seen.estimated + row.estimated,
            approximate: seen.approximate + row.approximate,
          },
    );
  }
  return out;
}

/** Mean and normal 95% interval from sums (sample variance, ddof 1), as credit/stats/pairedStatistics gives them. */
function agentSummary(s: AgentCreditSums, early: [number, number], late: [number, number]): AgentSummary {
  const mean = s.total / s.n;
  const variance = s.n < 2 ? 0 : Math.max(0, (s.squares - s.n * mean * mean) / (s.n - 1));
  const ci = s.n < 2 ? ([mean, mean] as const) : normalInterval(mean, Math.sqrt(variance / s.n), 0.95);
  return {
    agent: s.agent,
    episodes: s.n,
    mean,
    ci,
    early: early[1] === 0 ? Number.NaN : early[0] / early[1],
    late: late[1] === 0 ? Number.NaN : late[0] / late[1],
    status: { exact: s.exact, estimated: s.estimated, approximate: s.approximate },
  };
}

function mixedParams(
  shards: ShardSet,
  params: readonly { shard: number; run: string; params_hash: string }[],
  run: string,
) {
  const ofRun = params.filter((p) => p.run === run);
  const first = ofRun[0]?.params_hash;
  return ofRun.filter((p) => p.params_hash !== first).map((p) => shards.paths[p.shard] ?? String(p.shard));
}
