import { IpcCommand, IpcNotification, IpcRequest, isRecord } from './ipc';
import {
  isBoundedString,
  isNonNegativeInt,
  isViewMethod,
  type CreditDomainView,
  type CreditStatus,
  type ViewMethod,
} from './viewData';

// The contract of the "Credit Lens: GRPO Group" webview (host: src/extension/panels/groupPanel.ts,
// webview: webview/src/group/main.ts).
// Handshake: the webview sends GroupReadyCommand (again after every reload, with the group it
// restored from its state, if any); the host answers with DidChangeGroupNotification, and sends it
// again when the panel is pointed at another group or the index changes. The webview then asks for
// the group under its method with GetGroupRequest.

/** Version of {@link GroupViewState}; bump it when that state changes shape. */
export const groupStateVersion = 1;

/** Longest group id the contract carries (ids are short keys; anything longer is refused). */
export const maxGroupIdChars = 1024;

/** One GRPO group: the rollouts of one prompt in one run of an indexed folder, sharing a group id. */
export interface GroupRef {
  /** Absolute path of the indexed folder, as the host knows it. */
  readonly folder: string;
  readonly runId: number;
  readonly group: string;
}

export function isGroupRef(value: unknown): value is GroupRef {
  return (
    isRecord(value) &&
    isBoundedString(value['folder'], 4096) &&
    isNonNegativeInt(value['runId']) &&
    isBoundedString(value['group'], maxGroupIdChars)
  );
}

/** One signal whose GRPO advantage the group view shows. */
export interface AdvantageSignal {
  /** `reward` (the team reward, one value per rollout), `logged` (the trainer's, per agent) or a credit method (per agent). */
  readonly id: 'reward' | 'logged' | ViewMethod;
  readonly perAgent: boolean;
  /** Rollouts with at least one value of this signal. */
  readonly covered: number;
}

/** An agent's credit in one rollout under the chosen method. */
export interface RolloutAgentCredit {
  /** Null: no value stored (see the rollout's `creditStatus`), or the agent is not in this rollout. */
  readonly value: number | null;
  /** exact | estimated | approximate; null without a value. */
  readonly status: string | null;
  /** The GRPO advantage stored with the value; null without one (or in a group of one rollout). */
  readonly advantage: number | null;
}

/** One rollout of the group, as the view shows it. */
export interface GroupRolloutView {
  readonly episodeId: number;
  readonly externalId: string;
  readonly step: number | null;
  readonly sample: number | null;
  readonly reward: number | null;
  /** Per agent of {@link GroupViewData.agents}: is it in this rollout's roster. */
  readonly inRoster: readonly boolean[];
  /** Advantages by signal of {@link GroupViewData.signals}: one value (reward) or one per agent. */
  readonly advantages: readonly (readonly (number | null)[])[];
  /** Where the chosen method stands on this rollout, and why when not `computed`. */
  readonly creditStatus: CreditStatus;
  readonly creditReason: string | null;
  /** What would answer a `not-identifiable` rollout. */
  readonly creditRemedy: string | null;
  /** Per agent of {@link GroupViewData.agents}, under the chosen method. */
  readonly credit: readonly RolloutAgentCredit[];
}

/** How the run's trainer turns a group's signal into advantages, named for the reader. */
export interface ConventionView {
  /** e.g. `verl`. */
  readonly name: string;
  /** e.g. `(r − mean) / (std + ε) over 4 rollouts`. */
  readonly formula: string;
  /** e.g. `sample std, eps 1e-6; from the producer verl`. */
  readonly detail: string;
}

/** The group under one method, as the view shows it. */
export interface GroupViewData {
  readonly ref: GroupRef;
  readonly runName: string;
  readonly method: ViewMethod;
  /** Distinct training steps of the rollouts (usually one). */
  readonly steps: readonly number[];
  /** Every agent of the rollouts' rosters, by roster position. */
  readonly agents: readonly string[];
  /** Ordered by reward, highest first (rollouts without a reward last). */
  readonly rollouts: readonly GroupRolloutView[];
  /** Mean and std (the convention's) of the logged rewards; null when fewer than one / two rollouts log one. */
  readonly rewardMean: number | null;
  readonly rewardStd: number | null;
  /** Rollouts that log a team reward. */
  readonly rewarded: number;
  /** Null when the convention cannot be chosen (`notes` says why). */
  readonly convention: ConventionView | null;
  readonly signals: readonly AdvantageSignal[];
  /** Where the chosen method stands over the group: `computed` only when every rollout has it. */
  readonly creditStatus: CreditStatus;
  /** Rollouts with the chosen method's credit. */
  readonly credited: number;
  /** Honest states, each a sentence (a group of one, no reward, a method not computed: what would answer). */
  readonly notes: readonly string[];
  /** The run's fixed credit colour domain, as in the Episode view and the dashboard (docs/architecture.md §4.4). */
  readonly creditDomain: CreditDomainView;
}

/** What the host sends when the panel is pointed at a group (the webview then asks for its data). */
export interface GroupShownData {
  readonly ref: GroupRef;
  /** Method to show when the webview has none saved (the `creditLens.credit.defaultMethod` setting). */
  readonly defaultMethod: ViewMethod;
  /** The method of the view that opened the group: shown instead of the saved one; null otherwise. */
  readonly openedMethod: ViewMethod | null;
  /** Bumped on every change of the index, so the webview asks again. */
  readonly revision: number;
}

/** What the webview persists with `setState` (UI state only; data is asked from the host again). */
export interface GroupViewState {
  readonly version: number;
  readonly ref: GroupRef;
  readonly method: ViewMethod;
  /** Rollout (by episode id) with keyboard focus; null: none. */
  readonly focusedEpisode: number | null;
}

export interface GroupReadyParams {
  readonly stateVersion: number;
  /** The group restored from the webview's state, if any. */
  readonly ref: GroupRef | null;
}

export interface GetGroupParams {
  readonly ref: GroupRef;
  readonly method: ViewMethod;
}

/** A rollout to open in the Episode view, under the group view's method. */
export interface OpenRolloutParams {
  readonly ref: GroupRef;
  readonly episodeId: number;
  readonly method: ViewMethod;
}

function isGroupReadyParams(value: unknown): value is GroupReadyParams {
  return (
    isRecord(value) && isNonNegativeInt(value['stateVersion']) && (value['ref'] === null || isGroupRef(value['ref']))
  );
}

function isGetGroupParams(value: unknown): value is GetGroupParams {
  return isRecord(value) && isGroupRef(value['ref']) && isViewMethod(value['method']);
}

function isOpenRolloutParams(value: unknown): value is OpenRolloutParams {
  return isGetGroupParams(value) && isNonNegativeInt((value as { episodeId?: unknown }).episodeId);
}

/** Webview → host: the script runs; (re)send the group. */
export const GroupReadyCommand = new IpcCommand<GroupReadyParams>('group/ready', isGroupReadyParams);
/** Webview → host: the shown group under one method. */
export const GetGroupRequest = new IpcRequest<GetGroupParams, GroupViewData>('group/group/get', isGetGroupParams);
/** Webview → host: open one of the shown group's rollouts in the Episode view. */
export const OpenRolloutCommand = new IpcCommand<OpenRolloutParams>('group/rollout/open', isOpenRolloutParams);

/** Host → webview: the group to show. */
export const DidChangeGroupNotification = new IpcNotification<GroupShownData>('group/group/didChange');
/** Webview → host: diff one of the shown group's rollouts with another rollout of the group, picked by the host. */
export const DiffRolloutCommand = new IpcCommand<OpenRolloutParams>('group/rollout/diff', isOpenRolloutParams);
