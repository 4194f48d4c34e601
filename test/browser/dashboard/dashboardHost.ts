// The scripted host of the dashboard browser tests and small helpers to drive the page.
import type { Locator, Page } from 'playwright-core';
import {
  DashboardReadyCommand,
  DashboardRecomputeCommand,
  DidChangeRunsNotification,
  GetAgentSummaryRequest,
  GetEpisodesRequest,
  GetOverviewDeltaRequest,
  GetOverviewRequest,
  OpenEpisodeCommand,
  OpenGroupCommand,
  type AgentSummary,
  type DashboardRunsData,
  type GetOverviewParams,
  type OverviewDelta,
  type GetEpisodesParams,
} from '../../../src/protocol/dashboardPanel';
import type { IpcMessage } from '../../../src/protocol/ipc';
import {
  GetRunInfluenceRequest,
  type GetRunInfluenceParams,
  type InfluenceGraphView,
} from '../../../src/protocol/influence';
import type { ScriptedHost, WebviewHarness } from '../harness/harness';
import { episodePage, type ScriptedRun } from './scriptedRun';

export const dashboardEntry = { script: 'dashboard', styles: ['webview.css', 'dashboard.css'] } as const;

/** The host's side: answers the dashboard's messages from `run`; `runs` can be replaced (a new revision). */
export interface DashboardHost {
  readonly host: ScriptedHost;
  runs: DashboardRunsData;
  /** The answer to GetOverviewDeltaRequest (live tail); the overview of run 1 has watermark {@link scriptedWatermark}. */
  delta?: OverviewDelta;
  /** The answer to GetAgentSummaryRequest; by default every agent of the run with no credit, not audited. */
  agentSummary?: (params: GetOverviewParams) => AgentSummary;
  /** The answer to GetRunInfluenceRequest; by default the run's agents without edges. */
  influence?: (params: GetRunInfluenceParams) => InfluenceGraphView;
  /** Messages whose method is the dashboard's but whose params failed the protocol guard. */
  readonly invalid: IpcMessage[];
}

/** The watermark of the scripted overview of run 1. */
export const scriptedWatermark = 1000;

const known = [
  DashboardReadyCommand,
  GetOverviewRequest,
  GetOverviewDeltaRequest,
  GetAgentSummaryRequest,
  GetEpisodesRequest,
  OpenEpisodeCommand,
  OpenGroupCommand,
  DashboardRecomputeCommand,
  GetRunInfluenceRequest,
];

/** An agent summary of run `runId` of `runs` without credit or audit. */
export function emptyAgentSummary(runs: DashboardRunsData, { runId, method }: GetOverviewParams): AgentSummary {
  const run = runs.runs.find((r) => r.runId === runId);
  const episodes = run?.episodes ?? 0;
  return {
    runId,
    method,
    status: 'not-computed',
    coverage: { episodes, drawn: 0, approximate: 0, notIdentifiable: 0, failed: 0, reason: null, remedy: null },
    steplessEpisodes: run && run.steps.count === 0 ? episodes : 0,
    agents: (run?.agents ?? []).map((agent) => ({
      agent,
      episodes: 0,
      meanCredit: null,
      ci: null,
      creditShare: null,
      tokenShare: null,
      emptyRate: null,
      copyRate: null,
      flags: [],
    })),
    histogram: null,
    audit: null,
  };
}

