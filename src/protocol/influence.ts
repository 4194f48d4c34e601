import { IpcRequest, isRecord } from './ipc';
import { isBoundedString, isEpisodeRef, isNonNegativeInt, type EpisodeRef } from './viewData';

// The influence graph (credit-methods.md §3.17), shared by the Episode view and the Run Dashboard.
// Influence is not credit: it does not conserve the reward, and it is never shown as a credit number.

/**
 * Where an edge's number comes from (docs/credit-methods.md §3.17). `replayed-output`: how far agent
 * j's replayed output moves when agent i is removed (1 − token-set Jaccard, in [0, 1]; not reward units).
 */
export const influenceKinds = ['logged', 'counterfactual', 'alternatives', 'replayed-output'] as const;
export type InfluenceKind = (typeof influenceKinds)[number];

/** One edge of the graph: from an agent to another agent, or to the outcome (`to` null). */
export interface InfluenceEdgeView {
  readonly from: string;
  /** The agent influenced; null for the episode's outcome (the reward). */
  readonly to: string | null;
  readonly kind: InfluenceKind;
  /** The influence in the edge's own units (a logged weight, or reward units); a mean over episodes on the dashboard. */
  readonly value: number;
  /** False when a value behind it is an approximation (a removal without replay, credit-methods.md §3.1). */
  readonly exact: boolean;
  /** Where the number comes from, in words (e.g. "v(N) − v(N∖{verifier}), logged"). */
  readonly provenance: string;
  /** Message connections behind a logged edge (0 for the others). */
  readonly connections: number;
  /** Episodes the value rests on (1 in the Episode view). */
  readonly episodes: number;
  /** On a mean over episodes: the largest |value| among them (a mean of +1 and −1 is 0); absent for one episode. */
  readonly largest?: number;
  /** A message → outcome edge: the message's index in the episode (0-based); absent for an agent-level edge. */
  readonly message?: number;
  /** A `replayed-output` edge: the share of replays in which the influenced agent's final answer changed, in [0, 1]. */
  readonly answerChanged?: number;
}

/** One agent of the graph and whether it influences anything. */
export interface InfluenceAgentView {
  readonly name: string;
  /**
   * True when no one is influenced by the agent (every edge out of it is 0 or there is none) and its
   * removal changes nothing (a known 0 edge to the outcome); false when something says otherwise;
   * null when the removal's effect is not known.
   */
  readonly noInfluence: boolean | null;
}

/** The graph of one episode, or of a step range of a run. */
export interface InfluenceGraphView {
  readonly agents: readonly InfluenceAgentView[];
  readonly edges: readonly InfluenceEdgeView[];
  /** Episodes read (1 for an episode; on the dashboard, those of the range, at most 20,000: engine/influence/influenceService.ts). */
  readonly episodes: number;
  /** Episodes in the range that were not read (beyond that bound); 0 for an episode. */
  readonly skipped: number;
  /** What the data cannot give, and what would give it; null when every kind of edge could be computed. */
  readonly missing: string | null;
}

export interface GetEpisodeInfluenceParams {
  readonly ref: EpisodeRef;
}

/** A step range of the dashboard's run; null ends are the run's first and last steps. */
export interface GetRunInfluenceParams {
  readonly folder: string;
  readonly runId: number;
  readonly stepFrom: number | null;
  readonly stepTo: number | null;
}

function isEpisodeInfluenceParams(value: unknown): value is GetEpisodeInfluenceParams {
  return isRecord(value) && isEpisodeRef(value['ref']);
}

function isStep(value: unknown): value is number | null {
  return value === null || (typeof value === 'number' && Number.isSafeInteger(value));
}

function isRunInfluenceParams(value: unknown): value is GetRunInfluenceParams {
  return (
    isRecord(value) &&
    isBoundedString(value['folder'], 4096) &&
    isNonNegativeInt(value['runId']) &&
    isStep(value['stepFrom']) &&
    isStep(value['stepTo'])
  );
}

/** Webview → host: the influence graph of the shown episode. */
export const GetEpisodeInfluenceRequest = new IpcRequest<GetEpisodeInfluenceParams, InfluenceGraphView>(
  'episode/influence/get',
  isEpisodeInfluenceParams,
);

/** Webview → host: the influence graph of the dashboard's run over a step range (mean per agent pair). */
export const GetRunInfluenceRequest = new IpcRequest<GetRunInfluenceParams, InfluenceGraphView>(
  'dashboard/influence/get',
  isRunInfluenceParams,
);
