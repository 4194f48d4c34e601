import {
  timelineFlags,
  type EpisodeViewData,
  type LabelView,
  type TimelineView,
} from '../../../../src/protocol/episodePanel';
import type { EpisodeRef } from '../../../../src/protocol/viewData';
import { h } from '../../dom';
import { plural } from '../../../../src/core/plural';
import { paintTint } from '../row';
import type { CreditTint } from '../tint';
import { blockText, labelText, sizingNote } from './blockText';
import { Minimap } from './minimap';
import {
  blockGeometry,
  moveFrom,
  scrollLeftFor,
  swimlaneModel,
  visibleBlocks,
  type BlockGeometry,
  type LaneMove,
  type SwimlaneModel,
} from './model';

/** Height of a lane, in px (the labels share it through `--lane-height`). */
export const laneHeightPx = 22;
/** Blocks drawn left and right of the viewport, in px. */
const overscanPx = 400;

const keyMoves: Readonly<Record<string, LaneMove>> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
  Home: 'first',
  End: 'last',
};

/** What the swimlanes ask of the Episode view. */
export interface SwimlaneHost {
  /** The per-message summary of the episode (GetTimelineRequest). */
  fetch(ref: EpisodeRef): Promise<TimelineView>;
  /** Scrolls the message list to `seq` and selects it. */
  open(seq: number): void;
}

/**
 * The swimlane timeline of the Episode view (docs/architecture.md §3.5): one lane per agent
 * of the roster, each message a block sized by its tokens and tinted by its credit, labelled
 * messages marked, and a minimap when the episode is wider than the view. Only the blocks in view
 * (plus overscan and the current block) are in the DOM. One tab stop: arrow keys move between
 * blocks and lanes, Home / End to the first / last message, Enter opens the message in the list.
 */
export class Swimlanes {
  readonly element: HTMLElement;
  private readonly labelsColumn = h('div', 'lane-labels');
  private readonly viewport = h('div', 'lanes-viewport');
  private readonly track = h('div', 'lanes-track');
  private readonly note = h('p', 'lanes-note');
  private readonly minimap: Minimap;
  private readonly blocks = new Map<number, HTMLElement>();
  private readonly resizeObserver: ResizeObserver;
  private model: SwimlaneModel | null = null;
  private geometry: BlockGeometry | null = null;
  private timeline: TimelineView = { authors: [], tokens: [], flags: [] };
  private tint: CreditTint | null = null;
  private labels: ReadonlyMap<number, readonly LabelView[]> = new Map();
  private current = 0;
  private frame = 0;
  private token = 0;
  private width = 0;
  private shownKey = '';

  constructor(private readonly host: SwimlaneHost) {
    this.track.setAttribute('role', 'presentation');
    this.viewport.append(this.track);
    this.viewport.tabIndex = 0;
    this.viewport.setAttribute('role', 'listbox');
    this.viewport.setAttribute('aria-label', 'Swimlanes');
    this.minimap = new Minimap(
      () => ({ left: this.viewport.scrollLeft, width: this.viewport.clientWidth }),
      (left) => {
        this.viewport.scrollLeft = left;
      },
    );
    // Collapsible: in a short panel the message list needs the height more than the lanes do.
    const details = h(
      'details',
      'swimlanes',
      h('summary', 'swimlanes-title', 'Swimlanes'),
      h('div', 'lanes-body', this.labelsColumn, this.viewport),
      this.minimap.element,
      this.note,
    );
    details.open = true;
    this.element = details;
    this.element.setAttribute('aria-label', 'Swimlanes: one lane per agent');
    this.element.style.setProperty('--lane-height', `${String(laneHeightPx)}px`);
    this.viewport.addEventListener('scroll', () => this.schedule(), { passive: true });
    this.viewport.addEventListener('keydown', (event) => this.onKey(event));
    this.track.addEventListener('click', (event) => this.onClick(event));
    this.resizeObserver = new ResizeObserver(() => this.onResize());
    this.resizeObserver.observe(this.viewport);
  }

