import { axisBottom } from 'd3-axis';
import { scaleLinear } from 'd3-scale';
import { chartFrame, layer, prepareSvg } from '../charts/chartFrame';
import { formatCredit } from '../kit/format';
import type { IntervalModel, IntervalRow } from './intervalModel';

const svgNs = 'http://www.w3.org/2000/svg';
/** Each agent: its label line, then its interval below it. */
const rowHeight = 44;

/**
 * The interval chart (a forest plot): per agent the credit difference B − A as a dot, its 95%
 * interval as a bar over a dashed zero mark, and above each the agent's name with the number,
 * interval, p-value and test in words. A blue bar lies wholly above zero, a red one below, a grey
 * one crosses it; an agent the data cannot answer has its label and no mark. Agent names go in as
 * `textContent`, never as markup. The table beside it has the same numbers.
 */
export function renderIntervals(model: IntervalModel, width: number, title: string): SVGSVGElement {
  const svg = document.createElementNS(svgNs, 'svg');
  const frame = chartFrame(width, model.rows.length * rowHeight + 34, { top: 6, right: 16, bottom: 28, left: 16 });
  const root = prepareSvg(svg, frame, title);
  root.attr('class', 'compare-intervals');
  const x = scaleLinear().domain(model.domain).range([0, frame.innerWidth]);
  const plot = layer(root, 'plot', frame.left, frame.top);
  const axis = layer(root, 'axis', frame.left, frame.top + frame.innerHeight);
  axis.attr('aria-hidden', 'true').call(
    axisBottom(x)
      .ticks(Math.max(2, Math.floor(frame.innerWidth / 90)))
      .tickFormat((d) => formatCredit(Number(d)))
      .tickSizeOuter(0),
  );
  plot
    .selectAll<SVGGElement, IntervalRow>('g.interval-row')
    .data(model.rows)
    .join('g')
    .attr('class', (d) => `interval-row verdict-${d.verdict}`)
    .attr('transform', (_, i) => `translate(0,${String(i * rowHeight)})`)
    .each(function (d) {
      drawRow(this, d, x);
    });
  return svg;
}

/** One agent: its label, and (when it has a number) the interval bar and the dot. */
function drawRow(g: SVGGElement, row: IntervalRow, x: (v: number) => number): void {
  const label = document.createElementNS(svgNs, 'text');
  label.setAttribute('class', 'interval-label');
  label.setAttribute('y', '14');
  const name = document.createElementNS(svgNs, 'tspan');
  name.setAttribute('class', 'interval-agent');
  name.textContent = row.agent;
  label.append(name, `  ${row.label}`);
  g.append(label);
  const y = 30;
  // Zero under each row's bar (not across the labels): the reference every interval is read against.
  const zero = document.createElementNS(svgNs, 'line');
  zero.setAttribute('class', 'zero-line');
  for (const [key, value] of [
    ['x1', x(0)],
    ['x2', x(0)],
    ['y1', y - 10],
    ['y2', y + 10],
  ] as const)
    zero.setAttribute(key, String(value));
  g.append(zero);
  if (row.difference === null) return;
  if (row.interval) {
    const bar = document.createElementNS(svgNs, 'line');
    bar.setAttribute('class', 'interval-bar');
    bar.setAttribute('x1', String(x(row.interval[0])));
    bar.setAttribute('x2', String(x(row.interval[1])));
    bar.setAttribute('y1', String(y));
    bar.setAttribute('y2', String(y));
    g.append(bar);
  }
  const dot = document.createElementNS(svgNs, 'circle');
  dot.setAttribute('class', 'interval-dot');
  dot.setAttribute('cx', String(x(row.difference)));
  dot.setAttribute('cy', String(y));
  dot.setAttribute('r', '4');
  g.append(dot);
}
