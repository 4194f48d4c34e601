import type { ScaleLinear } from 'd3-scale';
import { layer, type Frame, type Group } from './chartFrame';
import type { FlagMark, IdleModel } from './idleModel';
import { drawLines } from './renderLines';
import { renderStepChart } from './renderStepChart';

/** Height of one agent's row in the flag strip, in px. */
const stripRow = 12;
/** Distance from the plot's bottom to the strip (room for the x axis labels). */
const stripGap = 30;

export interface IdleChartOptions {
  readonly width: number;
  readonly label: string;
  readonly color: (agent: string) => string;
}

/** Renders the idle rate per agent (lines, 0–100 %) and, below the axis, a strip of flag-count marks per agent. */
export function renderIdle(svg: SVGSVGElement, model: IdleModel, o: IdleChartOptions): void {
  const stripHeight = model.agents.length * stripRow;
  const { x, frame, plot } = renderStepChart(svg, {
    width: o.width,
    plotHeight: 110,
    label: o.label,
    model: model.lines,
    yDomain: [0, 1],
    yFormat: (v) => `${(v * 100).toFixed(0)}%`,
    below: stripGap - 22 + stripHeight + 4,
    draw: (g, xs, y) => {
      drawLines(g, model.lines, xs, y, o.color);
    },
  });
  drawStrip(layer(plot, 'flag-strip', 0, frame.innerHeight + stripGap), model, x, frame, o.color);
}

/** Short agent name for the strip's row labels (the full name is in the marks' tooltips). */
function shortName(agent: string): string {
  return agent.length > 8 ? `${agent.slice(0, 7)}…` : agent;
}

function drawStrip(
  g: Group,
  model: IdleModel,
  x: ScaleLinear<number, number>,
  frame: Frame,
  color: (agent: string) => string,
): void {
  const steps = model.lines.steps;
  const half = frame.innerWidth / Math.max(1, steps.length - 1) / 2;
  const x0 = (m: FlagMark): number => Math.max(0, x(m.bin.from) - half);
  const x1 = (m: FlagMark): number => Math.min(frame.innerWidth, x(m.bin.to) + half);
  g.selectAll<SVGTextElement, string>('text.strip-label')
    .data(model.agents, (d) => d)
    .join((enter) => enter.append('text').attr('class', 'strip-label'))
    .attr('x', -4)
    .attr('y', (_, i) => i * stripRow + stripRow - 3)
    .attr('text-anchor', 'end')
    .text((d) => shortName(d));
  g.selectAll<SVGRectElement, FlagMark>('rect.flag-mark')
    .data(model.marks, (d) => d.key)
    .join((enter) => {
      const rect = enter.append('rect').attr('class', 'flag-mark');
      rect.append('title');
      return rect;
    })
    .attr('x', x0)
    .attr('width', (m) => Math.max(1.5, x1(m) - x0(m)))
    .attr('y', (m) => m.row * stripRow + 1)
    .attr('height', stripRow - 2)
    .style('fill', (m) => color(m.agent))
    .style('fill-opacity', (m) => 0.35 + (0.65 * m.count) / Math.max(1, model.maxCount))
    .select('title')
    .text((m) => m.text);
}
