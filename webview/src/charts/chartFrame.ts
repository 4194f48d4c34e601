import { axisBottom, axisLeft } from 'd3-axis';
import type { ScaleBand, ScaleLinear } from 'd3-scale';
import { select, type Selection } from 'd3-selection';
import { thinTicks } from './stepBins';

/** Outer size of a chart and its plot area inside the margins. */
export interface Frame {
  readonly width: number;
  readonly height: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly left: number;
  readonly innerWidth: number;
  readonly innerHeight: number;
}

export type Margins = Pick<Frame, 'top' | 'right' | 'bottom' | 'left'>;

/** A frame of `width` × `height` with `margins`; the plot area is at least 10 × 10 px. */
export function chartFrame(width: number, height: number, margins: Margins): Frame {
  const innerWidth = Math.max(10, width - margins.left - margins.right);
  const innerHeight = Math.max(10, height - margins.top - margins.bottom);
  return {
    ...margins,
    width: innerWidth + margins.left + margins.right,
    height: innerHeight + margins.top + margins.bottom,
    innerWidth,
    innerHeight,
  };
}

export type Svg = Selection<SVGSVGElement, unknown, null, undefined>;
export type Group = Selection<SVGGElement, unknown, null, undefined>;

/** Sizes `svg`, gives it the image role and `label` as its accessible name, and returns it selected. */
export function prepareSvg(svg: SVGSVGElement, frame: Frame, label: string): Svg {
  return select(svg)
    .attr('width', frame.width)
    .attr('height', frame.height)
    .attr('viewBox', `0 0 ${String(frame.width)} ${String(frame.height)}`)
    .attr('role', 'img')
    .attr('aria-label', label);
}

/**
 * The `<g class="className">` child of `parent` (created once, found again by all its class
 * names), moved to `(x, y)`. Layers are created in drawing order, so later ones paint on top.
 */
export function layer(parent: Svg | Group, className: string, x = 0, y = 0): Group {
  const node = parent.node();
  const names = className.split(' ').filter(Boolean);
  if (!node) throw new Error('layer(): empty selection');
  let g = Array.from(node.children).find(
    (c): c is SVGGElement => c.localName === 'g' && names.every((n) => c.classList.contains(n)),
  );
  if (!g) {
    g = node.ownerDocument.createElementNS('http://www.w3.org/2000/svg', 'g');
    g.setAttribute('class', className);
    node.append(g);
  }
  return select(g).attr('transform', `translate(${String(x)},${String(y)})`);
}

/** Whole-step tick values of a linear step scale, about one per `spacing` px. */
export function stepTickValues(x: ScaleLinear<number, number>, innerWidth: number, spacing = 70): number[] {
  const ticks = x.ticks(Math.max(2, Math.floor(innerWidth / spacing))).filter(Number.isInteger);
  return ticks.length > 0 ? ticks : x.domain().map(Math.round);
}

/** Draws the bottom step axis of a line chart. */
export function drawStepAxis(g: Group, x: ScaleLinear<number, number>, frame: Frame): void {
  g.attr('aria-hidden', 'true');
  g.call(
    axisBottom(x)
      .tickValues(stepTickValues(x, frame.innerWidth))
      .tickFormat((d) => String(d))
      .tickSizeOuter(0),
  );
}

/** Draws the bottom axis of a band scale of step columns, ticks thinned to one per `spacing` px. */
export function drawBandAxis(
  g: Group,
  x: ScaleBand<number>,
  labels: (col: number) => string,
  frame: Frame,
  spacing = 70,
): void {
  const ticks = thinTicks(x.domain(), Math.max(2, Math.floor(frame.innerWidth / spacing)));
  g.attr('aria-hidden', 'true');
  g.call(
    axisBottom(x)
      .tickValues(ticks)
      .tickFormat((d) => labels(d))
      .tickSizeOuter(0),
  );
}

/** Draws a left value axis with about `count` ticks and faint grid lines across the plot. */
export function drawValueAxis(
  g: Group,
  y: ScaleLinear<number, number>,
  frame: Frame,
  format: (v: number) => string,
  count = 4,
): void {
  g.attr('aria-hidden', 'true');
  g.call(
    axisLeft(y)
      .ticks(count)
      .tickFormat((d) => format(Number(d)))
      .tickSize(-frame.innerWidth)
      .tickSizeOuter(0),
  );
  g.selectAll('.tick line').classed('grid', true);
}
