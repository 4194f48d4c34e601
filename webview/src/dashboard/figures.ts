import { h } from '../dom';

/** A chart card: heading, legend slot, the svg, a caption and an optional footer. */
export interface Figure {
  readonly element: HTMLElement;
  readonly body: HTMLElement;
  readonly svg: SVGSVGElement;
  readonly legend: HTMLElement;
  readonly caption: HTMLElement;
  readonly footer: HTMLElement;
}

/** Creates a chart card `id` titled `title`; the svg is labelled by the caller at render time. */
export function createFigure(id: string, title: string, className = ''): Figure {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', `chart chart-${id}`);
  svg.id = `chart-${id}`;
  const heading = h('h2', 'chart-title', title);
  heading.id = `chart-${id}-title`;
  const legend = h('div', 'chart-legend');
  const body = h('div', 'chart-body');
  body.append(svg);
  const caption = h('figcaption', 'chart-caption');
  const footer = h('div', 'chart-footer');
  const element = h(
    'figure',
    `chart-card ${className}`.trim(),
    h('div', 'chart-head', heading, legend),
    body,
    caption,
    footer,
  );
  element.id = `figure-${id}`;
  element.setAttribute('aria-labelledby', heading.id);
  return { element, body, svg, legend, caption, footer };
}

/** Width available to a figure's svg (0 while hidden). */
export function figureWidth(figure: Figure): number {
  return Math.floor(figure.body.clientWidth);
}
