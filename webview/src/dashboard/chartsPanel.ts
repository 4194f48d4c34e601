import type { EpisodeFilter, RunOverview } from '../../../src/protocol/dashboardPanel';
import { heatmapModel, stepColumns } from '../charts/heatmapModel';
import { idleModel } from '../charts/idleModel';
import { agentLegend, creditLegend, legend } from '../charts/legend';
import { agentPalette } from '../charts/palette';
import { renderHeatmap } from '../charts/renderHeatmap';
import { renderIdle } from '../charts/renderIdle';
import { renderReward } from '../charts/renderReward';
import { renderShare } from '../charts/renderShare';
import { rewardModel, rewardSummary } from '../charts/rewardModel';
import { shareModel, shareSummary } from '../charts/shareModel';
import { windowMarks } from '../charts/windowModel';
import { h, replaceChildren } from '../dom';
import { button } from '../kit/controls';
import { createFigure, figureWidth } from './figures';
import { renderSignalFigure } from './signalPanel';
import { creditNotice, windowList } from './chartText';
import type { ChartMode } from './viewState';

export interface ChartsActions {
  /** A step range was brushed on the heatmap (undefined: cleared). */
  brushSteps(range: { stepFrom: number; stepTo: number } | undefined): void;
  recompute(): void;
}

/** What the charts show. */
export interface ChartsInput {
  readonly overview: RunOverview;
  readonly agents: readonly string[];
  readonly mode: ChartMode;
  readonly filter: EpisodeFilter;
  readonly methodLabel: string;
}

/** The four charts of the dashboard, re-rendered on data, mode, filter and size changes. */
export class ChartsPanel {
  readonly element = h('section', 'charts');
  private readonly status = h('div', 'charts-status');
  private readonly reward = createFigure('reward', 'Team reward');
  private readonly share = createFigure('share', 'Credit share per agent', 'wide');
  private readonly idle = createFigure('idle', 'Idle rate and flags per agent');
  private readonly heatmap = createFigure('heatmap', 'Mean credit: step × agent', 'wide');
  private readonly signal = createFigure(
    'signal',
    'Signal disagreement: pushed the wrong way by the shared reward',
    'wide',
  );
  private input: ChartsInput | undefined;
  private frame = 0;

  constructor(private readonly actions: ChartsActions) {
    this.element.setAttribute('aria-label', 'Charts');
    const clear = button('Clear step selection', () => {
      actions.brushSteps(undefined);
    });
    clear.id = 'clear-brush';
    this.heatmap.footer.append(
      h('p', 'brush-hint', 'Drag across the steps to filter the episode table (or type steps in the filters).'),
      clear,
    );
    const grid = h(
      'div',
      'chart-grid',
      this.reward.element,
      this.idle.element,
      this.share.element,
      this.heatmap.element,
      this.signal.element,
    );
    this.element.append(this.status, grid);
    new ResizeObserver(() => {
      this.schedule();
    }).observe(grid);
    this.showMessage('Loading charts…');
  }

  /** Shows a placeholder or an error instead of the charts. */
  showMessage(text: string, className = 'placeholder'): void {
    this.input = undefined;
    replaceChildren(this.status, h('p', className, text));
    this.element.classList.add('empty');
  }

  update(input: ChartsInput): void {
    this.input = input;
    this.element.classList.remove('empty');
    replaceChildren(
      this.status,
      ...creditNotice(input.overview.status, input.overview.coverage, input.methodLabel, () =>
        this.actions.recompute(),
      ),
    );
    this.render();
  }

  private schedule(): void {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => {
      this.render();
    });
  }

  private render(): void {
    const input = this.input;
    if (!input) return;
    const computed = input.overview.status === 'computed';
    for (const f of [this.share, this.idle, this.heatmap]) f.element.hidden = !computed;
    const color = agentPalette(input.agents);
    this.renderReward(input);
    renderSignalFigure(this.signal, input.overview, input.agents, color);
    if (!computed) return;
    this.renderShare(input, color);
    this.renderIdle(input, color);
    this.renderHeatmap(input);
  }

  private renderReward({ overview }: ChartsInput): void {
    const width = figureWidth(this.reward);
    if (width <= 0) return;
    const summary = rewardSummary(overview);
    renderReward(
      this.reward.svg,
      rewardModel(overview, width / 3),
      width,
      `Team reward over training steps. ${summary}`,
    );
    replaceChildren(
      this.reward.legend,
      legend([{ label: 'mean team reward per step', className: 'swatch-reward' }], 'Series'),
    );
    this.reward.caption.textContent = summary;
  }

  private renderShare(input: ChartsInput, color: (agent: string) => string): void {
    const width = figureWidth(this.share);
    if (width <= 0) return;
    const model = shareModel(input.overview, input.agents, width / 3);
    const windows = windowMarks(input.overview.windows);
    const summary = shareSummary(model.lines.series);
    const label = `Credit share per agent under ${input.methodLabel}, ${input.mode === 'stacked' ? 'stacked areas' : 'lines'}. ${summary}`;
    renderShare(this.share.svg, model, { width, label, mode: input.mode, color, windows });
    replaceChildren(this.share.legend, agentLegend(input.agents, color));
    this.share.caption.textContent = summary;
    replaceChildren(this.share.footer, windowList(windows.marks, input.overview.flags));
  }

  private renderIdle(input: ChartsInput, color: (agent: string) => string): void {
    const width = figureWidth(this.idle);
    if (width <= 0) return;
    const model = idleModel(input.overview, input.agents, Math.floor(width / 3));
    const flagged =
      model.marks.length > 0
        ? `Flag marks below the axis in ${String(new Set(model.marks.map((m) => m.agent)).size)} agent rows.`
        : 'No flags.';
    const caption = `Idle: the agent spoke with |credit| ≤ ${String(input.overview.epsilon)}. ${flagged}`;
    renderIdle(this.idle.svg, model, {
      width,
      label: `Idle rate per agent per step, and flag counts per agent. ${caption}`,
      color,
    });
    replaceChildren(this.idle.legend, agentLegend(input.agents, color));
    this.idle.caption.textContent = caption;
  }

  private renderHeatmap(input: ChartsInput): void {
    const width = figureWidth(this.heatmap);
    if (width <= 0) return;
    const model = heatmapModel(input.overview, input.agents, Math.max(1, Math.floor((width - 86) / 2)));
    const selected = stepColumns(model.columns, input.filter.stepFrom ?? null, input.filter.stepTo ?? null);
    const label = `Mean credit per agent and step under ${input.methodLabel}, ${String(model.columns.length)} step columns; brush to filter the table.`;
    renderHeatmap(this.heatmap.svg, model, {
      width,
      label,
      selected,
      onBrush: (range) => this.actions.brushSteps(range),
    });
    replaceChildren(this.heatmap.legend, creditLegend(input.overview.colour.domain));
    this.heatmap.caption.textContent = selected ? `Selected ${stepText(input.filter)}.` : 'No step selection.';
  }
}

function stepText(filter: EpisodeFilter): string {
  const from = filter.stepFrom ?? null;
  const to = filter.stepTo ?? null;
  return `steps ${from === null ? '…' : String(from)}–${to === null ? '…' : String(to)}`;
}
