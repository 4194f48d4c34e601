import type { RunAudit } from '../../core/auditReport';
import type { AuditThresholds } from '../../credit/audit/auditThresholds';
import { defaultAuditThresholds } from '../../credit/audit/auditThresholds';
import { episodeActivity, type AgentActivity } from '../../credit/audit/episodeActivity';
import { readEpisode } from '../../ingest/readEpisode';
import { AgentSummaryRepository } from '../../store/agentSummaryRepository';
import { AuditRepository } from '../../store/auditRepository';
import { AuditInputRepository, type AuditEpisode, type StoredCredit } from '../../store/auditInputRepository';
import { CreditInputRepository } from '../../store/creditInputRepository';
import { IndexStore } from '../../store/indexStore';
import type { EvaluatorChoice } from '../credit/chooseEvaluator';
import { runCreditJob, type CreditJobOptions, type RunCreditResult } from '../credit/creditJob';
import type { CalibrationOptions } from '../credit/calibration';
import { isTrainedAgent } from '../../core/episode';
import { NoIndexError } from '../indexJob';
import { findIndexLocation } from '../indexLocation';
import type { AgentFacts, EpisodeFacts } from './auditFacts';
import { buildRunAudit, RunTally } from './runAudit';
import { withSignalEvidence } from './signalEvidence';
import { SignalRepository } from '../../store/signalRepository';
import { defaultSplit, type SplitChoice } from '../../core/split';

export interface AuditOptions {
  readonly root: string;
  readonly dbPath?: string;
  /** The marginal-contribution signal the verdicts use. */
  readonly method?: 'loo' | 'shapley';
  readonly run?: string;
  readonly thresholds?: AuditThresholds;
  readonly evaluator?: EvaluatorChoice;
  /** Read message text for emptiness, copying and output-share evidence (default true). */
  readonly readText?: boolean;
  /** Checked while credit is computed; a cancelled audit stores no flags (the previous ones stay). */
  readonly isCancelled?: () => boolean;
  /** Calibration of the evaluator against the logged rewards (see the credit job). */
  readonly calibration?: CalibrationOptions;
  /** Training episodes (the default), validation episodes or all (core/split.ts). */
  readonly split?: SplitChoice;
  /** Cancels the audit: a replay's calls in flight are aborted at once (see `isCancelled`). */
  readonly signal?: AbortSignal;
  /** Host services of the replay evaluator (see the credit job). */
  readonly replayDeps?: CreditJobOptions['replayDeps'];
  /** Warnings of the credit pass (run.json settings that were ignored). */
  readonly onWarning?: (message: string) => void;
}

export interface AuditResult {
  readonly runs: readonly RunAudit[];
  readonly elapsedMs: number;
  /** True when the audit was cancelled before any flag was stored. */
  readonly cancelled?: boolean;
}

/**
 * Audits every run of an indexed folder (credit-methods.md §5): computes the marginal contributions
 * that are not stored yet for the method's parameters (stored credit that is current is read, not
 * recomputed; see store/creditFreshness.ts), streams each run's episodes with their credit and
 * activity through a {@link RunTally}, raises the flags with their evidence, stores them in the
 * index (replacing the previous audit) and returns the per-run reports.
 */
