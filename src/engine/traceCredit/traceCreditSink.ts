import type {
  EpisodeBatch,
  FileProgressState,
  IndexSink,
  PendingSearchEpisode,
  RunRecord,
  StoredFileState,
  TraceIssue,
  CompactEpisode,
} from '../../core/indexing';
import { IdMap } from '../../core/idMap';
import { rollingOverlap } from '../../core/rollingOverlap';
import { canonicalFormat } from '../../ingest/parseLines';
import type { ValueCounters } from '../credit/coalitionValues';
import { AgentSummaryTally } from '../credit/creditSummary';
import { digestEpisode, isDigest, type EpisodeDigest } from './episodeDigest';
import type { TraceCreditChoice } from './traceCreditChoice';

/** An episode the data could not answer, or whose credit failed, with where it is. */
export interface TraceCreditProblem {
  readonly where: string;
  readonly episode: string;
  readonly step: number | null;
  readonly reason: string;
  readonly status?: 'not-identifiable';
  readonly remedy?: string;
}

/** One run's credit from its traces: per agent, per (step, agent), and what could not be computed. */
export interface TraceCreditRunTally {
  readonly record: RunRecord;
  readonly agents: AgentSummaryTally;
  /** Episodes read (after duplicates and repeats), computed, and left out by the split or steps. */
  read: number;
  computed: number;
  outside: number;
  notIdentifiable: number;
  failed: number;
  /** Rows by their sources (`logged`, …), over every computed agent value. */
  readonly sources: Map<string, number>;
  /** The first {@link problemExamples} problems, and how many episodes each reason covers. */
  readonly problems: TraceCreditProblem[];
  readonly reasons: Map<string, { count: number; remedy?: string }>;
}

/** Problems kept with their place per run (the rest are counted by reason). */
export const problemExamples = 20;
/** Trace issues kept with their place (the rest are counted). */
export const issueExamples = 20;
/** Distinct problem reasons counted apart per run; further ones are counted together. */
const maxReasons = 50;

interface SourceInfo {
  readonly uri: string;
  readonly runId: number;
  readonly format: string;
  /** Content hashes of the rows read so far (rolling-buffer importers only). */
  hashes: string[];
}

/**
 * An {@link IndexSink} that stores nothing: each episode gets one method's credit from its logged
 * values (episodeDigest.ts; computed here, or already by the parse worker that sent a digest in
 * its place) and is tallied per run, agent and step. What the index's writer decides about which
 * episodes count is decided the same way, in file order: the first episode of an id in a run wins
 * and later ones are duplicates (issues), rolling-buffer repeats are skipped silently
 * (store/indexStore.ts), bad lines are issues with their file and line. Episodes that arrive
 * undigested are computed on the microtask queue, so `settled()` must be awaited.
 */
export class TraceCreditSink implements IndexSink {
  readonly runs = new Map<number, TraceCreditRunTally>();
  readonly counters: ValueCounters = { logged: 0, cached: 0, evaluated: 0 };
  readonly issueExamples: TraceIssue[] = [];
  private readonly sources = new Map<number, SourceInfo>();
  /** Per run, each episode id seen and where: its source id times 2^32 plus its line (one number, not a string). */
  private readonly seen = new Map<number, IdMap>();
  /** The last source read per (run, format, folder), for rolling-buffer repeats. */
  private readonly lastInFolder = new Map<string, SourceInfo>();
  private pending: Promise<void> = Promise.resolve();

  constructor(private readonly choice: TraceCreditChoice) {}

  upsertRun(run: RunRecord): number {
    const runId = this.runs.size + 1;
    this.runs.set(runId, emptyRun(run));
    this.seen.set(runId, new IdMap());
    return runId;
  }

  fileState(): StoredFileState | undefined {
    return undefined; // nothing is stored: every pass reads every file from the start
  }

  resetSource(uri: string, runId: number, format: string, _state: FileProgressState): number {
    const sourceId = this.sources.size + 1;
    this.sources.set(sourceId, { uri, runId, format, hashes: [] });
    return sourceId;
  }

