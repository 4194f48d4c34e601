import type {
  AgentCreditFilter,
  AgentCreditSortKey,
  DashboardRun,
  EpisodeFilter,
  EpisodeSortKey,
  EpisodeTableRow,
} from '../core/dashboardRows';
import type { CreditCoverage } from '../core/provenance';
import { isGroupRef, type GroupRef } from './groupPanel';
import { IpcCommand, IpcNotification, IpcRequest, isRecord } from './ipc';
import {
  isBoundedString,
  isFolderPath,
  isEpisodeRef,
  isNonNegativeInt,
  isNullableFinite,
  isViewMethod,
  type CreditDomainView,
  type CreditStatus,
  type EpisodeRef,
  type FlagView,
  type ViewMethod,
} from './viewData';

export type {
  AgentCreditFilter,
  AgentCreditSortKey,
  CreditCoverage,
  DashboardRun,
  EpisodeFilter,
  EpisodeSortKey,
  EpisodeTableRow,
};

// The contract of the "Credit Lens: Run Dashboard" webview (host: src/extension/panels/dashboardPanel.ts,
// webview: webview/src/dashboard/main.ts).
// Handshake: the webview sends DashboardReadyCommand (again after every reload); the host answers
// with DidChangeRunsNotification, and sends it again (with a higher `revision`) whenever the index,
// the credit or the flags change. The webview then pulls the charts' data with GetOverviewRequest
// and table pages with GetEpisodesRequest.
// Live tail: a revision that only appended episodes keeps `resetRevision`; a webview whose overview
// was read at or after it asks GetOverviewDeltaRequest for the steps changed after the overview's
// `watermark` and merges them (webview/src/dashboard/overviewDelta.ts) instead of refetching it all.

/** Version of {@link DashboardViewState}; bump it when that state changes shape. */
export const dashboardStateVersion = 1;
/** Largest page of the episode table. */
export const maxEpisodePage = 500;

export interface DashboardRunsData {
  /** Absolute path of the indexed folder. */
  readonly folder: string;
  readonly folderName: string;
  readonly runs: readonly DashboardRun[];
  /** The run the host wants shown (the one the user opened the dashboard on), if any. */
  readonly selectedRunId: number | null;
  /** Method to show when the webview has none saved. */
  readonly defaultMethod: ViewMethod;
  /** Grows whenever the index, credit or flags change: cached overviews and pages are stale. */
  readonly revision: number;
  /**
   * The last revision at which more than appended episodes changed (credit, flags, re-read or
   * removed files). An overview read at or after it is brought up to date by a delta; absent: every
   * revision is one.
   */
  readonly resetRevision?: number;
  /** The run (and steps) the dashboard was last opened on, which the webview applies once per `id`. */
  readonly focus?: DashboardFocus;
}

/**
 * A run the host was asked to show — from the Runs view, or a Problems quick fix "Open in Dashboard
 * (steps a–b)" with the steps of its flag's window — over whatever the webview had saved. Each
 * opening has a new `id`, so a later post of the same runs (a refresh) does not undo what the user
 * changed since; the steps are fitted to the run like a restored filter.
 */
export interface DashboardFocus {
  readonly id: number;
  readonly runId: number;
  readonly steps: { readonly from: number; readonly to: number } | null;
}

/**
 * A matrix as columnar arrays (docs/architecture.md §3.4): `values[r * cols.length + c]` is row `rows[r]`,
 * column `cols[c]`; null = no value.
 */
export interface Matrix<R, C> {
  readonly rows: readonly R[];
  readonly cols: readonly C[];
  readonly values: readonly (number | null)[];
}

/** A step-scope flag drawn as a window over the steps (e.g. the decoupling window). */
export interface FlagWindow {
  readonly flagId: number;
  readonly kind: string;
  readonly agent: string | null;
  readonly from: number;
  readonly to: number;
}

export interface GetOverviewParams {
  readonly folder: string;
  readonly runId: number;
  readonly method: ViewMethod;
}

