import type { ScaleLinear } from 'd3-scale';
import type { Group } from './chartFrame';
import { windowClass, type WindowMark } from './windowModel';

/** Height of one label lane above the plot, in px. */
export const laneHeight = 16;

/** Pixel span of a window on the step scale (at least 3 px wide so one-step windows show). */
function span(mark: WindowMark, x: ScaleLinear<number, number>): { x0: number; width: number } {
  const x0 = x(mark.from);
  return { x0: Math.min(x0, x(mark.to) - 1.5), width: Math.max(3, x(mark.to) - x0) };
}

/** Shades each window over the plot (keyed by flag), behind the data. */
export function drawWindowShades(
  g: Group,
  marks: readonly WindowMark[],
  x: ScaleLinear<number, number>,
  height: number,
): void {
  g.selectAll<SVGRectElement, WindowMark>('rect.window')
    .data(marks, (d) => d.key)
    .join((enter) => {
      const rect = enter.append('rect');
      rect.append('title');
      return rect;
    })
    .attr('class', (d) => windowClass(d.kind))
    .attr('x', (d) => span(d, x).x0)
    .attr('width', (d) => span(d, x).width)
    .attr('y', 0)
    .attr('height', height)
    .select('title')
    .text((d) => d.label);
}

/**
 * Labels each window on its lane above the plot (`g` sits at the top of the plot; lanes go up): a
 * bar over the window's steps and the text "kind · agent (steps a–b)", right-aligned when the
 * window starts in the right half.
 */
export function drawWindowLabels(
  g: Group,
  marks: readonly WindowMark[],
  x: ScaleLinear<number, number>,
  width: number,
): void {
  const laneY = (d: WindowMark): number => -(d.lane + 1) * laneHeight;
  const rightAligned = (d: WindowMark): boolean => x(d.from) > width / 2;
  const labels = g
    .selectAll<SVGGElement, WindowMark>('g.window-label')
    .data(marks, (d) => d.key)
    .join((enter) => {
      const label = enter.append('g');
      label.append('rect').attr('class', 'window-bar');
      label.append('text');
      return label;
    })
    .attr('class', (d) => `window-label ${windowClass(d.kind)}`)
    .attr('transform', (d) => `translate(0,${String(laneY(d))})`);
  labels
    .select('rect.window-bar')
    .attr('x', (d) => span(d, x).x0)
    .attr('width', (d) => span(d, x).width)
    .attr('y', laneHeight - 4)
    .attr('height', 3);
  labels
    .select('text')
    .attr('x', (d) => (rightAligned(d) ? Math.min(width, x(d.to)) : Math.max(0, x(d.from))))
    .attr('y', laneHeight - 7)
    .attr('text-anchor', (d) => (rightAligned(d) ? 'end' : 'start'))
    .text((d) => d.label);
}
