import { defaultSplit, type SplitChoice } from '../../core/split';
import { BrowseRepository } from '../../store/browseRepository';
import type { Db } from '../../store/database';
import type { CreditCoverage } from '../../core/provenance';
import { DashboardRepository, type StepAgentCredit } from '../../store/dashboardRepository';
import { AgentSummaryRepository, type AgentCreditValue } from '../../store/agentSummaryRepository';
import { CreditColourRepository } from '../../store/creditColourRepository';
import { creditDomain } from './creditDomain';
import { agentSummary } from './agentSummary';
import { runOverview } from './runOverview';
import { signalMethod, signalView } from './signalView';
import { SignalRepository } from '../../store/signalRepository';
import type {
  AgentSummary,
  CreditStatus,
  DashboardRun,
  EpisodePage,
  EpisodeQuery,
  RunOverview,
  SignalDisagreementView,
  ViewMethod,
} from './viewTypes';
import type { OverviewDelta } from '../../protocol/dashboardPanel';

const sum = (steps: readonly { readonly episodes: number }[]): number => steps.reduce((n, s) => n + s.episodes, 0);

function emptyCoverage(episodes: number): CreditCoverage {
  return { episodes, drawn: 0, approximate: 0, notIdentifiable: 0, failed: 0, reason: null, remedy: null };
}

/**
 * The data of the Run Dashboard for one indexed folder: its runs, a run's per-step overview under
 * one credit method (aggregated in SQL), and pages of its episode table.
 */
export class DashboardViewService {
  private readonly repo: DashboardRepository;
  private readonly browse: BrowseRepository;
  private readonly agents: AgentSummaryRepository;
  private readonly colours: CreditColourRepository;
  private readonly signals: SignalRepository;

  /** `root`: absolute path of the indexed folder. */
  constructor(
    db: Db,
    readonly root: string,
  ) {
    this.repo = new DashboardRepository(db);
    this.browse = new BrowseRepository(db);
    this.agents = new AgentSummaryRepository(db);
    this.colours = new CreditColourRepository(db);
    this.signals = new SignalRepository(db);
  }

  /** Runs that still have a source, by root; agents in roster order. */
  runs(): DashboardRun[] {
    return this.repo.runs();
  }

  /**
   * The run's charts under `method`, from the parameter set computed last. `shared` with nothing
   * stored is derived from the logged team reward. Status: `computed` when some episode has credit,
   * `failed` when none has and the last pass recorded failures, else `not-computed`. Steps, episode
   * counts, team reward, credit and coverage are of the episodes in `split` (the training split by
   * default, as credit and audit: validation episodes never pool into the training curves).
   */
  overview(runId: number, method: ViewMethod, epsilon: number, split: SplitChoice = defaultSplit): RunOverview {
    // Read first: episodes appended while the aggregates run are re-read by the next delta.
    const watermark = this.repo.watermark();
    const signal = this.signal(runId, method, split);
    return { ...this.assemble(runId, method, epsilon, split), watermark, signal };
  }

  /**
   * Sign disagreement of the run's agents (credit-methods.md §3.18) under the method (loo while the
   * dashboard shows shared), from the stored counts of its parameter set computed last: the
   * aggregate table only, never an episode. A delta leaves it as it is: only a credit pass changes it.
   */
  signal(runId: number, method: ViewMethod, split: SplitChoice = defaultSplit): SignalDisagreementView {
    const compared = signalMethod(method);
    const hash = this.repo.latestParams(runId, compared);
    const cells = hash === undefined ? undefined : this.signals.byStep(runId, compared, hash, split);
    return signalView({ method: compared, agents: this.repo.agents(runId), cells });
  }

  /**
   * What changed in {@link overview} since `after` (an overview's watermark), when episodes were only
   * appended since: the steps of the episodes after it, re-read whole, with status and coverage.
   * Cost grows with those steps' episodes, not the run's.
   */
  overviewDelta(
    runId: number,
    method: ViewMethod,
    epsilon: number,
    after: number,
    split: SplitChoice = defaultSplit,
  ): OverviewDelta {
    const watermark = this.repo.watermark();
    const recomputed = this.repo.stepsAfter(runId, after);
    const part = this.assemble(runId, method, epsilon, split, recomputed);
    const { steps, teamReward, episodes, creditShare, meanCredit, idleRate, flagCounts } = part;
    return {
      runId,
      method,
      status: part.status,
      coverage: part.coverage,
      watermark,
      recomputed,
      columns: { steps, teamReward, episodes, creditShare, meanCredit, idleRate, flagCounts },
    };
  }

