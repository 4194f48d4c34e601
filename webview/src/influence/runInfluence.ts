import type { DashboardRun, DashboardRunsData, EpisodeFilter } from '../../../src/protocol/dashboardPanel';
import { GetRunInfluenceRequest } from '../../../src/protocol/influence';
import type { HostIpc } from '../ipc';
import type { InfluenceView } from './influenceView';

/**
 * The Run Dashboard's influence graph: the mean over the selected (brushed or typed) step range, or
 * over every step. Asks the host again only when the run, the index revision or the range changed;
 * returns the key of what is shown, to pass back on the next call.
 */
export function loadRunInfluence(
  view: InfluenceView,
  ipc: HostIpc,
  shownKey: string,
  runs: DashboardRunsData,
  run: DashboardRun,
  filter: EpisodeFilter,
): string {
  const stepFrom = filter.stepFrom ?? null;
  const stepTo = filter.stepTo ?? null;
  const key = JSON.stringify([runs.folder, runs.revision, run.runId, stepFrom, stepTo]);
  if (key === shownKey) return key;
  const params = { folder: runs.folder, runId: run.runId, stepFrom, stepTo };
  view.show(() => ipc.request(GetRunInfluenceRequest, params), `on average over ${rangeText(stepFrom, stepTo)}`);
  return key;
}

function rangeText(from: number | null, to: number | null): string {
  if (from === null && to === null) return 'every step of the run';
  return `steps ${from === null ? '…' : String(from)}–${to === null ? '…' : String(to)}`;
}
