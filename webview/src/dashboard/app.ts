import {
  DashboardReadyCommand,
  DashboardRecomputeCommand,
  DidChangeRunsNotification,
  GetAgentSummaryRequest,
  GetEpisodesRequest,
  GetOverviewDeltaRequest,
  GetOverviewRequest,
  dashboardStateVersion,
  type DashboardRun,
  type DashboardRunsData,
  type DashboardViewState,
  type EpisodeFilter,
  type EpisodeSortKey,
  OpenEpisodeCommand,
  OpenGroupCommand,
  type RunOverview,
} from '../../../src/protocol/dashboardPanel';
import type { ViewMethod } from '../../../src/protocol/viewData';
import { rowOrder } from '../charts/matrix';
import { h } from '../dom';
import type { Host } from '../host';
import type { HostIpc } from '../ipc';
import { AgentSummaryPanel } from './agentSummaryPanel';
import { ChartsPanel } from './chartsPanel';
import { loadRunInfluence } from '../influence/runInfluence';
import { InfluenceView } from '../influence/influenceView';
import { EpisodeTable } from './episodeTable';
import { FilterBar } from './filterBar';
import { cleanFilter, describeFilter, nextSort, patchFilter } from './filterModel';
import { ColumnChooser } from './columnChooser';
import { shownColumns } from './tableColumns';
import { methodLabels } from '../methodLabels';
import { mergeOverviewDelta } from './overviewDelta';
import { bindKeys } from './keyboard';
import { Toolbar } from './toolbar';
import { restoreViewState, stateForRun, stateForRuns, type ChartMode, type RunState } from './viewState';

/**
 * The Run Dashboard: keeps the UI state (persisted with setState on every change), follows the
 * host's runs and revisions, and pulls the overview and the table pages it needs.
 */
export class DashboardApp {
  private state: DashboardViewState;
  private runs: DashboardRunsData | undefined;
  private overview: RunOverview | undefined;
  private overviewKey = '';
  private overviewSeq = 0;
  /** The revision at which the shown overview was asked for (a delta after it keeps that). */
  private overviewRevision = -1;
  private readonly toolbar: Toolbar;
  private readonly charts: ChartsPanel;
  private readonly agentSummary = new AgentSummaryPanel();
  private agentSummaryKey = '';
  private agentSummarySeq = 0;
  private readonly influence = new InfluenceView();
  private influenceKey = '';
  private readonly filters: FilterBar;
  private readonly table: EpisodeTable;
  private readonly chooser: ColumnChooser;
  private readonly tableStatus = h('p', 'table-status');
  private readonly episodes: HTMLElement;

  constructor(
    private readonly ipc: HostIpc,
    private readonly host: Host<unknown>,
    root: HTMLElement,
  ) {
    this.state = restoreViewState(host.getState());
    this.toolbar = new Toolbar({
      selectRun: (runId) => this.selectRun(runId),
      selectMethod: (method) => this.selectMethod(method),
      setChart: (mode) => this.setChart(mode),
      recompute: () => this.recompute(),
    });
    this.charts = new ChartsPanel({
      brushSteps: (r) => this.setFilter({ stepFrom: r?.stepFrom ?? null, stepTo: r?.stepTo ?? null }),
      recompute: () => this.recompute(),
    });
    this.filters = new FilterBar((patch) => this.setFilter(patch));
    this.table = new EpisodeTable({
      sort: (key) => this.setSort(key),
      open: (row) => this.openEpisode(row.episodeId),
      openGroup: (row) => this.openGroup(row.group),
      scrolled: (topRow) => this.save({ topRow }),
      loaded: (_total, searchError) => this.showTableStatus(searchError),
    });
    this.table.setSort(this.state.sort);
    this.chooser = new ColumnChooser({
      setHidden: (hiddenColumns) => {
        this.save({ hiddenColumns });
        this.showColumns();
      },
      filterCredit: (agentCredit) => this.setFilter({ agentCredit }),
    });
    this.tableStatus.setAttribute('role', 'status');
    const heading = h('h2', 'episodes-title', 'Episodes');
    this.episodes = h(
      'section',
      'episodes',
      h('div', 'episodes-head', heading, this.tableStatus),
      this.filters.element,
      this.chooser.element,
      this.table.element,
    );
    this.episodes.setAttribute('aria-label', 'Episodes');
    this.episodes.hidden = true;
    root.replaceChildren(
      this.toolbar.element,
      this.agentSummary.element,
      this.charts.element,
      this.influence.element,
      this.episodes,
    );
    bindKeys(document, this.filters.search, this.table);
  }

  /** Subscribes to the host and says ready (again after every reload of the webview). */
  start(): void {
    this.ipc.on(DidChangeRunsNotification, (data) => this.onRuns(data));
    this.ipc.send(DashboardReadyCommand, { stateVersion: dashboardStateVersion, folder: this.state.folder });
  }

