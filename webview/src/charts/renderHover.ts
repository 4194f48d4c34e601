import type { Group } from './chartFrame';
import type { HoverBin } from './lineModel';

/** A hover column: a bin with its horizontal pixel span. */
export interface HoverSpan {
  readonly key: string;
  readonly x0: number;
  readonly x1: number;
  readonly text: string;
}

/**
 * Pixel spans of `bins` on a step scale `x`: each column reaches halfway to its neighbours, the
 * first starts at 0 and the last ends at `width`.
 */
export function hoverSpans(bins: readonly HoverBin[], x: (step: number) => number, width: number): HoverSpan[] {
  return bins.map((bin, i) => {
    const prev = bins[i - 1];
    const next = bins[i + 1];
    const x0 = prev ? (x(prev.to) + x(bin.from)) / 2 : 0;
    const x1 = next ? (x(bin.to) + x(next.from)) / 2 : width;
    return { key: bin.key, x0: Math.max(0, x0), x1: Math.min(width, Math.max(x0, x1)), text: bin.text };
  });
}

/**
 * Transparent full-height columns carrying each step's values as a `<title>` tooltip (keyed by
 * bin); the column under the pointer gets the class `active` (a faint rule).
 */
export function drawHover(g: Group, spans: readonly HoverSpan[], height: number): void {
  g.selectAll<SVGRectElement, HoverSpan>('rect.hit')
    .data(spans, (d) => d.key)
    .join((enter) => {
      const rect = enter.append('rect').attr('class', 'hit');
      rect.append('title');
      rect.on('pointerenter', function () {
        this.classList.add('active');
      });
      rect.on('pointerleave', function () {
        this.classList.remove('active');
      });
      return rect;
    })
    .attr('x', (d) => d.x0)
    .attr('width', (d) => Math.max(0.5, d.x1 - d.x0))
    .attr('y', 0)
    .attr('height', height)
    .select('title')
    .text((d) => d.text);
}
