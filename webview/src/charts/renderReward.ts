import type { LineChartModel } from './lineModel';
import { drawLines } from './renderLines';
import { renderStepChart } from './renderStepChart';

/** Renders the team-reward line into `svg` (`width` px wide). */
export function renderReward(svg: SVGSVGElement, model: LineChartModel, width: number, label: string): void {
  renderStepChart(svg, {
    width,
    plotHeight: 170,
    label,
    model,
    yDomain: model.yDomain,
    yFormat: (v) => v.toFixed(2),
    draw: (plot, x, y) => {
      drawLines(plot, model, x, y, () => 'var(--vscode-charts-blue)');
    },
  });
}
