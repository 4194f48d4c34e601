import { creditPaint } from '../../charts/creditScale';
import { h } from '../../dom';
import type { CreditTint } from '../tint';
import { leftForFraction, minimapCells, windowFraction } from './minimapModel';
import type { BlockGeometry, SwimlaneModel } from './model';

/** Height of one lane's row in the minimap, in px. */
const minimapLanePx = 4;

/**
 * The whole episode in a strip under the lanes: one row per lane, columns tinted by the mean credit
 * of their messages on the view's scale, a tick at the first error, and the window the lanes show. A click or a drag moves the
 * window there (`scrollTo` gets the new `scrollLeft`). For the pointer only: the lanes themselves are
 * the keyboard's way through the episode.
 */
export class Minimap {
  readonly element: HTMLElement;
  private readonly cells: HTMLElement;
  private readonly window: HTMLElement;
  private dragging = false;
  private geometry: BlockGeometry | null = null;

  constructor(
    private readonly viewport: () => { left: number; width: number },
    private readonly scrollTo: (left: number) => void,
  ) {
    this.cells = h('div', 'minimap-cells');
    this.window = h('div', 'minimap-window');
    this.element = h('div', 'lanes-minimap', this.cells, this.window);
    this.element.setAttribute('aria-hidden', 'true');
    this.element.title = 'The whole episode: click or drag to move the lanes there';
    this.element.addEventListener('pointerdown', (event) => {
      this.dragging = true;
      this.element.setPointerCapture(event.pointerId);
      this.moveTo(event);
    });
    this.element.addEventListener('pointermove', (event) => {
      if (this.dragging) this.moveTo(event);
    });
    const stop = (): void => {
      this.dragging = false;
    };
    this.element.addEventListener('pointerup', stop);
    this.element.addEventListener('pointercancel', stop);
  }

  /** Draws the cells of `model` under `tint` (again after every credit change). */
  render(model: SwimlaneModel, geometry: BlockGeometry, tint: CreditTint | null): void {
    this.geometry = geometry;
    this.element.hidden = geometry.fits;
    this.element.style.height = `${String(Math.max(1, model.lanes.length) * minimapLanePx)}px`;
    if (geometry.fits) return;
    const { columns, cells } = minimapCells(model, geometry, (seq) => tint?.value(seq) ?? null);
    const width = 100 / columns;
    this.cells.replaceChildren(
      ...cells.map((cell) => {
        const paint = creditPaint(cell.mean, tint?.bound ?? 1, tint?.unidentified != null);
        const el = h('div', `minimap-cell is-${paint.state}`);
        el.style.left = `${String(cell.column * width)}%`;
        el.style.width = `${String(width)}%`;
        el.style.top = `${String(cell.lane * minimapLanePx)}px`;
        if (paint.color !== null) el.style.backgroundColor = paint.color;
        return el;
      }),
      ...firstErrorMarks(geometry, tint),
    );
    this.update();
  }

  /** Moves the window mark to what the lanes show. */
  update(): void {
    const geometry = this.geometry;
    if (!geometry || geometry.fits) return;
    const { left, width } = this.viewport();
    const shown = windowFraction(left, width, geometry.total);
    this.window.style.left = `${String(shown.start * 100)}%`;
    this.window.style.width = `${String(Math.max(shown.size * 100, 0.5))}%`;
  }

  private moveTo(event: PointerEvent): void {
    const geometry = this.geometry;
    const box = this.element.getBoundingClientRect();
    if (!geometry || box.width <= 0) return;
    const fraction = (event.clientX - box.left) / box.width;
    this.scrollTo(leftForFraction(fraction, this.viewport().width, geometry.total));
  }
}

/** A full-height tick (outlined, not colour alone) where the first error's block starts; none without one. */
function firstErrorMarks(geometry: BlockGeometry, tint: CreditTint | null): HTMLElement[] {
  const seq = tint?.firstError?.message;
  const start = seq === undefined ? undefined : geometry.starts[seq];
  if (start === undefined || !(geometry.total > 0)) return [];
  const mark = h('div', 'minimap-first-error');
  mark.style.left = `${String((start / geometry.total) * 100)}%`;
  return [mark];
}