export function dashboardHost(run: ScriptedRun): DashboardHost {
  const state: DashboardHost = {
    runs: run.runs,
    invalid: [],
    host: async (message: IpcMessage, harness: WebviewHarness) => {
      if (!known.some((d) => d.is(message))) {
        state.invalid.push(message);
        throw new Error(`unexpected message ${message.method}`);
      }
      if (DashboardReadyCommand.is(message)) await harness.notify(DidChangeRunsNotification, state.runs);
      if (GetOverviewRequest.is(message)) {
        const overview = run.overview(message.params.method);
        return message.params.runId === 1
          ? { ...overview, watermark: scriptedWatermark }
          : {
              ...overview,
              runId: message.params.runId,
              steps: [],
              teamReward: [],
              episodes: [],
              windows: [],
              flags: [],
            };
      }
      if (GetAgentSummaryRequest.is(message))
        return (state.agentSummary ?? ((p) => emptyAgentSummary(state.runs, p)))(message.params);
      if (GetRunInfluenceRequest.is(message))
        return (state.influence ?? ((p) => noInfluenceEdges(state.runs, p)))(message.params);
      if (GetOverviewDeltaRequest.is(message)) {
        if (!state.delta) throw new Error('no delta scripted');
        return state.delta;
      }
      if (GetEpisodesRequest.is(message)) {
        if (message.params.runId !== 1) return { total: 0, offset: 0, rows: [], searchError: null };
        return episodePage(run, message.params);
      }
      return undefined;
    },
  };
  return state;
}

/** The influence graph of a run whose trace logs nothing that gives influence. */
function noInfluenceEdges(runs: DashboardRunsData, { runId }: GetRunInfluenceParams): InfluenceGraphView {
  const agents = runs.runs.find((r) => r.runId === runId)?.agents ?? [];
  return {
    agents: agents.map((name) => ({ name, noInfluence: null })),
    edges: [],
    episodes: 1,
    skipped: 0,
    missing: 'This data has no logged attribution weights.',
  };
}

/** Waits for a message posted after this call that `match` accepts. */
export function nextPosted<P>(
  h: WebviewHarness,
  match: (m: IpcMessage) => m is IpcMessage<P>,
  timeoutMs?: number,
): Promise<IpcMessage<P>>;
export function nextPosted(
  h: WebviewHarness,
  match: (m: IpcMessage) => boolean,
  timeoutMs?: number,
): Promise<IpcMessage>;
export function nextPosted(
  h: WebviewHarness,
  match: (m: IpcMessage) => boolean,
  timeoutMs = 10_000,
): Promise<IpcMessage> {
  const seen = new Set(h.posted);
  return h.waitForPosted((m) => !seen.has(m) && match(m), timeoutMs);
}

/** The GetEpisodesRequest params posted after this call that `match` accepts. */
export async function nextEpisodesRequest(
  h: WebviewHarness,
  match: (p: GetEpisodesParams) => boolean = () => true,
): Promise<GetEpisodesParams> {
  const message = await nextPosted(h, (m) => GetEpisodesRequest.is(m) && match(m.params));
  return message.params as GetEpisodesParams;
}

/** Chooses the option labelled `label` of the toolkit dropdown `dropdown` with the mouse. */
export async function choose(page: Page, dropdown: string, label: string): Promise<void> {
  await page.locator(dropdown).click();
  await page.locator(`${dropdown} vscode-option`, { hasText: label }).first().click();
}

/** Loaded rows of the episode table currently in the DOM. */
export function tableRows(page: Page): Locator {
  return page.locator('#episode-grid .viewport .row:not(.loading)');
}

/** Waits until the table status reads `text` (e.g. "20,000 episodes"). */
export async function waitForStatus(page: Page, text: string | RegExp): Promise<void> {
  await page.locator('.table-status', { hasText: text }).waitFor();
}

/** Drags across the heatmap's brush overlay from column `from` to column `to` (of `columns`). */
export async function brushColumns(page: Page, from: number, to: number, columns: number): Promise<void> {
  const box = await page.locator('#chart-heatmap .brush .overlay').boundingBox();
  if (!box) throw new Error('no brush overlay');
  const cw = box.width / columns;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + (from + 0.3) * cw, y);
  await page.mouse.down();
  await page.mouse.move(box.x + (from + to) * 0.5 * cw, y, { steps: 4 });
  await page.mouse.move(box.x + (to + 0.6) * cw, y, { steps: 4 });
  await page.mouse.up();
}