  /** The overview, of the steps `only` when given (coverage and status are always of the whole run). */
  private assemble(
    runId: number,
    method: ViewMethod,
    epsilon: number,
    split: SplitChoice,
    only?: readonly number[],
  ): RunOverview {
    const stored = this.storedCredit(runId, method, split);
    let credit: StepAgentCredit[] = [];
    let status: CreditStatus = stored?.status ?? 'not-computed';
    const steps = this.repo.steps(runId, split, only);
    // Counted only when no parameter set's coverage replaces it (a count over the run's episodes).
    const uncredited = (): CreditCoverage => emptyCoverage(only ? this.repo.steppedEpisodes(runId, split) : sum(steps));
    let coverage: CreditCoverage;
    if (stored?.hash !== undefined) {
      credit = this.repo.creditByStep(runId, method, stored.hash, epsilon, split, only);
      coverage = stored.coverage;
    } else if (method === 'shared') {
      credit = this.repo.sharedByStep(runId, epsilon, split, only);
      // Whether some step has a logged reward is a property of the run, not of the steps re-read.
      const computed = only ? this.repo.hasShared(runId, split) : credit.length > 0;
      status = computed ? 'computed' : 'not-computed';
      coverage = uncredited();
      if (computed) coverage = { ...coverage, drawn: coverage.episodes };
    } else coverage = stored?.coverage ?? uncredited();
    // Steps the data cannot answer are only looked up when some credit is drawn beside them.
    const unidentifiedSteps =
      stored?.hash !== undefined && coverage.notIdentifiable > 0 && coverage.drawn > 0
        ? this.colours.unidentifiedSteps(runId, method, stored.hash)
        : [];
    return runOverview({
      colour: { domain: creditDomain(this.colours.rewardSpan(runId)), unidentifiedSteps },
      coverage,
      runId,
      method,
      status,
      epsilon,
      agents: this.repo.agents(runId),
      steps,
      credit,
      flags: this.browse.flags(runId),
      episodeFlagSteps: this.repo.episodeFlagSteps(runId),
    });
  }

  /**
   * The stored credit of the run under `method`: the parameter set computed last, its status and
   * coverage (`computed` when some episode has drawn credit); else the last failure's; undefined
   * when neither is stored.
   */
  private storedCredit(
    runId: number,
    method: ViewMethod,
    split: SplitChoice,
  ): { hash?: string; status: CreditStatus; coverage: CreditCoverage } | undefined {
    const hash = this.repo.latestParams(runId, method);
    if (hash !== undefined) {
      const coverage = this.repo.coverage(runId, method, hash, split);
      // Only exact or estimated credit is drawn; a run with none of it is not "computed".
      const status =
        coverage.drawn > 0
          ? 'computed'
          : coverage.notIdentifiable > 0 || coverage.approximate > 0
            ? 'not-identifiable'
            : 'failed';
      return { hash, status, coverage };
    }
    const failure = this.repo.latestFailure(runId, method);
    if (failure === undefined) return undefined;
    return {
      status: failure.status === 'not-identifiable' ? 'not-identifiable' : 'failed',
      coverage: this.repo.coverage(runId, method, failure.paramsHash, split),
    };
  }

  /**
   * The run's per-agent summary under `method` (see {@link agentSummary}), over the episodes in
   * `split`, with or without training steps. `shared` with nothing stored is the logged team reward
   * of every roster agent.
   */
  agentSummary(runId: number, method: ViewMethod, split: SplitChoice = defaultSplit): AgentSummary {
    const stored = this.storedCredit(runId, method, split);
    const counts = this.agents.episodeCounts(runId, split);
    let values: AgentCreditValue[] = [];
    let status: CreditStatus = stored?.status ?? 'not-computed';
    let coverage = stored?.coverage ?? emptyCoverage(counts.episodes);
    if (stored?.hash !== undefined) values = this.agents.creditValues(runId, method, stored.hash, split);
    else if (method === 'shared') {
      values = this.agents.sharedValues(runId, split);
      status = counts.rewarded > 0 ? 'computed' : 'not-computed';
      coverage = { ...emptyCoverage(counts.episodes), drawn: counts.rewarded };
    }
    return agentSummary({
      runId,
      method,
      status,
      coverage,
      steplessEpisodes: counts.stepless,
      agents: this.repo.agents(runId),
      values,
      activity: this.agents.activity(runId, split),
      flags: this.browse.flags(runId),
      audit: this.agents.auditSummary(runId),
    });
  }

  /**
   * One page of the run's episode table. A full-text query SQLite cannot run (FTS5 syntax) gives an
   * empty page with `searchError` instead of an exception.
   */
  episodes(query: EpisodeQuery): EpisodePage {
    let page: ReturnType<DashboardRepository['episodePage']>;
    // The agent columns show the method's parameter set computed last, as the charts do.
    const method = query.method ?? null;
    const paramsHash = method === null ? undefined : this.repo.latestParams(query.runId, method);
    const credit = method !== null && paramsHash !== undefined ? { method, paramsHash } : null;
    try {
      page = this.repo.episodePage({ ...query, credit });
    } catch (error) {
      const search = query.filter.search;
      if (search === undefined || search === null) throw error;
      return {
        total: 0,
        totalIsLowerBound: false,
        offset: query.offset,
        rows: [],
        searchError: `cannot search for "${search}": ${(error as Error).message}`,
      };
    }
    return {
      total: page.total,
      totalIsLowerBound: page.totalIsLowerBound,
      offset: query.offset,
      searchError: null,
      ...(page.inIndexOrder ? { inIndexOrder: true } : {}),
      ...(page.unsearched > 0 ? { unsearched: page.unsearched } : {}),
      creditAgents: page.agents,
      rows: page.rows,
    };
  }
}