/** Everything the dashboard's charts need for one run and method, aggregated per training step. */
export interface RunOverview {
  readonly runId: number;
  readonly method: ViewMethod;
  /** `computed` when some episode has credit under the method. */
  readonly status: CreditStatus;
  /** Distinct training steps, ascending (episodes without a step are left out). */
  readonly steps: readonly number[];
  /** Mean logged team reward per step (same order as `steps`). */
  readonly teamReward: readonly (number | null)[];
  /** Episodes per step. */
  readonly episodes: readonly number[];
  /** Agents × steps: the agent's share of the step's positive mean credit (shares of a step sum to 1). */
  readonly creditShare: Matrix<string, number>;
  /** Agents × steps: mean credit. */
  readonly meanCredit: Matrix<string, number>;
  /** Agents × steps: share of the episodes where the agent spoke with |credit| ≤ epsilon. */
  readonly idleRate: Matrix<string, number>;
  /** Agents × steps: flags of the agent covering the step. */
  readonly flagCounts: Matrix<string, number>;
  readonly windows: readonly FlagWindow[];
  readonly flags: readonly FlagView[];
  /** The idle threshold used for `idleRate`. */
  readonly epsilon: number;
  readonly coverage: CreditCoverage;
  /** The index's largest episode id when the overview was read: GetOverviewDeltaRequest's `after`. */
  readonly watermark?: number;
  /** How the heatmap colours credit: the run's fixed domain, and where the data cannot answer. */
  readonly colour: OverviewColour;
  /** How wrong the shared reward's push is, per agent and step (credit-methods.md §3.18); absent from older hosts. */
  readonly signal?: SignalDisagreementView;
}

/**
 * Sign disagreement between the GRPO advantages of the shared reward and of each agent's credit
 * (credit-methods.md §3.18), per agent and step, read from the credit pass's stored counts. Each
 * matrix has the overview's agents as rows and the steps that have counts as columns; null: no value.
 */
export interface SignalDisagreementView {
  /** The credit method compared with the shared reward (the dashboard's, or loo while it shows shared). */
  readonly method: ViewMethod;
  /** Share of the samples whose two advantages have strictly opposite signs ("pushed the wrong way"). */
  readonly wrongWay: Matrix<string, number>;
  /** Share where either advantage is 0 ("no push", never a flip). */
  readonly noPush: Matrix<string, number>;
  /** Share where the shared reward pushes and the agent's own signal is 0 (part of `noPush`). */
  readonly sharedOnly: Matrix<string, number>;
  /** Spearman's ρ of the two advantages over the step's samples (null: undefined, e.g. a constant side). */
  readonly rho: Matrix<string, number>;
  /** Samples behind each cell. */
  readonly samples: Matrix<string, number>;
  /** Roster rows left out over the run, and why. */
  readonly excluded: { readonly noGroup: number; readonly noCredit: number; readonly noReward: number };
  /** Why nothing is drawn and what would give it; null when some cell has samples. */
  readonly missing: string | null;
}

/** The colour inputs of an overview's heatmap (docs/architecture.md §4.4). */
export interface OverviewColour {
  readonly domain: CreditDomainView;
  /** Steps (ascending) with an episode that is not identifiable under the method: drawn hatched when no credit. */
  readonly unidentifiedSteps: readonly number[];
}

/** The per-step columns of an overview (a delta carries those of the steps it re-read). */
export type OverviewColumns = Pick<
  RunOverview,
  'steps' | 'teamReward' | 'episodes' | 'creditShare' | 'meanCredit' | 'idleRate' | 'flagCounts'
>;

export interface GetOverviewDeltaParams extends GetOverviewParams {
  /** The watermark of the overview the webview holds. */
  readonly after: number;
}

/** What changed in a run's overview since a watermark, when only episodes were appended. */
export interface OverviewDelta {
  readonly runId: number;
  readonly method: ViewMethod;
  readonly status: CreditStatus;
  readonly coverage: CreditCoverage;
  /** The new watermark. */
  readonly watermark: number;
  /** Steps of the episodes appended after `after`, re-read whole; one missing from `columns` is no longer drawn. */
  readonly recomputed: readonly number[];
  /** The columns of the recomputed steps that are drawn (rows: the run's agents in roster order). */
  readonly columns: OverviewColumns;
}

