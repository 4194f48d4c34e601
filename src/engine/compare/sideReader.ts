import type { ComparisonSide, CompareRunChoice } from '../../core/runComparison';
import { AgentSummaryRepository } from '../../store/agentSummaryRepository';
import { BrowseRepository } from '../../store/browseRepository';
import { CompareRepository, type CompareParamSet, type CompareScope } from '../../store/compareRepository';
import type { Db } from '../../store/database';
import { DashboardRepository } from '../../store/dashboardRepository';
import type { SideFlags } from './flagChanges';

/** A side resolved against its index: the run's row id, its steps and its label. */
export interface ResolvedSide {
  readonly side: ComparisonSide;
  readonly scope: CompareScope;
}

/**
 * One index as a source of comparison sides: its runs, their stored credit methods and latest
 * parameter sets, flags and audits, through the repositories that own them. `root` is the indexed
 * folder when known (prompts are read back from it; remedies name it).
 */
export class SideReader {
  readonly compare: CompareRepository;
  private readonly dashboard: DashboardRepository;
  private readonly browse: BrowseRepository;
  private readonly summaries: AgentSummaryRepository;

  constructor(
    db: Db,
    readonly root: string | undefined,
  ) {
    this.compare = new CompareRepository(db);
    this.dashboard = new DashboardRepository(db);
    this.browse = new BrowseRepository(db);
    this.summaries = new AgentSummaryRepository(db);
  }

  /** The index's runs with their episodes, step extent and stored credit methods. */
  choices(): CompareRunChoice[] {
    return this.dashboard.runs().map((run) => ({
      run: run.name,
      episodes: run.episodes,
      ...(run.steps.min !== null && run.steps.max !== null
        ? { steps: { from: run.steps.min, to: run.steps.max } }
        : {}),
      methods: this.compare.methods(run.runId),
    }));
  }

  /** The run named `side.run` with the side's steps; throws a plain Error for an unknown run or reversed steps. */
  resolve(side: Omit<ComparisonSide, 'label'>, label: string): ResolvedSide {
    const runs = this.dashboard.runs();
    const run = runs.find((r) => r.name === side.run);
    if (!run)
      throw new Error(
        `unknown run "${side.run}"${this.root ? ` in ${this.root}` : ''}; runs: ${runs.map((r) => r.name).join(', ') || 'none'}`,
      );
    if (side.steps && !(side.steps.from <= side.steps.to))
      throw new Error(`step range ${String(side.steps.from)}..${String(side.steps.to)} of "${side.run}" is reversed`);
    const steps = side.steps ? { steps: side.steps } : {};
    return { side: { run: side.run, ...steps, label }, scope: { runId: run.runId, ...steps } };
  }

  /**
   * The run's parameter sets of `method`, the one covering the most episodes first: a run-wide pass,
   * not the newest row, which may be one episode recomputed on its own (the Episode view's Recompute).
   */
  paramSets(runId: number, method: string): readonly CompareParamSet[] {
    return this.compare.paramSets(runId, method);
  }

  /** The run's stored flags; undefined when the run was never audited. */
  flags(runId: number): SideFlags {
    const flags = this.browse.flags(runId);
    return flags.length > 0 || this.summaries.auditSummary(runId) !== undefined ? flags : undefined;
  }
}
