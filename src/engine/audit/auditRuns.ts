import type { RunAudit } from '../../core/auditReport';
import { isTrainedAgent } from '../../core/episode';
import type { SplitChoice } from '../../core/split';
import type { AuditThresholds } from '../../credit/audit/auditThresholds';
import { episodeActivity, type AgentActivity } from '../../credit/audit/episodeActivity';
import { readEpisode } from '../../ingest/readEpisode';
import { AgentSummaryRepository } from '../../store/agentSummaryRepository';
import { AuditRepository } from '../../store/auditRepository';
import { AuditInputRepository, type AuditEpisode, type StoredCredit } from '../../store/auditInputRepository';
import { CreditInputRepository } from '../../store/creditInputRepository';
import { IndexStore } from '../../store/indexStore';
import { SignalRepository } from '../../store/signalRepository';
import type { AgentFacts, EpisodeFacts } from './auditFacts';
import { buildRunAudit, RunTally } from './runAudit';
import { withSignalEvidence } from './signalEvidence';

/** A run whose credit the audit's credit pass computed or reused, by the parameters it stored them under. */
export interface AuditedCredit {
  readonly runId: number;
  readonly method: string;
  readonly paramsHash: string;
  /** Episodes whose credit (or failure) the pass computed or found current. */
  readonly stored: number;
}

/**
 * What the audit reads once its credit is stored (plain data: it crosses to the audit's worker,
 * auditRunsInWorker.ts).
 */
export interface AuditRunsRequest {
  readonly root: string;
  /** The index file (found by the caller). */
  readonly dbPath: string;
  readonly method: 'loo' | 'shapley';
  readonly split: SplitChoice;
  /** Only this run (by name or root). */
  readonly run?: string;
  readonly thresholds: AuditThresholds;
  /** Read message text for emptiness, copying and output-share evidence. */
  readonly readText: boolean;
  readonly credit: readonly AuditedCredit[];
  /** Why no run's credit could be computed (the credit pass failed as a whole). */
  readonly generalProblem?: string;
}

/**
 * The audit's reading (credit-methods.md §5): streams each run's episodes with their stored credit
 * and activity through a {@link RunTally}, raises the flags with their evidence, stores them in the
 * index (replacing the previous audit) and returns the per-run reports.
 */
export async function auditRuns(request: AuditRunsRequest): Promise<RunAudit[]> {
  const store = IndexStore.open(request.dbPath);
  try {
    const audits = new AuditRepository(store.db);
    const inputs = new AuditInputRepository(store.db);
    const summaries = new AgentSummaryRepository(store.db);
    const signals = new SignalRepository(store.db);
    const runs = new CreditInputRepository(store.db)
      .runs()
      .filter((r) => request.run === undefined || r.name === request.run || r.root === request.run);
    const reports: RunAudit[] = [];
    for (const run of runs) {
      const report = await auditRun(request, inputs, signals, run);
      audits.replaceFlags(run.runId, report.flags);
      summaries.saveAudit(run.runId, report);
      reports.push(report);
    }
    return reports;
  } finally {
    store.close();
  }
}

async function auditRun(
  request: AuditRunsRequest,
  inputs: AuditInputRepository,
  signals: SignalRepository,
  run: { readonly runId: number; readonly name: string },
): Promise<RunAudit> {
  const { method, split, thresholds } = request;
  const computed = request.credit.find((c) => c.runId === run.runId);
  const key = computed && { method, paramsHash: computed.paramsHash };
  const tally = new RunTally(inputs.stepCounts(run.runId, split), thresholds);
  const root = request.readText ? request.root : undefined;
  for (const { episode, credit } of inputs.episodes(run.runId, key, split))
    tally.add(await episodeFacts(episode, credit, root, thresholds));
  const problem = (computed && creditProblem(inputs, computed, split)) ?? request.generalProblem;
  const built = buildRunAudit(run.name, method, tally, problem);
  if (!key) return built;
  // How the shared reward pushed each flagged window's agent, when the credit pass stored it (§3.18).
  const evidence = { signals, runId: run.runId, key: { method, hash: key.paramsHash }, split };
  return { ...built, flags: withSignalEvidence(built.flags, evidence) };
}

/** Why a run's credit could not be computed: its first stored failure, or no episode with the data. */
function creditProblem(inputs: AuditInputRepository, c: AuditedCredit, split: SplitChoice): string | undefined {
  const first = inputs.firstFailure(c.runId, { method: c.method, paramsHash: c.paramsHash }, split);
  if (first) return `${first.reason}${first.remedy ? `; what would answer it: ${first.remedy}` : ''}`;
  return c.stored === 0 ? 'no episode has the data' : undefined;
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