export const episodeSortKeys: readonly EpisodeSortKey[] = ['step', 'reward', 'messages', 'flags', 'externalId'];

// The per-agent credit columns of the episode table (issue 16): one column per agent of the run,
// valued by the agent-level credit of the dashboard's method (its parameter set computed last).

const maxAgentChars = 1024;

/** The key that sorts by `agent`'s credit. */
export function agentCreditSortKey(agent: string): AgentCreditSortKey {
  return `credit:${agent}`;
}

/** Guard for {@link EpisodeSortKey}. */
export function isEpisodeSortKey(value: unknown): value is EpisodeSortKey {
  if (episodeSortKeys.includes(value as EpisodeSortKey)) return true;
  return typeof value === 'string' && value.startsWith('credit:') && isBoundedString(value, maxAgentChars + 7);
}

function isAgentCreditFilter(value: unknown): value is AgentCreditFilter {
  return (
    isRecord(value) &&
    isBoundedString(value['agent'], maxAgentChars) &&
    isOptional(value['min'], isNullableFinite) &&
    isOptional(value['max'], isNullableFinite)
  );
}

/** What a page request adds for the credit columns. */
export interface EpisodeCreditColumnsParams {
  /** The method whose credit fills the agent columns (absent or null: none, the columns show no value). */
  readonly method?: ViewMethod | null;
}

/** What a page row adds for the credit columns. */
export interface EpisodeCreditCells {
  /** Agent-level credit per agent of {@link EpisodeCreditColumns.creditAgents} (null: no value). */
  readonly credit?: readonly (number | null)[];
}

/** What a page adds for the credit columns. */
export interface EpisodeCreditColumns {
  /** The run's agents, the order of every row's `credit`. */
  readonly creditAgents?: readonly string[];
}

export interface GetEpisodesParams extends EpisodeCreditColumnsParams {
  readonly folder: string;
  readonly runId: number;
  readonly filter: EpisodeFilter;
  readonly sort: { readonly key: EpisodeSortKey; readonly descending: boolean };
  readonly offset: number;
  readonly limit: number;
}

/** One row of the episode table with its credit cells. */
export type EpisodeRow = EpisodeTableRow & EpisodeCreditCells;

/** Whether an episode page's `total` is exact or a lower bound (a filtered count stops early). */
export interface EpisodeTotalBound {
  /** True when more rows than `total` match: the table shows "N+" and learns more as it scrolls. */
  readonly totalIsLowerBound: boolean;
}

export interface EpisodePage extends EpisodeCreditColumns, EpisodeTotalBound {
  /** Rows matching the filter, over all pages (at least this many when `totalIsLowerBound`). */
  readonly total: number;
  readonly offset: number;
  readonly rows: readonly EpisodeRow[];
  /** Set when the search query could not be run (e.g. FTS syntax error); the page is then empty. */
  readonly searchError: string | null;
  /**
   * True when the search matched too many messages to sort: the rows come in index (episode id)
   * order instead of the asked one, read only as far as the page goes. Absent: sorted as asked.
   */
  readonly inIndexOrder?: boolean;
  /**
   * With a search, while an indexing pass is still building the full-text index: how many of the
   * index's episodes it does not hold yet. Their matches are missing from `total` and the rows.
   * Absent when every episode is searchable.
   */
  readonly unsearched?: number;
}

export interface DashboardRecomputeParams {
  readonly folder: string;
  readonly runId: number;
  readonly method: ViewMethod;
}

