import type { CreditParams } from '../../core/creditInput';
import { advantagesFor, findAdvantageConvention } from '../../credit/signals/advantageConventions';
import { signDisagreement } from '../../credit/signals/signDisagreement';
import type { Db } from '../../store/database';
import {
  SignalRepository,
  type SignalCell,
  type SignalSampleRow,
  type SignalScope,
} from '../../store/signalRepository';
import type { AggregateScope } from '../../store/viewAggregates';
import { defaultAdvantageConvention } from './advantageConvention';

/** One (split kind, agent) of the step being read: the sample pairs and what was left out. */
interface AgentTally {
  readonly splitKind: string;
  readonly agentId: number;
  readonly shared: number[];
  readonly credit: number[];
  noGroup: number;
  noCredit: number;
  noReward: number;
}

/**
 * Recomputes the sign disagreement of one credit pass (credit-methods.md §3.18) for the steps it
 * wrote (`scope`, as the dashboard's aggregates are rebuilt) and replaces their stored cells:
 * per step and GRPO group, the shared reward's advantages in the pass's convention
 * (`advantagesFor`, the same code as the stored credit advantages), paired with each agent's stored
 * credit advantage. `shared` is the reference itself and stores nothing. Reads one step at a time.
 * `scope` undefined: the pass wrote nothing, and only a parameter set without any cell is read whole.
 */
export function recordSignalDisagreement(
  db: Db,
  runId: number,
  params: CreditParams,
  scope: AggregateScope | undefined,
): void {
  if (params.method === 'shared') return;
  const repo = new SignalRepository(db);
  // A pass that wrote nothing: the stored cells stand, unless there are none (an index credited before 0020).
  if (scope === undefined) {
    if (repo.hasCells(runId, params.method, params.hash)) return;
    scope = { kind: 'all' };
  }
  const named =
    typeof params.params['advantage'] === 'string' ? params.params['advantage'] : defaultAdvantageConvention;
  const convention = findAdvantageConvention(named) ?? findAdvantageConvention(defaultAdvantageConvention);
  if (!convention) return;
  const signalScope: SignalScope = scope.kind === 'all' ? scope : { kind: 'steps', steps: scope.steps };
  const cells: SignalCell[] = [];
  const step = new StepTally((values) => advantagesFor(convention, values));
  for (const row of repo.samples(runId, params.method, params.hash, signalScope)) {
    if (step.step !== undefined && row.step !== step.step) cells.push(...step.finish());
    step.add(row);
  }
  cells.push(...step.finish());
  repo.replace(runId, params.method, params.hash, signalScope, cells);
}

/** The rows of one step, grouped as they arrive in (group, episode, agent) order. */
class StepTally {
  step: number | undefined;
  private readonly agents = new Map<string, AgentTally>();
  private group: SignalSampleRow[] = [];

  constructor(private readonly advantages: (values: Float64Array) => Float64Array) {}

  add(row: SignalSampleRow): void {
    this.step = row.step;
    const last = this.group[this.group.length - 1];
    if (last && last.groupId !== row.groupId) this.closeGroup();
    this.group.push(row);
  }

  /** The step's cells; the tally is empty afterwards. */
  finish(): SignalCell[] {
    this.closeGroup();
    const step = this.step;
    const cells = [...this.agents.values()].map((t): SignalCell => {
      const r = signDisagreement(t.shared, t.credit);
      const { splitKind, agentId, noGroup, noCredit, noReward } = t;
      return {
        splitKind,
        step: step ?? 0,
        agentId,
        n: r.n,
        opposite: r.opposite,
        zero: r.zero,
        sharedOnly: r.sharedOnly,
        rho: r.rho,
        noGroup,
        noCredit,
        noReward,
      };
    });
    this.agents.clear();
    this.step = undefined;
    return cells;
  }

  /** Pairs each roster row of the group with the shared advantage of its episode. */
  private closeGroup(): void {
    const rows = this.group;
    this.group = [];
    if (rows.length === 0) return;
    const episodes = [...new Set(rows.map((r) => r.episodeId))];
    const outcomes = new Map(rows.map((r) => [r.episodeId, r.outcome ?? NaN]));
    const shared = this.advantages(Float64Array.from(episodes, (id) => outcomes.get(id) ?? NaN));
    const sharedOf = new Map(episodes.map((id, k) => [id, shared[k] ?? NaN]));
    for (const row of rows) {
      const tally = this.tally(row);
      const a = sharedOf.get(row.episodeId) ?? NaN;
      if (row.groupId === null) tally.noGroup++;
      else if (row.advantage === null || !Number.isFinite(row.advantage)) tally.noCredit++;
      else if (!Number.isFinite(a)) tally.noReward++;
      else {
        tally.shared.push(a);
        tally.credit.push(row.advantage);
      }
    }
  }

  private tally(row: SignalSampleRow): AgentTally {
    const key = `${row.splitKind}\u0000${String(row.agentId)}`;
    let tally = this.agents.get(key);
    if (!tally) {
      tally = {
        splitKind: row.splitKind,
        agentId: row.agentId,
        shared: [],
        credit: [],
        noGroup: 0,
        noCredit: 0,
        noReward: 0,
      };
      this.agents.set(key, tally);
    }
    return tally;
  }
}
