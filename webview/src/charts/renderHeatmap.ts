import { brushX, type BrushBehavior, type D3BrushEvent } from 'd3-brush';
import { scaleBand } from 'd3-scale';
import { chartFrame, drawBandAxis, layer, prepareSvg, type Frame, type Group } from './chartFrame';
import type { CreditPaint } from './creditScale';
import { columnSteps, columnsInPixels, type HeatCell, type HeatmapModel } from './heatmapModel';

/** Height of one agent's row, in px: taller for few agents, at least 16 px. */
function rowHeight(agents: number): number {
  return Math.max(16, Math.min(40, Math.floor(160 / Math.max(1, agents))));
}

export interface HeatmapOptions {
  readonly width: number;
  readonly label: string;
  /** Columns `[first, last]` shown as brushed (from the table's step filter), or undefined. */
  readonly selected: readonly [number, number] | undefined;
  /** The user brushed a step range (undefined: the brush was cleared). */
  readonly onBrush: (range: { stepFrom: number; stepTo: number } | undefined) => void;
}

interface BrushHolder {
  __creditLensBrush?: { brush: BrushBehavior<unknown>; options: HeatmapOptions; model: HeatmapModel; frame: Frame };
}

/** Id of the hatch pattern of not-identifiable cells (one heatmap per document). */
export const unidentifiedPatternId = 'credit-lens-unidentified';

/** The classes of a cell: its state (`empty` for no credit), and `beyond` for a clamped value. */
function cellClass(paint: CreditPaint): string {
  const state = paint.state === 'none' ? 'empty' : paint.state;
  return `cell ${state}${paint.beyond ? ' beyond' : ''}`;
}

/**
 * Renders the step × agent heatmap of mean credit (cells keyed by agent and step bin, coloured on
 * the run's fixed domain, classed by state: `zero`, `empty` (no credit), `unidentified` (hatched),
 * `beyond`) with a horizontal brush over the steps: a finished brush snaps to whole columns and
 * reports their step range.
 */
export function renderHeatmap(svg: SVGSVGElement, model: HeatmapModel, o: HeatmapOptions): void {
  const frame = chartFrame(o.width, model.agents.length * rowHeight(model.agents.length) + 30, {
    top: 6,
    right: 14,
    bottom: 24,
    left: 72,
  });
  const root = prepareSvg(svg, frame, o.label);
  const plot = layer(root, 'plot', frame.left, frame.top);
  const x = scaleBand<number>()
    .domain(model.columns.map((c) => c.index))
    .range([0, frame.innerWidth])
    .padding(0);
  const y = scaleBand<number>()
    .domain(model.agents.map((_, i) => i))
    .range([0, frame.innerHeight])
    .paddingInner(0.08);
  ensureHatch(svg);
  layer(plot, 'cells')
    .selectAll<SVGRectElement, HeatCell>('rect.cell')
    .data(model.cells, (d) => d.key)
    .join((enter) => {
      const rect = enter.append('rect');
      rect.append('title');
      return rect;
    })
    .attr('class', (d) => cellClass(d.paint))
    .attr('x', (d) => x(d.col) ?? 0)
    .attr('width', x.bandwidth() >= 8 ? x.bandwidth() - 1 : x.bandwidth() + 0.35)
    .attr('y', (d) => y(d.row) ?? 0)
    .attr('height', y.bandwidth())
    .style('fill', (d) => d.paint.color)
    .select('title')
    .text((d) => d.text);
  drawRowLabels(layer(plot, 'row-labels'), model.agents, (i) => (y(i) ?? 0) + y.bandwidth() / 2);
  drawBandAxis(layer(plot, 'axis axis-x', 0, frame.innerHeight), x, (i) => String(model.columns[i]?.from ?? ''), frame);
  drawBrush(layer(plot, 'brush'), model, frame, o);
}

/** The hatch of not-identifiable cells, defined once in the svg; its lines are coloured by CSS. */
function ensureHatch(svg: SVGSVGElement): void {
  // Found by class: an id lookup misses a pattern the document has not indexed yet (jsdom).
  if (svg.querySelector('pattern.hatch')) return;
  const ns = 'http://www.w3.org/2000/svg';
  const defs = svg.ownerDocument.createElementNS(ns, 'defs');
  const pattern = svg.ownerDocument.createElementNS(ns, 'pattern');
  pattern.id = unidentifiedPatternId;
  pattern.setAttribute('class', 'hatch');
  pattern.setAttribute('patternUnits', 'userSpaceOnUse');
  pattern.setAttribute('width', '5');
  pattern.setAttribute('height', '5');
  pattern.setAttribute('patternTransform', 'rotate(45)');
  const line = svg.ownerDocument.createElementNS(ns, 'line');
  line.setAttribute('y2', '5');
  pattern.append(line);
  defs.append(pattern);
  svg.prepend(defs);
}

function drawRowLabels(g: Group, agents: readonly string[], yMid: (i: number) => number): void {
  const labels = g
    .selectAll<SVGGElement, string>('g.row-label')
    .data(agents, (d) => d)
    .join((enter) => {
      const label = enter.append('g').attr('class', 'row-label');
      label.append('title');
      label.append('text').attr('x', -6).attr('dy', '0.32em').attr('text-anchor', 'end');
      return label;
    })
    .attr('transform', (_, i) => `translate(0,${String(yMid(i))})`);
  labels.select('title').text((d) => d);
  labels.select('text').text((d) => (d.length > 11 ? `${d.slice(0, 10)}…` : d));
}

function drawBrush(g: Group, model: HeatmapModel, frame: Frame, o: HeatmapOptions): void {
  const node: (SVGGElement & BrushHolder) | null = g.node();
  if (!node) return;
  const state = node.__creditLensBrush ?? { brush: brushX(), options: o, model, frame };
  Object.assign(state, { options: o, model, frame });
  node.__creditLensBrush = state;
  state.brush.extent([
    [0, 0],
    [frame.innerWidth, frame.innerHeight],
  ]);
  state.brush.on('end', (event: D3BrushEvent<unknown>) => {
    if (!event.sourceEvent) return;
    onBrushEnd(g, state, event.selection as [number, number] | null);
  });
  g.call(state.brush);
  const cw = frame.innerWidth / Math.max(1, model.columns.length);
  state.brush.move(g, o.selected ? [o.selected[0] * cw, (o.selected[1] + 1) * cw] : null);
}

function onBrushEnd(
  g: Group,
  state: NonNullable<BrushHolder['__creditLensBrush']>,
  selection: [number, number] | null,
): void {
  const { model, frame, options, brush } = state;
  const columns = selection ? columnsInPixels(model.columns.length, frame.innerWidth, selection) : undefined;
  const range = columns ? columnSteps(model.columns, columns) : undefined;
  if (columns) {
    const cw = frame.innerWidth / Math.max(1, model.columns.length);
    brush.move(g, [columns[0] * cw, (columns[1] + 1) * cw]);
  }
  options.onBrush(range);
}
