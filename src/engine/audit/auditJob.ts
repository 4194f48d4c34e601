import type { RunAudit } from '../../core/auditReport';
import type { AuditThresholds } from '../../credit/audit/auditThresholds';
import { defaultAuditThresholds } from '../../credit/audit/auditThresholds';
import { episodeActivity, type AgentActivity } from '../../credit/audit/episodeActivity';
import { readEpisode } from '../../ingest/readEpisode';
import { AgentSummaryRepository } from '../../store/agentSummaryRepository';
import { AuditRepository, type AuditEpisode } from '../../store/auditRepository';
import { CreditInputRepository } from '../../store/creditInputRepository';
import type { CreditOutputRow } from '../../store/creditRepository';
import { IndexStore } from '../../store/indexStore';
import type { EvaluatorChoice } from '../credit/chooseEvaluator';
import { runCreditJob, type CreditJobOptions } from '../credit/creditJob';
import type { CalibrationOptions } from '../credit/calibration';
import { isTrainedAgent } from '../../core/episode';
import { NoIndexError } from '../indexJob';
import { findIndexLocation } from '../indexLocation';
import type { AgentFacts, EpisodeFacts } from './auditFacts';
import { buildRunAudit } from './runAudit';
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
 * Audits every run of an indexed folder (credit-methods.md §5): recomputes (or reuses, through the
 * evaluation cache) the marginal contributions, gathers each agent's activity per episode, raises
 * the flags with their evidence, stores them in the index (replacing the previous audit) and
 * returns the per-run reports.
 */
export async function runAudit(options: AuditOptions): Promise<AuditResult> {
  const started = Date.now();
  const location = findIndexLocation(options.root, options.dbPath);
  if (!location)
    throw new NoIndexError(`no index for ${options.root}; run \`credit-lens index ${options.root}\` first`);
  const method = options.method ?? 'loo';
  const split = options.split ?? defaultSplit;
  const credit = new Map<number, Map<string, StoredCredit>>();
  const problems = new Map<string, string>();
  const collect = (rows: Iterable<CreditOutputRow>): void => {
    for (const r of rows) {
      if (r.message_seq !== null || r.method !== method || r.value === null) continue;
      const byAgent = credit.get(r.episode_id) ?? new Map<string, StoredCredit>();
      byAgent.set(r.agent, { value: r.value, status: r.status });
      credit.set(r.episode_id, byAgent);
    }
  };
  const creditRun = await runCreditJob(
    {
      root: options.root,
      method,
      split,
      ...(options.dbPath ? { dbPath: options.dbPath } : {}),
      ...(options.run ? { run: options.run } : {}),
      ...(options.evaluator ? { evaluator: options.evaluator } : {}),
      ...(options.calibration ? { calibration: options.calibration } : {}),
      ...(options.replayDeps ? { replayDeps: options.replayDeps } : {}),
    },
    {
      onRunStored: (_result, rows) => collect(rows),
      ...(options.isCancelled ? { isCancelled: options.isCancelled } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onWarning ? { onWarning: options.onWarning } : {}),
    },
  ).catch((error: unknown) => ({ runs: [], error: error instanceof Error ? error.message : String(error) }));
  for (const r of creditRun.runs) {
    const first = r.failures[0];
    if (first)
      problems.set(r.run.name, `${first.reason}${first.remedy ? `; what would answer it: ${first.remedy}` : ''}`);
    else if (r.computed === 0) problems.set(r.run.name, 'no episode has the data');
  }
  const generalProblem = 'error' in creditRun ? creditRun.error : undefined;
  // Verdicts on a partly computed run would be wrong: a cancelled audit changes nothing.
  if (options.isCancelled?.() || options.signal?.aborted)
    return { runs: [], elapsedMs: Date.now() - started, cancelled: true };
  const store = IndexStore.open(location.path);
  try {
    const audits = new AuditRepository(store.db);
    const summaries = new AgentSummaryRepository(store.db);
    const runs = new CreditInputRepository(store.db)
      .runs()
      .filter((r) => options.run === undefined || r.name === options.run || r.root === options.run);
    const reports: RunAudit[] = [];
    for (const run of runs) {
      const thresholds = options.thresholds ?? defaultAuditThresholds;
      const facts: EpisodeFacts[] = [];
      for (const e of audits.episodes(run.runId, undefined, split))
        facts.push(
          await episodeFacts(
            e,
            credit.get(e.episodeId),
            options.readText === false ? undefined : options.root,
            thresholds,
          ),
        );
      const report = buildRunAudit(run.name, method, facts, thresholds, problems.get(run.name) ?? generalProblem);
      audits.replaceFlags(run.runId, report.flags);
      summaries.saveAudit(run.runId, report);
      reports.push(report);
    }
    return { runs: reports, elapsedMs: Date.now() - started };
  } finally {
    store.close();
  }
}

/** A stored credit value of one agent with its status. */
interface StoredCredit {
  readonly value: number;
  readonly status: string;
}

/** Only exact or estimated credit supports a verdict (docs/credit-provenance.md). */
const supportsVerdict = (status: string): boolean => status === 'exact' || status === 'estimated';

async function episodeFacts(
  e: AuditEpisode,
  credit: ReadonlyMap<string, StoredCredit> | undefined,
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
      credit: verdictCredit(credit?.get(a.name)),
      creditStatus: credit?.get(a.name)?.status ?? 'none',
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