  private get run(): DashboardRun | undefined {
    return this.runs?.runs.find((r) => r.runId === this.state.runId);
  }

  private save(patch: Partial<DashboardViewState>): void {
    this.state = { ...this.state, ...patch };
    this.host.setState(this.state);
  }

  /** Saves a state fitted to the run; the filter bar says what of the filter did not fit, until the filter changes. */
  private apply({ state, notes }: RunState): void {
    this.save(state);
    if (notes.length > 0) this.filters.setFitNotes(notes);
  }

  private onRuns(data: DashboardRunsData): void {
    const newer = this.runs !== undefined && (data.revision > this.runs.revision || data.folder !== this.runs.folder);
    const first = this.runs === undefined;
    const runId = this.state.runId;
    this.runs = data;
    this.apply(stateForRuns(this.state, data, first));
    if (newer) this.toolbar.setRecomputing(false);
    this.refresh({ stale: newer && runId === this.state.runId, restore: first });
  }

  /**
   * Updates every part for the current state and fetches what changed (the cache keys hold the
   * revision): `stale` keeps the old rows on screen while a newer revision refetches them,
   * `restore` scrolls the table to the saved row.
   */
  private refresh({ stale, restore }: { stale: boolean; restore: boolean }): void {
    const data = this.runs;
    if (!data) return;
    const run = this.run;
    this.toolbar.update(data, run, this.state);
    this.episodes.hidden = run === undefined;
    // A run without training steps (evaluation data) has no per-step chart: the agent summary is its dashboard.
    this.charts.element.hidden = run !== undefined && run.episodes > 0 && run.steps.count === 0;
    if (!run) {
      this.agentSummary.clear();
      this.charts.showMessage(
        data.runs.length === 0 ? 'No runs in this folder yet. Index it to fill the dashboard.' : 'No run selected.',
      );
      return;
    }
    this.filters.update(
      this.state.filter,
      run.agents,
      this.overview?.runId === run.runId ? this.overview.flags.map((f) => f.kind) : [],
    );
    this.loadOverview();
    this.loadAgentSummary();
    this.loadTable({ keepStale: stale && !restore, topRow: restore ? this.state.topRow : 0 });
  }

  private loadOverview(): void {
    const { runs, run } = this;
    const method = this.state.method;
    if (!runs || !run || !method) return;
    const key = JSON.stringify([runs.revision, run.runId, method]);
    if (key === this.overviewKey) return;
    this.overviewKey = key;
    const seq = ++this.overviewSeq;
    const held = this.overview;
    const reset = runs.resetRevision ?? runs.revision;
    if (
      held?.runId === run.runId &&
      held.method === method &&
      held.watermark !== undefined &&
      this.overviewRevision >= reset
    )
      this.loadDelta(seq, held.watermark);
    else this.loadWhole(seq);
  }

