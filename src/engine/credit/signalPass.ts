import type { CreditEpisode, CreditParams, CreditRow } from '../../core/creditInput';
import { splitKind, type SplitChoice, type SplitKind } from '../../core/split';
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
import type { PassEpisode } from './groupAdvantages';

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
 * `tallied`: the cells the pass tallied as it wrote ({@link StreamedSignalTally}), stored instead of
 * reading the stored credit back.
 */
export function recordSignalDisagreement(
  db: Db,
  runId: number,
  params: CreditParams,
  scope: AggregateScope | undefined,
  tallied?: readonly SignalCell[],
): void {
  if (params.method === 'shared') return;
  const repo = new SignalRepository(db);
  // A pass that wrote nothing: the stored cells stand, unless there are none (an index credited before 0020).
  if (scope === undefined) {
    if (repo.hasCells(runId, params.method, params.hash)) return;
    scope = { kind: 'all' };
  }
  const signalScope: SignalScope = scope.kind === 'all' ? scope : { kind: 'steps', steps: scope.steps };
  const cells = tallied ?? storedSignalCells(repo, runId, params, signalScope);
  if (cells) repo.replace(runId, params.method, params.hash, signalScope, cells);
}

/**
 * The cells of `scope` from the stored credit of one parameter set, read one step at a time in
 * (step, group, episode, agent) order; undefined when the pass's convention is unknown.
 */
export function storedSignalCells(
  repo: SignalRepository,
  runId: number,
  params: CreditParams,
  scope: SignalScope,
): SignalCell[] | undefined {
  const advantages = sharedAdvantages(params);
  if (!advantages) return undefined;
  const cells: SignalCell[] = [];
  let step: StepTally | undefined;
  const sameGroup = (a: SignalSampleRow, b: SignalSampleRow): boolean => a.step === b.step && a.groupId === b.groupId;
  for (const group of consecutive(repo.samples(runId, params.method, params.hash, scope), sameGroup)) {
    const at = group[0]?.step ?? 0;
    if (step?.step !== at) {
      if (step) cells.push(...step.cells());
      step = new StepTally(at, advantages);
    }
    step.addGroup(group);
  }
  if (step) cells.push(...step.cells());
  return cells;
}

/**
 * The cells of a pass tallied as its groups close, for a pass that writes every row of its
 * parameter set (runCredit.ts): each closed group's episodes (failed ones too, without rows) become
 * the rows {@link SignalRepository.samples} would read back for them, tallied by the same
 * {@link StepTally}. What the read gives is matched: only stepped episodes; each (step, group) in
 * episode order; an agent's sample only from exact or estimated agent-level credit with a value (a
 * NaN one is stored as NULL); each sample under its episode's split kind (the pass's when the
 * episode does not say). The groups of
 * a step may come in another order than the read's (by group id): the counts add up, and ρ is over
 * ranks, whose sums are exact in any order.
 */
export class StreamedSignalTally {
  /**
   * Only the open step's samples are held (ρ needs them all): a step is finished into cells when
   * a later one starts, so memory stays one step's whatever the run's size. A finished step that
   * comes back (steps not contiguous in episode order) makes the tally give up (`cells` undefined),
   * and the stored credit is read instead.
   */
  private open: StepTally | undefined;
  private readonly finished = new Set<number>();
  private readonly done: SignalCell[] = [];
  private interleaved = false;

  private constructor(
    private readonly method: string,
    /** The kind of an episode that does not carry its own: the pass's, or with `all` an unsplit episode's. */
    private readonly splitKind: SplitKind,
    private readonly advantages: SharedAdvantages,
  ) {}

  /** A tally for a pass of `params` over the episodes of `split`; undefined when nothing would be stored. */
  static of(params: CreditParams, split: SplitChoice): StreamedSignalTally | undefined {
    const advantages = params.method === 'shared' ? undefined : sharedAdvantages(params);
    const kind = split === 'all' ? splitKind(null) : split;
    return advantages ? new StreamedSignalTally(params.method, kind, advantages) : undefined;
  }

  /** One closed group of the pass (or one episode without a group), its rows' advantages set. */
  addGroup(episodes: readonly PassEpisode[]): void {
    const byStep = new Map<number, SignalSampleRow[]>();
    for (const { episode, rows } of inEpisodeOrder(episodes)) {
      if (episode.step === null) continue;
      const credit = rows.get(this.method) ?? [];
      let list = byStep.get(episode.step);
      if (!list) byStep.set(episode.step, (list = []));
      for (const agent of episode.agents)
        list.push(this.sample(episode, agent.agentId, agentLevelRow(credit, agent.agentId)));
    }
    for (const [step, rows] of byStep) this.stepTally(step)?.addGroup(rows);
  }

  /** Every step's cells; undefined when steps came back after they were finished. */
  cells(): SignalCell[] | undefined {
    if (this.interleaved) return undefined;
    return this.open ? [...this.done, ...this.open.cells()] : [...this.done];
  }