  /** Shows `data`'s episode: asks the host for its timeline; `current` is the list's current message. */
  show(data: EpisodeViewData, current: number): void {
    const token = ++this.token;
    this.current = current;
    // The same episode again (the index changed): the lanes stay until the new timeline replaces them.
    const key = `${data.ref.folder}\u0000${String(data.ref.episodeId)}`;
    if (key !== this.shownKey || !this.model) this.setStatus('Loading the swimlanes…');
    this.shownKey = key;
    this.host.fetch(data.ref).then(
      (timeline) => {
        if (token === this.token) this.setTimeline(data, timeline);
      },
      (error: unknown) => {
        if (token === this.token)
          this.setStatus(`Could not load the swimlanes: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  }

  setTint(tint: CreditTint | null): void {
    this.tint = tint;
    for (const [seq, el] of this.blocks) this.paint(el, seq);
    if (this.model && this.geometry) this.minimap.render(this.model, this.geometry, tint);
  }

  setLabels(labels: ReadonlyMap<number, readonly LabelView[]>): void {
    this.labels = labels;
    for (const [seq, el] of this.blocks) this.paint(el, seq);
  }

  /** The list's current message changed: mark its block, in view. */
  follow(seq: number): void {
    if (seq === this.current) return;
    if (this.model) this.setCurrent(seq);
    else this.current = seq;
  }

  dispose(): void {
    this.resizeObserver.disconnect();
    if (this.frame) cancelAnimationFrame(this.frame);
    this.token++;
  }

  private setTimeline(data: EpisodeViewData, timeline: TimelineView): void {
    const model = swimlaneModel(data.agents, timeline);
    this.model = model;
    this.timeline = timeline;
    this.current = Math.max(0, Math.min(model.count - 1, this.current));
    this.labelsColumn.replaceChildren(...model.lanes.map((lane) => laneLabel(lane.name, lane.silent)));
    this.track.style.height = `${String(model.lanes.length * laneHeightPx)}px`;
    this.track.replaceChildren(...model.lanes.map((lane, i) => laneRow(i, lane.silent)));
    this.blocks.clear();
    this.viewport.setAttribute(
      'aria-label',
      `Swimlanes: ${plural(model.lanes.length, 'lane')}, ${plural(model.count, 'message')}; arrow keys move between blocks and lanes, Enter opens the message`,
    );
    this.note.textContent = sizingNote(model);
    this.width = 0;
    this.onResize();
  }

  private setStatus(text: string): void {
    this.model = null;
    this.geometry = null;
    this.blocks.clear();
    this.viewport.removeAttribute('aria-activedescendant');
    this.labelsColumn.replaceChildren();
    this.track.replaceChildren();
    this.track.style.removeProperty('width');
    this.track.style.removeProperty('height');
    this.note.textContent = text;
  }

  private onResize(): void {
    const width = this.viewport.clientWidth;
    if (!this.model || width === this.width || width <= 0) return;
    this.width = width;
    this.geometry = blockGeometry(this.model.units, width);
    this.track.style.width = `${String(this.geometry.total)}px`;
    for (const [seq, el] of this.blocks) place(el, seq, this.model, this.geometry);
    this.minimap.render(this.model, this.geometry, this.tint);
    this.reveal(this.current);
    this.draw();
  }

  private schedule(): void {
    this.frame ||= requestAnimationFrame(() => this.draw());
  }

  /** Draws the blocks in view (and the current one), reusing the elements of blocks still in view. */
  private draw(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    const { model, geometry } = this;
    if (!model || !geometry) return;
    const range = visibleBlocks(geometry, this.viewport.scrollLeft, this.viewport.clientWidth, overscanPx);
    const inView = (seq: number): boolean => range !== null && seq >= range.first && seq <= range.last;
    const spare: HTMLElement[] = [];
    for (const [seq, el] of this.blocks)
      if (!inView(seq) && seq !== this.current) {
        this.blocks.delete(seq);
        spare.push(el);
      }
    const wanted = range ? [this.current, ...seqRange(range.first, range.last)] : [];
    for (const seq of wanted) {
      if (seq < 0 || seq >= model.count || this.blocks.has(seq)) continue;
      const el = spare.pop() ?? this.newBlock();
      this.blocks.set(seq, el);
      place(el, seq, model, geometry);
      this.paint(el, seq);
    }
    for (const el of spare) el.remove();
    this.minimap.update();
  }

  private newBlock(): HTMLElement {
    const el = h('div', 'lane-block');
    el.setAttribute('role', 'option');
    this.track.append(el);
    return el;
  }

  private paint(el: HTMLElement, seq: number): void {
    if (!this.model) return;
    const labels = this.labels.get(seq) ?? [];
    paintTint(el, seq, this.tint);
    el.classList.toggle('has-label', labels.length > 0);
    el.dataset['label'] = labels.map(labelText).join(', ');
    const current = seq === this.current;
    el.classList.toggle('is-current', current);
    el.setAttribute('aria-selected', String(current));
    const flags = this.timeline.flags[seq] ?? 0;
    el.classList.toggle('is-tool', (flags & (timelineFlags.toolCall | timelineFlags.toolResult)) !== 0);
    const message = { tokens: this.timeline.tokens[seq] ?? null, flags };
    const text = blockText(this.model, seq, message, this.tint, labels);
    el.title = text;
    el.setAttribute('aria-label', text);
    if (current) this.viewport.setAttribute('aria-activedescendant', el.id);
  }

  private setCurrent(seq: number): void {
    const previous = this.blocks.get(this.current);
    this.current = seq;
    if (previous) this.paint(previous, Number(previous.dataset['seq']));
    this.reveal(seq);
    this.draw();
    const el = this.blocks.get(seq);
    if (el) this.paint(el, seq);
  }

  private reveal(seq: number): void {
    if (!this.geometry) return;
    const left = scrollLeftFor(this.geometry, seq, this.viewport.scrollLeft, this.viewport.clientWidth);
    if (left !== this.viewport.scrollLeft) this.viewport.scrollLeft = left;
  }

  private onKey(event: KeyboardEvent): void {
    if (!this.model || event.ctrlKey || event.metaKey || event.altKey) return;
    const move = keyMoves[event.key];
    if (move) {
      event.preventDefault();
      this.setCurrent(moveFrom(this.model, this.current, move));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      this.host.open(this.current);
    }
  }

  private onClick(event: MouseEvent): void {
    const block = (event.target as Element | null)?.closest<HTMLElement>('.lane-block');
    const seq = Number(block?.dataset['seq']);
    if (!block || !Number.isInteger(seq)) return;
    this.setCurrent(seq);
    this.host.open(seq);
  }
}

function place(el: HTMLElement, seq: number, model: SwimlaneModel, geometry: BlockGeometry): void {
  const start = geometry.starts[seq] ?? 0;
  el.id = `lane-block-${String(seq)}`;
  el.dataset['seq'] = String(seq);
  el.dataset['lane'] = String(model.laneOf[seq] ?? 0);
  el.style.left = `${String(start)}px`;
  el.style.width = `${String((geometry.starts[seq + 1] ?? start) - start)}px`;
  el.style.top = `${String((model.laneOf[seq] ?? 0) * laneHeightPx)}px`;
}

function laneLabel(name: string, silent: boolean): HTMLElement {
  const label = h('div', `lane-label${silent ? ' is-silent' : ''}`, h('span', 'lane-name', name));
  if (silent) label.append(h('span', 'lane-silent', ' (silent)'));
  label.title = silent ? `${name}: no messages in this episode` : name;
  return label;
}

function laneRow(index: number, silent: boolean): HTMLElement {
  const row = h('div', `lane-row${silent ? ' is-silent' : ''}`);
  row.setAttribute('aria-hidden', 'true');
  row.style.top = `${String(index * laneHeightPx)}px`;
  return row;
}

function seqRange(first: number, last: number): number[] {
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
}
