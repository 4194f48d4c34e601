import {
  formatCounts,
  type IndexSummary,
  type IssueSummary,
  type RunSummary,
  type SourceSummary,
} from '../core/indexSummary';
import type { Db, Statement } from './database';

/** A run row: the summary's own columns (agents and steps apart), with the run id its agents are read by. */
type RunRow = Required<Omit<RunSummary, 'agents' | 'steps'>> & {
  readonly runId: number;
  readonly stepCount: number;
  readonly stepMin: number | null;
  readonly stepMax: number | null;
};

/** source.format of what is not a trace file: manifests, mapping files, side files. */
const notTraces = `('credit_lens_manifest', 'credit_lens_mapping', 'other_file')`;

/** Read-only aggregates of the whole index (`credit-lens info`). */
export class SummaryRepository {
  private readonly runsStmt: Statement<RunRow>;
  private readonly agentsStmt: Statement<RunSummary['agents'][number]>;
  private readonly countsStmt: Statement<{
    files: number;
    agents: number;
    steps: number;
    searchable: number;
    errors: number;
  }>;
  private readonly errorsStmt: Statement<{ file: string; line: number; reason: string }>;
  private readonly sourcesStmt: Statement<SourceSummary & { repeats: number }>;
  private readonly othersStmt: Statement<{ uri: string }>;

  constructor(db: Db) {
    // Totals kept as episodes are written and removed (runTotals.ts): O(runs + steps + agents) rows.
    this.runsStmt = db.prepare(`
      SELECT r.run_id AS runId, r.name, r.root, r.mechanism, coalesce(t.episodes, 0) AS episodes, coalesce(t.messages, 0) AS messages,
        (SELECT count(DISTINCT train_step) FROM step_total s WHERE s.run_id = r.run_id AND s.episodes > 0) AS stepCount,
        (SELECT min(train_step) FROM step_total s WHERE s.run_id = r.run_id AND s.episodes > 0) AS stepMin,
        (SELECT max(train_step) FROM step_total s WHERE s.run_id = r.run_id AND s.episodes > 0) AS stepMax,
        t.outcome_sum / nullif(t.outcomes, 0) AS meanReward, r.layout, r.layout_note AS layoutNote
      FROM run r LEFT JOIN run_totals t ON t.run_id = r.run_id
      WHERE EXISTS (SELECT 1 FROM source s WHERE s.run_id = r.run_id AND s.format != 'other_file')
      ORDER BY r.root`);
    this.agentsStmt = db.prepare(`
      SELECT a.name, a.kind, coalesce(t.episodes, 0) AS episodes, coalesce(t.messages, 0) AS messages
      FROM agent a LEFT JOIN agent_totals t ON t.agent_id = a.agent_id
      WHERE a.run_id = ? ORDER BY a.agent_id`);
    // Searchable: all episodes but the few not yet indexed for search (the table episode_unsearched).
    this.countsStmt = db.prepare(`
      SELECT (SELECT count(*) FROM source WHERE format NOT IN ${notTraces}) AS files,
        (SELECT count(*) FROM agent_totals WHERE episodes > 0) AS agents,
        (SELECT count(*) FROM (SELECT DISTINCT run_id, train_step FROM step_total WHERE episodes > 0)) AS steps,
        (SELECT coalesce(sum(episodes), 0) FROM run_totals) - (SELECT count(*) FROM episode_unsearched) AS searchable,
        (SELECT count(*) FROM parse_error) AS errors`);
    this.errorsStmt = db.prepare(`
      SELECT s.uri AS file, p.line, p.reason FROM parse_error p JOIN source s ON s.source_id = p.source_id
      ORDER BY s.uri, p.line LIMIT ?`);
    this.sourcesStmt = db.prepare(`
      SELECT s.uri AS file, s.format,
        s.episodes,
        (SELECT count(*) FROM parse_error p WHERE p.source_id = s.source_id) AS errors, s.repeats
      FROM source s WHERE s.format NOT IN ${notTraces} ORDER BY s.uri`);
    this.othersStmt = db.prepare(`SELECT uri FROM source WHERE format = 'other_file' ORDER BY uri`);
  }

  /** The whole-index summary; `maxErrors` bounds the listed errors, not the count. */
  summary(maxErrors = 50): IndexSummary {
    const runs = this.runsStmt.all().map((row) => this.runSummary(row));
    const counts = this.countsStmt.get() ?? { files: 0, agents: 0, steps: 0, searchable: 0, errors: 0 };
    const errors: IssueSummary[] = this.errorsStmt.all(maxErrors);
    // `repeats` only where there are some, so the common source reads as before.
    const sources: SourceSummary[] = this.sourcesStmt
      .all()
      .map(({ repeats, ...s }) => (repeats > 0 ? { ...s, repeats } : s));
    return {
      files: counts.files,
      runs,
      episodes: runs.reduce((sum, r) => sum + r.episodes, 0),
      messages: runs.reduce((sum, r) => sum + r.messages, 0),
      agents: counts.agents,
      steps: counts.steps,
      searchableEpisodes: counts.searchable,
      errorCount: counts.errors,
      errors,
      sources,
      formats: formatCounts(sources),
      otherFiles: this.othersStmt.all().map((r) => r.uri),
      repeatedRows: sources.reduce((sum, s) => sum + (s.repeats ?? 0), 0),
    };
  }

  /** The run with its agents and its steps as one object (the keys in the order `info --json` prints them). */
  private runSummary({
    runId,
    stepCount,
    stepMin,
    stepMax,
    meanReward,
    layout,
    layoutNote,
    ...run
  }: RunRow): RunSummary {
    const steps = { count: stepCount, min: stepMin, max: stepMax };
    return { ...run, agents: this.agentsStmt.all(runId), steps, meanReward, layout, layoutNote };
  }
}