  /** The open step's tally, opening `step` (and finishing the open one); undefined once the tally gave up. */
  private stepTally(step: number): StepTally | undefined {
    if (this.interleaved) return undefined;
    if (this.open?.step === step) return this.open;
    if (this.finished.has(step)) {
      this.interleaved = true;
      this.open = undefined;
      this.done.length = 0;
      return undefined;
    }
    if (this.open) {
      this.done.push(...this.open.cells());
      this.finished.add(this.open.step);
    }
    this.open = new StepTally(step, this.advantages);
    return this.open;
  }

  private sample(episode: CreditEpisode, agentId: number, row: CreditRow | undefined): SignalSampleRow {
    const usable = (row?.status === 'exact' || row?.status === 'estimated') && !Number.isNaN(row.value);
    return {
      step: episode.step ?? 0,
      groupId: episode.group,
      episodeId: episode.episodeId,
      splitKind: episode.splitKind ?? this.splitKind,
      outcome: episode.reward,
      agentId,
      advantage: usable ? row.advantage : null,
    };
  }
}

type SharedAdvantages = (values: Float64Array) => Float64Array;

/** A closed group's episodes by id (as the stored read gives them); the pass closes them in that order, so most need no sort. */
function inEpisodeOrder(episodes: readonly PassEpisode[]): readonly PassEpisode[] {
  for (let k = 1; k < episodes.length; k++)
    if ((episodes[k - 1]?.episode.episodeId ?? 0) > (episodes[k]?.episode.episodeId ?? 0))
      return [...episodes].sort((a, b) => a.episode.episodeId - b.episode.episodeId);
  return episodes;
}

/** An agent's agent-level row among an episode's rows of one method (the last, as the stored key keeps one). */
function agentLevelRow(rows: readonly CreditRow[], agentId: number): CreditRow | undefined {
  let found: CreditRow | undefined;
  for (const row of rows) if (row.messageSeq === null && row.agentId === agentId) found = row;
  return found;
}

/** The shared reward's advantages in the pass's convention (its params' `advantage`); undefined when unknown. */
function sharedAdvantages(params: CreditParams): SharedAdvantages | undefined {
  const named =
    typeof params.params['advantage'] === 'string' ? params.params['advantage'] : defaultAdvantageConvention;
  const convention = findAdvantageConvention(named) ?? findAdvantageConvention(defaultAdvantageConvention);
  return convention && ((values) => advantagesFor(convention, values));
}

/** The runs of consecutive items that `same` puts together. */
function* consecutive<T>(items: Iterable<T>, same: (a: T, b: T) => boolean): Generator<T[]> {
  let run: T[] = [];
  for (const item of items) {
    const last = run[run.length - 1];
    if (last !== undefined && !same(last, item)) {
      yield run;
      run = [];
    }
    run.push(item);
  }
  if (run.length > 0) yield run;
}

/** The cells of one step, tallied one (step, group) at a time. */
class StepTally {
  /** By split kind, then agent id, in first-seen order. */
  private readonly agents = new Map<string, Map<number, AgentTally>>();

  constructor(
    readonly step: number,
    private readonly advantages: SharedAdvantages,
  ) {}

  /**
   * Pairs each roster row of one group (rows of this step with one group id, in episode order)
   * with the shared advantage of its episode. The rows without a group are one such group.
   */
  addGroup(rows: readonly SignalSampleRow[]): void {
    if (rows.length === 0) return;
    // Each episode's position in the group (first seen) and its outcome (its last row's, all equal).
    const position = new Map<number, number>();
    const outcomes: number[] = [];
    for (const row of rows) {
      const at = position.get(row.episodeId);
      if (at === undefined) {
        position.set(row.episodeId, outcomes.length);
        outcomes.push(row.outcome ?? NaN);
      } else outcomes[at] = row.outcome ?? NaN;
    }
    const shared = this.advantages(Float64Array.from(outcomes));
    for (const row of rows) {
      const tally = this.tally(row);
      const a = shared[position.get(row.episodeId) ?? -1] ?? NaN;
      if (row.groupId === null) tally.noGroup++;
      else if (row.advantage === null || !Number.isFinite(row.advantage)) tally.noCredit++;
      else if (!Number.isFinite(a)) tally.noReward++;
      else {
        tally.shared.push(a);
        tally.credit.push(row.advantage);
      }
    }
  }

  /** The step's cells. */
  cells(): SignalCell[] {
    return [...this.agents.values()]
      .flatMap((byAgent) => [...byAgent.values()])
      .map((t): SignalCell => {
        const r = signDisagreement(t.shared, t.credit);
        const { splitKind, agentId, noGroup, noCredit, noReward } = t;
        return {
          splitKind,
          step: this.step,
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
  }

  private tally(row: SignalSampleRow): AgentTally {
    let byAgent = this.agents.get(row.splitKind);
    if (!byAgent) this.agents.set(row.splitKind, (byAgent = new Map<number, AgentTally>()));
    let tally = byAgent.get(row.agentId);
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
      byAgent.set(row.agentId, tally);
    }
    return tally;
  }
}
