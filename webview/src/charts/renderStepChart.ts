import { scaleLinear, type ScaleLinear } from 'd3-scale';
import { chartFrame, drawStepAxis, drawValueAxis, layer, prepareSvg, type Frame, type Group } from './chartFrame';
import type { LineChartModel } from './lineModel';
import { drawHover, hoverSpans } from './renderHover';
import { drawWindowLabels, drawWindowShades, laneHeight } from './renderWindows';
import type { WindowMark } from './windowModel';

type Scale = ScaleLinear<number, number>;

/** What a chart over training steps draws; the frame, axes, windows and tooltips are common. */
export interface StepChartOptions {
  readonly width: number;
  /** Height of the plot area (margins, lanes and the extra strip come on top). */
  readonly plotHeight: number;
  readonly label: string;
  /** Steps, x domain and hover columns. */
  readonly model: LineChartModel;
  readonly yDomain: readonly [number, number];
  readonly yFormat: (value: number) => string;
  /** Flag windows shaded over the plot and labelled on lanes above it. */
  readonly windows?: { readonly marks: readonly WindowMark[]; readonly lanes: number };
  /** Room below the x axis for an extra strip (e.g. flag marks), in px. */
  readonly below?: number;
  /** Draws the data into the plot group. */
  readonly draw: (plot: Group, x: Scale, y: Scale, frame: Frame) => void;
}

/** Renders a chart over the steps into `svg`; returns its x scale, frame and plot group (for extra layers). */
export function renderStepChart(svg: SVGSVGElement, o: StepChartOptions): { x: Scale; frame: Frame; plot: Group } {
  const lanes = o.windows?.lanes ?? 0;
  const margins = { top: 8 + lanes * laneHeight, right: 14, bottom: 22 + (o.below ?? 0), left: 46 };
  const frame = chartFrame(o.width, o.plotHeight + margins.top + margins.bottom, margins);
  const root = prepareSvg(svg, frame, o.label);
  // Thousands of steps on a few hundred pixels: thinner strokes keep the lines apart.
  svg.classList.toggle('dense', o.model.steps.length > frame.innerWidth / 2);
  const x = scaleLinear().domain(o.model.xDomain).range([0, frame.innerWidth]);
  const y = scaleLinear().domain(o.yDomain).range([frame.innerHeight, 0]);
  const plot = layer(root, 'plot', frame.left, frame.top);
  const marks = o.windows?.marks ?? [];
  drawWindowShades(layer(plot, 'windows'), marks, x, frame.innerHeight);
  drawValueAxis(layer(plot, 'axis axis-y'), y, frame, o.yFormat);
  o.draw(layer(plot, 'data'), x, y, frame);
  drawStepAxis(layer(plot, 'axis axis-x', 0, frame.innerHeight), x, frame);
  drawWindowLabels(layer(plot, 'window-labels'), marks, x, frame.innerWidth);
  drawHover(layer(plot, 'hover'), hoverSpans(o.model.hover, x, frame.innerWidth), frame.innerHeight);
  return { x, frame, plot };
}
