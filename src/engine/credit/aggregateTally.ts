import type { CreditEpisode, CreditRow } from '../../core/creditInput';
import type { SplitKind } from '../../core/split';
import type { CoverageCell, CreditStepCell, TalliedAggregates } from '../../store/viewAggregates';

/** One (method, split kind, step, agent): its credit sum and counts, at each tolerance. */
interface AgentCell {
  readonly method: string;
  readonly splitKind: string;
  readonly step: number;
  readonly agentId: number;
  total: number;
  /** Neumaier's running compensation of `total`: the sum is as exact as SQLite's, whatever the order. */
  compensation: number;
  n: number;
  spoke: number;
  /** Per tolerance, in the order of the tally's `tolerances`. */
  readonly idle: number[];
}

interface CoverageTally {
  readonly method: string;
  readonly splitKind: string;
  readonly step: number | null;
  drawn: number;
  approximate: number;
  unidentified: number;
  failed: number;
}

/**
 * The Run Dashboard's aggregates of a credit pass (`credit_step_agent`, `credit_step_coverage`,
 * store/viewAggregates.ts) tallied as the pass accepts and fails its episodes, for a pass that
 * writes every row of its parameter set (runCredit.ts): what the rebuild's GROUP BY would read back
 * from the rows, without reading them. The rebuild's rules, one by one: credit cells only of
 * stepped episodes, from agent-level rows with a value (a NaN is stored as NULL) and an exact or
 * estimated status; `spoke` counts rows whose agent wrote a message (or has no roster row), `idle`
 * those of them with |credit| ≤ ε, at each tolerance; coverage per episode and method: drawn when
 * one agent-level row is exact or estimated, approximate when one is approximate; failures under
 * the pass's method, not identifiable or failed. Sums are added in the pass's order, the rebuild's
 * in SQLite's, both compensated: they agree to the last bits.
 */
export class AggregateTally {
  private readonly agents = new Map<string, AgentCell>();
  private readonly coverage = new Map<string, CoverageTally>();

  constructor(
    private readonly hash: string,
    /** The pass's method: failures are stored under it. */
    private readonly method: string,
    private readonly tolerances: readonly number[],
    /** The kind of an episode that does not carry its own (the pass's). */
    private readonly splitKind: SplitKind,
  ) {}

  /** An accepted episode's rows, by method. */
  accepted(episode: CreditEpisode, rows: ReadonlyMap<string, readonly CreditRow[]>): void {
    const kind = episode.splitKind ?? this.splitKind;
    for (const [method, list] of rows) {
      let drawn = false;
      let approximate = false;
      let agentLevel = false;
      for (const row of list) {
        if (row.messageSeq !== null) continue;
        agentLevel = true;
        const counted = row.status === 'exact' || row.status === 'estimated';
        drawn ||= counted;
        approximate ||= row.status === 'approximate';
        if (counted && episode.step !== null && !storedAsNull(row.value)) this.addCredit(method, kind, episode, row);
      }
      if (agentLevel) {
        const cell = this.coverageOf(method, kind, episode.step);
        cell.drawn += drawn ? 1 : 0;
        cell.approximate += approximate ? 1 : 0;
      }
    }
  }

  /** A failed episode: its error row, not identifiable or failed. */
  failed(episode: CreditEpisode, notIdentifiable: boolean): void {
    const cell = this.coverageOf(this.method, episode.splitKind ?? this.splitKind, episode.step);
    if (notIdentifiable) cell.unidentified++;
    else cell.failed++;
  }

  /** The cells tallied so far, as the aggregates' rows. */
  cells(): TalliedAggregates {
    const credit: CreditStepCell[] = [];
    for (const cell of this.agents.values())
      this.tolerances.forEach((epsilon, k) =>
        credit.push({
          method: cell.method,
          epsilon,
          splitKind: cell.splitKind,
          step: cell.step,
          agentId: cell.agentId,
          total: cell.total + cell.compensation,
          n: cell.n,
          spoke: cell.spoke,
          idle: cell.idle[k] ?? 0,
        }),
      );
    const coverage: CoverageCell[] = [...this.coverage.values()].map((c) => ({ ...c }));
    return { hash: this.hash, credit, coverage };
  }

  private addCredit(method: string, splitKind: string, episode: CreditEpisode, row: CreditRow): void {
    const step = episode.step as number;
    const key = `${method}\u0000${splitKind}\u0000${step}\u0000${row.agentId}`;
    let cell = this.agents.get(key);
    if (!cell) {
      const idle = this.tolerances.map(() => 0);
      cell = { method, splitKind, step, agentId: row.agentId, total: 0, compensation: 0, n: 0, spoke: 0, idle };
      this.agents.set(key, cell);
    }
    addCompensated(cell, row.value);
    cell.n++;
    if (!spoke(episode, row.agentId)) return;
    cell.spoke++;
    const magnitude = Math.abs(row.value);
    this.tolerances.forEach((epsilon, k) => {
      if (magnitude <= epsilon) cell.idle[k] = (cell.idle[k] ?? 0) + 1;
    });
  }

  private coverageOf(method: string, splitKind: string, step: number | null): CoverageTally {
    const key = `${method}\u0000${splitKind}\u0000${step}`;
    let cell = this.coverage.get(key);
    if (!cell) {
      cell = { method, splitKind, step, drawn: 0, approximate: 0, unidentified: 0, failed: 0 };
      this.coverage.set(key, cell);
    }
    return cell;
  }
}

/** A value the index stores as NULL (NaN; a null that reached a row despite its type). */
function storedAsNull(value: number | null): boolean {
  return value === null || Number.isNaN(value);
}

/** Neumaier's compensated addition (the Kahan–Babuška–Neumaier sum SQLite's sum() uses). */
function addCompensated(cell: AgentCell, value: number): void {
  const sum = cell.total + value;
  cell.compensation += Math.abs(cell.total) >= Math.abs(value) ? cell.total - sum + value : value - sum + cell.total;
  cell.total = sum;
}

/** Whether the agent wrote a message in the episode (an agent without a roster row counts, as in the rebuild's LEFT JOIN). */
function spoke(episode: CreditEpisode, agentId: number): boolean {
  const i = episode.agents.findIndex((a) => a.agentId === agentId);
  const messages = i < 0 ? undefined : episode.agentMessages?.[i];
  return messages === undefined || messages !== 0;
}
