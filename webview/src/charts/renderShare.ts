import type { ShareModel } from './shareModel';
import { drawLines, drawStack } from './renderLines';
import { renderStepChart } from './renderStepChart';
import type { WindowMark } from './windowModel';

export interface ShareChartOptions {
  readonly width: number;
  readonly label: string;
  readonly mode: 'stacked' | 'lines';
  readonly color: (agent: string) => string;
  readonly windows: { readonly marks: readonly WindowMark[]; readonly lanes: number };
}

/** Renders the per-agent credit share as stacked areas or lines, with the flag windows shaded. */
export function renderShare(svg: SVGSVGElement, model: ShareModel, o: ShareChartOptions): void {
  svg.classList.toggle('mode-stacked', o.mode === 'stacked');
  svg.classList.toggle('mode-lines', o.mode === 'lines');
  renderStepChart(svg, {
    width: o.width,
    plotHeight: 180,
    label: o.label,
    model: model.lines,
    yDomain: o.mode === 'stacked' ? [0, model.stackMax] : [0, 1],
    yFormat: (v) => `${(v * 100).toFixed(0)}%`,
    windows: o.windows,
    draw: (plot, x, y) => {
      drawStack(plot, o.mode === 'stacked' ? model.layers : [], model.lines.steps, x, y, o.color);
      drawLines(plot, o.mode === 'lines' ? model.lines : { ...model.lines, series: [] }, x, y, o.color);
    },
  });
}
