// The data the Episode and Run Dashboard panels show, as the view services return it: the DTOs of
// src/protocol (engine may import protocol for types only; eslint enforces it), re-exported for the
// engine's modules, plus the engine's own limits.

export type { CreditStatus, EpisodeRef, FlagView, ViewMethod } from '../../protocol/viewData';
export type {
  AgentCreditView,
  CounterfactualView,
  EpisodeAgentView,
  EpisodeCreditView,
  EpisodeViewData,
  EvaluatorView,
  LabelView,
  MessageView,
  MessageWindow,
  RunWindowsView,
  TimelineView,
} from '../../protocol/episodePanel';
export type {
  AgentSummary,
  AgentSummaryRow,
  AuditState,
  CreditHistogram,
  CreditCoverage,
  DashboardRun,
  EpisodeFilter,
  EpisodePage,
  EpisodeRow,
  EpisodeSortKey,
  FlagWindow,
  GetEpisodesParams,
  Matrix,
  RunOverview,
  SignalDisagreementView,
} from '../../protocol/dashboardPanel';
import type { GetEpisodesParams } from '../../protocol/dashboardPanel';

/** One table page request without the folder (the service knows its folder). */
export type EpisodeQuery = Omit<GetEpisodesParams, 'folder'>;

/**
 * Longest message text sent to the panel; longer text is cut and marked `truncated`. Equal to the
 * protocol's `maxMessageChars` (a runtime constant, which engine may not import; a test checks it).
 */
export const maxMessageChars = 65_536;
/** Most counterfactual rows an episode view lists. */
export const maxCounterfactuals = 64;