/** What the webview persists with `setState` (UI state only). */
export interface DashboardViewState {
  readonly version: number;
  readonly folder: string | null;
  readonly runId: number | null;
  readonly method: ViewMethod | null;
  readonly chart: 'stacked' | 'lines';
  readonly filter: EpisodeFilter;
  readonly sort: GetEpisodesParams['sort'];
  /** First table row visible when the state was saved. */
  readonly topRow: number;
  /** Agent-credit columns the user hid, by agent name (absent in states saved before them). */
  readonly hiddenColumns?: readonly string[];
  /** The `id` of the last {@link DashboardFocus} applied (absent in states saved before it). */
  readonly focusId?: number | null;
}

export interface DashboardReadyParams {
  readonly stateVersion: number;
  /** The folder restored from the webview's state, if any. */
  readonly folder: string | null;
}

function isDashboardReadyParams(value: unknown): value is DashboardReadyParams {
  return (
    isRecord(value) &&
    isNonNegativeInt(value['stateVersion']) &&
    (value['folder'] === null || isFolderPath(value['folder']))
  );
}

function isRunMethodParams(value: unknown): value is GetOverviewParams {
  return (
    isRecord(value) &&
    isFolderPath(value['folder']) &&
    isNonNegativeInt(value['runId']) &&
    isViewMethod(value['method'])
  );
}

function isOverviewDeltaParams(value: unknown): value is GetOverviewDeltaParams {
  return isRunMethodParams(value) && isNonNegativeInt((value as { after?: unknown }).after);
}

function isOptional(value: unknown, check: (v: unknown) => boolean): boolean {
  return value === undefined || value === null || check(value);
}

/** Guard for {@link EpisodeFilter}: every field absent, null or of its type, strings of bounded length. */
export function isEpisodeFilter(value: unknown): value is EpisodeFilter {
  if (!isRecord(value)) return false;
  const finite = (v: unknown): boolean => isNullableFinite(v);
  const text =
    (max: number) =>
    (v: unknown): boolean =>
      isBoundedString(v, max);
  return (
    isOptional(value['stepFrom'], finite) &&
    isOptional(value['stepTo'], finite) &&
    isOptional(value['rewardMin'], finite) &&
    isOptional(value['rewardMax'], finite) &&
    isOptional(value['group'], text(1024)) &&
    isOptional(value['flag'], text(64)) &&
    isOptional(value['agent'], text(1024)) &&
    isOptional(value['search'], text(1024)) &&
    isOptional(value['agentCredit'], isAgentCreditFilter)
  );
}

function isGetEpisodesParams(value: unknown): value is GetEpisodesParams {
  if (
    !isRecord(value) ||
    !isFolderPath(value['folder']) ||
    !isNonNegativeInt(value['runId']) ||
    !isEpisodeFilter(value['filter'])
  )
    return false;
  const sort = value['sort'];
  if (!isRecord(sort) || !isEpisodeSortKey(sort['key']) || typeof sort['descending'] !== 'boolean') return false;
  const { offset, limit } = value;
  if (!isOptional(value['method'], isViewMethod)) return false;
  return (
    isNonNegativeInt(offset) && offset < 2 ** 31 && isNonNegativeInt(limit) && limit >= 1 && limit <= maxEpisodePage
  );
}

// The agent summary (issue 16): per-agent standing over the whole run under one method, for runs
// with and without training steps. Its own interfaces, so the episode table's fields stay apart.

/** An agent's standing over a run under one method. */
export interface AgentSummaryRow {
  readonly agent: string;
  /** Episodes with drawn (exact or estimated) credit of the agent. */
  readonly episodes: number;
  /** Mean credit and its 95% interval (null: no drawn credit; one episode gives a zero-width interval). */
  readonly meanCredit: number | null;
  readonly ci: readonly [number, number] | null;
  /** Share of the positive mean credit of the run's agents (null: no agent has credit). */
  readonly creditShare: number | null;
  /** Share of the run's logged tokens (null: no episode logs tokens). */
  readonly tokenShare: number | null;
  /** The last audit's text checks: share of the agent's messages that are empty or copied (null: text not read). */
  readonly emptyRate: number | null;
  readonly copyRate: number | null;
  /** Flags naming the agent, per kind. */
  readonly flags: readonly { readonly kind: string; readonly count: number }[];
}

