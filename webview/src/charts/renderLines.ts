import type { ScaleLinear } from 'd3-scale';
import { area, line } from 'd3-shape';
import type { Group } from './chartFrame';
import type { LineChartModel, Series } from './lineModel';
import type { StackLayer } from './shareModel';

type Scale = ScaleLinear<number, number>;

/** One path per series (keyed by series key), gaps where a value is null, stroked in `color(key)`. */
export function drawLines(g: Group, model: LineChartModel, x: Scale, y: Scale, color: (key: string) => string): void {
  const path = line<number | null>()
    .defined((v) => v !== null)
    .x((_, i) => x(model.steps[i] ?? 0))
    .y((v) => y(v ?? 0));
  g.selectAll<SVGPathElement, Series>('path.series')
    .data(model.series, (d) => d.key)
    .join((enter) => enter.append('path').attr('class', 'series'))
    .attr('d', (d) => path(d.values as (number | null)[]) ?? '')
    .attr('data-key', (d) => d.key)
    .style('stroke', (d) => color(d.key));
}

/** One filled band per stacked layer (keyed by agent), filled with `color(agent)`. */
export function drawStack(
  g: Group,
  layers: readonly StackLayer[],
  steps: readonly number[],
  x: Scale,
  y: Scale,
  color: (key: string) => string,
): void {
  const band = area<readonly [number, number]>()
    .x((_, i) => x(steps[i] ?? 0))
    .y0((b) => y(b[0]))
    .y1((b) => y(b[1]));
  g.selectAll<SVGPathElement, StackLayer>('path.layer')
    .data(layers, (d) => d.key)
    .join((enter) => enter.append('path').attr('class', 'layer'))
    .attr('d', (d) => band(d.bands as (readonly [number, number])[]) ?? '')
    .attr('data-key', (d) => d.key)
    .style('fill', (d) => color(d.agent))
    .style('stroke', (d) => color(d.agent));
}