  writeBatch(batch: EpisodeBatch): { duplicates: readonly TraceIssue[]; repeats: number } {
    const source = this.sources.get(batch.sourceId);
    const run = this.runs.get(batch.runId);
    const seen = this.seen.get(batch.runId);
    if (!source || !run || !seen) throw new Error(`batch of an unknown source ${batch.uri}`);
    // A parse worker of this pass sends digests where the index's sends episodes.
    const episodes = batch.episodes as readonly (CompactEpisode | EpisodeDigest)[];
    const skip = this.rollingRepeats(source, episodes);
    const duplicates: TraceIssue[] = [];
    episodes.forEach((e, i) => {
      if (i < skip) return;
      const first = seen.get(e.id);
      if (first !== undefined) {
        const reason = this.duplicateReason(e.id, first, batch.format);
        duplicates.push({ uri: batch.uri, line: e.line, offset: e.offset, reason });
        return;
      }
      seen.set(e.id, batch.sourceId * 2 ** 32 + e.line);
      run.read++;
      if (isDigest(e)) this.tally(run, e, batch.uri);
      else {
        const place = { uri: batch.uri, format: batch.format, ...mechanismOf(run) };
        this.pending = this.pending.then(async () =>
          this.tally(run, await digestEpisode(e, place, this.choice), batch.uri),
        );
      }
    });
    this.writeIssues(batch.sourceId, [...batch.issues, ...duplicates]);
    return { duplicates, repeats: skip };
  }

  /** Keeps the first issues as examples; the pass's tally counts them all. */
  writeIssues(_sourceId: number, issues: readonly TraceIssue[]): void {
    for (const issue of issues) if (this.issueExamples.length < issueExamples) this.issueExamples.push(issue);
  }

  removeSourcesExcept(): number {
    return 0;
  }

  pendingSearch(): PendingSearchEpisode[] {
    return [];
  }

  writeSearch(): void {
    // No full-text index: this pass answers one table and keeps nothing.
  }

  /** Resolves once every episode written so far is tallied. */
  settled(): Promise<void> {
    return this.pending;
  }

  /** The index writer's words (store/indexStore.ts) for a later episode of an id the run has. */
  private duplicateReason(id: string, first: number, format: string): string {
    const source = this.sources.get(Math.floor(first / 2 ** 32));
    const where = source ? ` (first seen at ${source.uri}:${first % 2 ** 32})` : '';
    return `duplicate episode id "${id}"${where}; ${format === canonicalFormat ? 'line' : 'record'} skipped`;
  }

  private tally(run: TraceCreditRunTally, d: EpisodeDigest, uri: string): void {
    this.counters.logged += d.logged;
    if (d.problem) return recordProblem(run, d, uri);
    if (!d.credit) {
      run.outside++;
      return;
    }
    run.computed++;
    for (const [agent, value, status, source] of d.credit) {
      run.agents.add(agent, d.step ?? 0, value, status);
      run.sources.set(source, (run.sources.get(source) ?? 0) + 1);
    }
  }

  /** As IndexStore's: leading rows of the batch that re-dump the previous file of the folder. */
  private rollingRepeats(source: SourceInfo, episodes: readonly { contentHash?: string }[]): number {
    const hashes = episodes.map((e) => e.contentHash);
    if (hashes.length === 0 || hashes.some((h) => h === undefined)) return 0;
    const before = source.hashes.length;
    source.hashes.push(...(hashes as string[]));
    const key = `${source.runId}\u0000${source.format}\u0000${source.uri.slice(0, source.uri.lastIndexOf('/') + 1)}`;
    const previous = this.lastInFolder.get(key);
    if (previous !== source) this.lastInFolder.set(key, source);
    if (!previous || previous === source) return 0;
    return Math.max(0, Math.min(rollingOverlap(previous.hashes, source.hashes), source.hashes.length) - before);
  }
}

function mechanismOf(run: TraceCreditRunTally): { mechanism?: string } {
  const mechanism = run.record.manifest?.mechanism;
  return mechanism ? { mechanism } : {};
}

function emptyRun(record: RunRecord): TraceCreditRunTally {
  return {
    record,
    agents: new AgentSummaryTally(),
    read: 0,
    computed: 0,
    outside: 0,
    notIdentifiable: 0,
    failed: 0,
    sources: new Map(),
    problems: [],
    reasons: new Map(),
  };
}

function recordProblem(run: TraceCreditRunTally, d: EpisodeDigest, uri: string): void {
  const problem = d.problem;
  if (!problem) return;
  if (problem.notIdentifiable) run.notIdentifiable++;
  else run.failed++;
  const key = run.reasons.has(problem.reason) || run.reasons.size < maxReasons ? problem.reason : 'other reasons';
  const known = run.reasons.get(key);
  if (known) known.count++;
  else run.reasons.set(key, { count: 1, ...(problem.remedy ? { remedy: problem.remedy } : {}) });
  if (run.problems.length >= problemExamples) return;
  run.problems.push({
    where: `${uri}:${d.line}`,
    episode: d.id,
    step: d.step,
    reason: problem.reason,
    ...(problem.notIdentifiable ? { status: 'not-identifiable' as const } : {}),
    ...(problem.remedy ? { remedy: problem.remedy } : {}),
  });
}