export async function runAudit(options: AuditOptions): Promise<AuditResult> {
  const started = Date.now();
  const location = findIndexLocation(options.root, options.dbPath);
  if (!location)
    throw new NoIndexError(`no index for ${options.root}; run \`credit-lens index ${options.root}\` first`);
  const method = options.method ?? 'loo';
  const split = options.split ?? defaultSplit;
  const creditRun = await runCreditJob(
    {
      root: options.root,
      method,
      split,
      onlyMissing: true,
      ...(options.dbPath ? { dbPath: options.dbPath } : {}),
      ...(options.run ? { run: options.run } : {}),
      ...(options.evaluator ? { evaluator: options.evaluator } : {}),
      ...(options.calibration ? { calibration: options.calibration } : {}),
      ...(options.replayDeps ? { replayDeps: options.replayDeps } : {}),
    },
    {
      ...(options.isCancelled ? { isCancelled: options.isCancelled } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onWarning ? { onWarning: options.onWarning } : {}),
    },
  ).catch((error: unknown) => ({ runs: [], error: error instanceof Error ? error.message : String(error) }));
  const generalProblem = 'error' in creditRun ? creditRun.error : undefined;
  // Verdicts on a partly computed run would be wrong: a cancelled audit changes nothing.
  if (options.isCancelled?.() || options.signal?.aborted)
    return { runs: [], elapsedMs: Date.now() - started, cancelled: true };
  const store = IndexStore.open(location.path);
  try {
    const audits = new AuditRepository(store.db);
    const inputs = new AuditInputRepository(store.db);
    const summaries = new AgentSummaryRepository(store.db);
    const signals = new SignalRepository(store.db);
    const runs = new CreditInputRepository(store.db)
      .runs()
      .filter((r) => options.run === undefined || r.name === options.run || r.root === options.run);
    const reports: RunAudit[] = [];
    for (const run of runs) {
      const thresholds = options.thresholds ?? defaultAuditThresholds;
      const computed = creditRun.runs.find((r) => r.run.runId === run.runId);
      const key = computed && { method, paramsHash: computed.params.hash };
      const tally = new RunTally(inputs.stepCounts(run.runId, split), thresholds);
      const root = options.readText === false ? undefined : options.root;
      for (const { episode, credit } of inputs.episodes(run.runId, key, split))
        tally.add(await episodeFacts(episode, credit, root, thresholds));
      const problem = (computed && creditProblem(inputs, computed, split)) ?? generalProblem;
      const built = buildRunAudit(run.name, method, tally, problem);
      // How the shared reward pushed each flagged window's agent, when the credit pass stored it (§3.18).
      const report = key
        ? {
            ...built,
            flags: withSignalEvidence(built.flags, {
              signals,
              runId: run.runId,
              key: { method, hash: key.paramsHash },
              split,
            }),
          }
        : built;
      audits.replaceFlags(run.runId, report.flags);
      summaries.saveAudit(run.runId, report);
      reports.push(report);
    }
    return { runs: reports, elapsedMs: Date.now() - started };
  } finally {
    store.close();
  }
}

/** Why a run's credit could not be computed: its first stored failure, or no episode with the data. */
function creditProblem(inputs: AuditInputRepository, r: RunCreditResult, split: SplitChoice): string | undefined {
  const first = inputs.firstFailure(r.run.runId, { method: r.params.method, paramsHash: r.params.hash }, split);
  if (first) return `${first.reason}${first.remedy ? `; what would answer it: ${first.remedy}` : ''}`;
  return r.computed + (r.reused ?? 0) === 0 ? 'no episode has the data' : undefined;
}

/** Only exact or estimated credit supports a verdict (docs/credit-provenance.md). */
const supportsVerdict = (status: string): boolean => status === 'exact' || status === 'estimated';

async function episodeFacts(
  e: AuditEpisode,
  credit: ReadonlyMap<number, StoredCredit>,
  root: string | undefined,
  thresholds: AuditThresholds,
): Promise<EpisodeFacts> {
  const activity = root === undefined ? undefined : await textActivity(root, e, thresholds);
  return {
    externalId: e.externalId,
    step: e.step,
    reward: e.reward,
    uri: e.uri,
    line: e.line,
    agents: e.agents.map((a, i): AgentFacts => ({
      name: a.name,
      declared: a.declared,
      messages: a.messages,
      tokens: a.tokens ?? Math.round(a.chars / 4),
      credit: verdictCredit(credit.get(a.agentId)),
      creditStatus: credit.get(a.agentId)?.status ?? 'none',
      kind: a.kind,
      trainable: isTrainedAgent(a.kind, a.trainable),
      emptyMessages: activity?.[i]?.emptyMessages ?? null,
      copiedMessages: activity?.[i]?.copiedMessages ?? null,
      finalAnswerFirst: activity?.[i]?.finalAnswerFirst ?? null,
    })),
  };
}

function verdictCredit(stored: StoredCredit | undefined): number | null {
  return stored && supportsVerdict(stored.status) ? stored.value : null;
}

/** Emptiness, copying and output share from the message text; undefined when the line cannot be read. */
async function textActivity(
  root: string,
  e: AuditEpisode,
  thresholds: AuditThresholds,
): Promise<AgentActivity[] | undefined> {
  const read = await readEpisode(root, e);
  if (!read.ok) return undefined;
  const index = new Map(e.agents.map((a, i) => [a.name, i]));
  const messages = read.value.messages.map((m) => ({ agent: index.get(m.agent) ?? -1, content: m.content }));
  return episodeActivity(messages, e.agents.length, e.finalAnswer ?? undefined, {
    minTokens: thresholds.minTokens,
    copyThreshold: thresholds.copyThreshold,
  });
}
