import { drawLines } from './renderLines';
import { renderStepChart } from './renderStepChart';
import type { SignalModel } from './signalModel';
import type { WindowMark } from './windowModel';

export interface SignalChartOptions {
  readonly width: number;
  readonly label: string;
  readonly color: (agent: string) => string;
  readonly windows: { readonly marks: readonly WindowMark[]; readonly lanes: number };
}

/** Renders each agent's share of samples pushed the wrong way (0–100 %), with the flag windows shaded. */
export function renderSignal(svg: SVGSVGElement, model: SignalModel, o: SignalChartOptions): void {
  renderStepChart(svg, {
    width: o.width,
    plotHeight: 140,
    label: o.label,
    model: model.lines,
    yDomain: [0, 1],
    yFormat: (v) => `${(v * 100).toFixed(0)}%`,
    windows: o.windows,
    draw: (plot, x, y) => {
      drawLines(plot, model.lines, x, y, o.color);
    },
  });
}