/** Per-agent histograms of credit on one shared bin grid, so agents read on one axis. */
export interface CreditHistogram {
  /** Lower edge of the first bin and upper edge of the last. */
  readonly domain: readonly [number, number];
  /** Agents × bins: episodes whose credit falls in the bin (rows in the summary's agent order). */
  readonly counts: Matrix<string, number>;
}

/** What the last audit of the run found beyond its flags; null in {@link AgentSummary} before any audit. */
export interface AuditState {
  readonly method: string;
  /** ISO time the audit ran. */
  readonly auditedAt: string;
  /** Verdicts it could not reach, each a sentence with the reason. */
  readonly unreachable: readonly string[];
}

/** The dashboard's agent summary for one run and method. */
export interface AgentSummary {
  readonly runId: number;
  readonly method: ViewMethod;
  readonly status: CreditStatus;
  readonly coverage: CreditCoverage;
  /** Episodes of the run that log no training step (all of them: a step-less run, e.g. evaluation data). */
  readonly steplessEpisodes: number;
  readonly agents: readonly AgentSummaryRow[];
  /** Null when no agent has drawn credit. */
  readonly histogram: CreditHistogram | null;
  readonly audit: AuditState | null;
}

/** Webview → host: the agent summary of a run under a method. */
export const GetAgentSummaryRequest = new IpcRequest<GetOverviewParams, AgentSummary>(
  'dashboard/agents/get',
  isRunMethodParams,
);

/** Webview → host: the script runs; (re)send the runs. */
export const DashboardReadyCommand = new IpcCommand<DashboardReadyParams>('dashboard/ready', isDashboardReadyParams);
/** Webview → host: the charts' data for a run and method. */
export const GetOverviewRequest = new IpcRequest<GetOverviewParams, RunOverview>(
  'dashboard/overview/get',
  isRunMethodParams,
);
/** Webview → host: the steps changed after an overview's watermark (live tail; see the handshake above). */
export const GetOverviewDeltaRequest = new IpcRequest<GetOverviewDeltaParams, OverviewDelta>(
  'dashboard/overview/delta',
  isOverviewDeltaParams,
);
/** Webview → host: one page of the episode table. */
export const GetEpisodesRequest = new IpcRequest<GetEpisodesParams, EpisodePage>(
  'dashboard/episodes/get',
  isGetEpisodesParams,
);
/** An episode to open, with the dashboard's method (the Episode view shows it, not its own choice). */
export interface OpenEpisodeParams extends EpisodeRef {
  readonly method?: ViewMethod;
}

function isOpenEpisodeParams(value: unknown): value is OpenEpisodeParams {
  if (!isEpisodeRef(value)) return false;
  const method = (value as { method?: unknown }).method;
  return method === undefined || isViewMethod(method);
}

/** Webview → host: open an episode in the Episode panel. */
export const OpenEpisodeCommand = new IpcCommand<OpenEpisodeParams>('dashboard/episode/open', isOpenEpisodeParams);
/** Webview → host: recompute a run's credit under a method (the host shows progress and sends a new revision after). */
export const DashboardRecomputeCommand = new IpcCommand<DashboardRecomputeParams>(
  'dashboard/credit/recompute',
  isRunMethodParams,
);

/** Host → webview: the runs of the folder (and a new revision after every change). */
export const DidChangeRunsNotification = new IpcNotification<DashboardRunsData>('dashboard/runs/didChange');

/** A GRPO group to open in the group view, with the dashboard's method. */
export interface OpenGroupParams extends GroupRef {
  readonly method?: ViewMethod;
}

function isOpenGroupParams(value: unknown): value is OpenGroupParams {
  if (!isGroupRef(value)) return false;
  const method = (value as { method?: unknown }).method;
  return method === undefined || isViewMethod(method);
}

/** Webview → host: open a row's GRPO group in the group view. */
export const OpenGroupCommand = new IpcCommand<OpenGroupParams>('dashboard/group/open', isOpenGroupParams);