  /** Fetches the agent summary of the run and method, once per revision. */
  private loadAgentSummary(): void {
    const { runs, run } = this;
    const method = this.state.method;
    if (!runs || !run || !method) return;
    const key = JSON.stringify([runs.revision, run.runId, method]);
    if (key === this.agentSummaryKey) return;
    this.agentSummaryKey = key;
    const seq = ++this.agentSummarySeq;
    this.ipc.request(GetAgentSummaryRequest, { folder: runs.folder, runId: run.runId, method }).then(
      (summary) => {
        if (seq === this.agentSummarySeq) this.agentSummary.update(summary, methodLabels[summary.method]);
      },
      (error: unknown) => {
        if (seq !== this.agentSummarySeq) return;
        this.agentSummaryKey = '';
        this.agentSummary.showError(
          `Could not load the agent summary: ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    );
  }

  /** Only episodes were appended since the shown overview: merge the steps they changed. */
  private loadDelta(seq: number, after: number): void {
    const { runs, run } = this;
    const method = this.state.method;
    if (!runs || !run || !method) return;
    const revision = runs.revision;
    this.ipc.request(GetOverviewDeltaRequest, { folder: runs.folder, runId: run.runId, method, after }).then(
      (delta) => {
        if (seq !== this.overviewSeq) return;
        const merged = this.overview && mergeOverviewDelta(this.overview, delta);
        if (!merged) return this.loadWhole(seq);
        this.overview = merged;
        this.overviewRevision = revision;
        this.renderCharts();
      },
      () => {
        if (seq === this.overviewSeq) this.loadWhole(seq);
      },
    );
  }

  private loadWhole(seq: number): void {
    const { runs, run } = this;
    const method = this.state.method;
    if (!runs || !run || !method) return;
    const revision = runs.revision;
    if (this.overview?.runId !== run.runId) this.charts.showMessage('Loading charts…');
    this.charts.element.classList.add('loading');
    this.ipc.request(GetOverviewRequest, { folder: runs.folder, runId: run.runId, method }).then(
      (overview) => {
        if (seq !== this.overviewSeq) return;
        this.overview = overview;
        this.overviewRevision = revision;
        this.charts.element.classList.remove('loading');
        this.renderCharts();
        this.filters.update(
          this.state.filter,
          run.agents,
          overview.flags.map((f) => f.kind),
        );
      },
      (error: unknown) => {
        if (seq !== this.overviewSeq) return;
        this.overviewKey = '';
        this.charts.element.classList.remove('loading');
        this.charts.showMessage(
          `Could not load the charts: ${error instanceof Error ? error.message : String(error)}`,
          'error',
        );
      },
    );
  }

  private renderCharts(): void {
    const { overview, run } = this;
    if (!overview || !run || overview.runId !== run.runId) return;
    const agents = rowOrder(run.agents, overview.creditShare, overview.meanCredit, overview.idleRate);
    const methodLabel = methodLabels[overview.method];
    this.charts.update({ overview, agents, mode: this.state.chart, filter: this.state.filter, methodLabel });
    if (this.runs)
      this.influenceKey = loadRunInfluence(
        this.influence,
        this.ipc,
        this.influenceKey,
        this.runs,
        run,
        this.state.filter,
      );
  }

  private loadTable({ keepStale, topRow }: { keepStale: boolean; topRow: number }): void {
    const { runs, run } = this;
    if (!runs || !run) return;
    const filter = cleanFilter(this.state.filter);
    const { sort, method } = this.state;
    const params = { folder: runs.folder, runId: run.runId, filter, sort, method };
    const key = JSON.stringify([runs.revision, run.runId, filter, sort, method]);
    this.showColumns();
    this.table.setSort(sort);
    this.table.setQuery(
      { key, fetch: (offset, limit) => this.ipc.request(GetEpisodesRequest, { ...params, offset, limit }) },
      { keepStale, topRow },
    );
    this.showTableStatus(null);
  }

  /** The table's columns and the chooser for the run's agents and the hidden ones. */
  private showColumns(): void {
    const run = this.run;
    if (!run) return;
    const hidden = this.state.hiddenColumns ?? [];
    this.table.setColumns(shownColumns(run.agents, hidden));
    this.chooser.update(run.agents, hidden, this.state.filter.agentCredit);
  }

  private showTableStatus(searchError: string | null): void {
    const filter = describeFilter(this.state.filter);
    this.tableStatus.textContent = filter ? `${this.table.countText()} · ${filter}` : this.table.countText();
    this.filters.setSearchError(searchError);
  }

  private selectRun(runId: number): void {
    const run = this.runs?.runs.find((r) => r.runId === runId);
    if (!run || run.runId === this.state.runId) return;
    this.apply(stateForRun(this.state, run));
    this.refresh({ stale: false, restore: false });
  }

  private selectMethod(method: ViewMethod): void {
    if (method === this.state.method) return;
    this.save({ method });
    this.refresh({ stale: false, restore: false });
  }

  private setChart(chart: ChartMode): void {
    this.save({ chart });
    if (this.runs) this.toolbar.update(this.runs, this.run, this.state);
    this.renderCharts();
  }

  private setFilter(patch: EpisodeFilter): void {
    const filter = patchFilter(this.state.filter, patch);
    if (JSON.stringify(filter) === JSON.stringify(cleanFilter(this.state.filter))) return;
    this.save({ filter, topRow: 0 });
    this.filters.setFitNotes([]);
    const run = this.run;
    if (run) this.filters.update(filter, run.agents, this.overview?.flags.map((f) => f.kind) ?? []);
    this.loadTable({ keepStale: false, topRow: 0 });
    this.renderCharts();
  }

  private setSort(key: EpisodeSortKey): void {
    this.save({ sort: nextSort(this.state.sort, key), topRow: 0 });
    this.loadTable({ keepStale: false, topRow: 0 });
  }

  private recompute(): void {
    const { runs, run } = this;
    const method = this.state.method;
    if (!runs || !run || !method) return;
    this.ipc.send(DashboardRecomputeCommand, { folder: runs.folder, runId: run.runId, method });
    this.toolbar.setRecomputing(true);
  }

  private openGroup(group: string | null): void {
    const { runs, run } = this;
    const method = this.state.method;
    if (runs && run && group !== null)
      this.ipc.send(OpenGroupCommand, { folder: runs.folder, runId: run.runId, group, ...(method ? { method } : {}) });
  }

  private openEpisode(episodeId: number): void {
    const method = this.state.method;
    if (this.runs)
      this.ipc.send(OpenEpisodeCommand, { folder: this.runs.folder, episodeId, ...(method ? { method } : {}) });
  }
}
