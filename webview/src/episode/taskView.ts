import type { EpisodeViewData, PromptView, RawRecordView, RoutingView } from '../../../src/protocol/episodePanel';
import { h } from '../dom';
import { formatInt, formatNumber } from '../kit/format';
import { clippedText, renderValue } from './valueTree';

// The top of the Episode view, as Inspect puts input and target at the top of every sample: the
// task prompt and the ground truth, then the metadata and the routing decision, and the raw record
// one click away. The prompt is read from the trace once per opening; the raw record when first shown.

/** Characters of the prompt shown before "Show all". */
const promptClip = 1200;

/** A value asked of the host: loading, arrived, or failed with a reason. */
type Asked<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'done'; readonly value: T }
  | { readonly state: 'error'; readonly error: string };

/** What the section asks of the host about the shown episode. */
export interface TaskSource {
  prompt(data: EpisodeViewData): Promise<PromptView>;
  rawRecord(data: EpisodeViewData): Promise<RawRecordView>;
}

export class TaskView {
  readonly element = h('section', 'task-section');
  private data: EpisodeViewData | null = null;
  private prompt: Asked<PromptView> | null = null;
  private raw: Asked<RawRecordView> | null = null;
  private readonly open = { metadata: false, raw: false };
  /** Answers for an episode shown before are dropped. */
  private token = 0;

  constructor(private readonly source: TaskSource) {
    this.element.setAttribute('aria-label', 'Task');
  }

  /** A newly opened episode: forgets the last one's prompt and record, and asks for this one's prompt. */
  show(data: EpisodeViewData): void {
    const token = ++this.token;
    this.data = data;
    this.raw = null;
    this.open.raw = false;
    this.prompt = data.readError === null ? { state: 'loading' } : null;
    if (this.prompt) this.ask(token, this.source.prompt(data), (asked) => (this.prompt = asked));
    this.render();
  }

  /** The same episode with new index data (credit, flags): what was read from the trace stays. */
  update(data: EpisodeViewData): void {
    this.data = data;
    this.render();
  }

  /** Keeps the answer to `request` unless another episode was shown since, then redraws (`redraw`, else all). */
  private ask<T>(
    token: number,
    request: Promise<T>,
    keep: (asked: Asked<T>) => void,
    redraw = () => this.render(),
  ): void {
    const settle = (asked: Asked<T>): void => {
      if (token !== this.token) return;
      keep(asked);
      redraw();
    };
    request.then(
      (value) => settle({ state: 'done', value }),
      (error: unknown) => settle({ state: 'error', error: error instanceof Error ? error.message : String(error) }),
    );
  }

  private render(): void {
    const data = this.data;
    if (!data) return;
    const facts = h(
      'dl',
      'task-facts',
      h('dt', undefined, 'Prompt'),
      h('dd', 'task-prompt', ...this.promptContent(data)),
      h('dt', undefined, 'Ground truth'),
      h(
        'dd',
        'task-truth',
        data.groundTruth === null ? h('span', 'placeholder', 'none logged') : renderTruth(data.groundTruth),
      ),
    );
    this.element.replaceChildren(
      h('h2', 'visually-hidden', 'Task'),
      facts,
      ...[renderRouting(data.routing ?? null), this.metadata(data), this.rawRecord(data)].filter(
        (e): e is HTMLElement => e !== null,
      ),
    );
  }

  private promptContent(data: EpisodeViewData): (HTMLElement | string)[] {
    if (data.readError !== null)
      return [h('span', 'task-error', `Unavailable: the trace no longer holds this episode (${data.readError}).`)];
    const prompt = this.prompt;
    if (!prompt || prompt.state === 'loading') return [h('span', 'placeholder', 'Reading the prompt from the trace…')];
    if (prompt.state === 'error')
      return [h('span', 'task-error', `The prompt could not be read back: ${prompt.error}`)];
    const { text, chars, truncated } = prompt.value;
    if (text === null) return [h('span', 'placeholder', 'The trace logs no prompt for this episode.')];
    const shown = [clippedText(text, 'prompt-text', promptClip)];
    if (truncated)
      shown.push(
        h(
          'span',
          'task-note',
          `The first ${formatInt(text.length)} of ${formatInt(chars)} characters; Reveal in trace opens the whole prompt.`,
        ),
      );
    return shown;
  }

  private metadata(data: EpisodeViewData): HTMLElement | null {
    const metadata = data.metadata ?? null;
    const note = data.metadataNote ?? null;
    if (metadata === null && note === null) return null;
    const keys = metadata === null ? 0 : Object.keys(metadata).length;
    return this.collapsible('metadata', `Metadata (${formatInt(keys)} ${keys === 1 ? 'key' : 'keys'})`, () => [
      metadata === null ? h('p', 'task-note', note ?? '') : renderValue(metadata),
    ]);
  }

  private rawRecord(data: EpisodeViewData): HTMLElement {
    const details = this.collapsible('raw', 'Raw record', () => this.rawContent(data, details));
    return details;
  }

  /** The raw record, asked of the host the first time it is shown; `details` is refilled when it arrives. */
  private rawContent(data: EpisodeViewData, details: HTMLElement): HTMLElement[] {
    if (!this.raw) {
      this.raw = { state: 'loading' };
      this.ask(
        this.token,
        this.source.rawRecord(data),
        (asked) => (this.raw = asked),
        () => refill(details, this.rawContent(data, details)),
      );
    }
    const raw = this.raw;
    if (raw.state === 'loading') return [h('p', 'placeholder', 'Reading the record from the trace…')];
    if (raw.state === 'error') return [h('p', 'task-error', `The record could not be read back: ${raw.error}`)];
    const pre = h('pre', 'raw-text', raw.value.text);
    pre.tabIndex = 0;
    pre.setAttribute('aria-label', 'The episode record as logged');
    const size = `${formatInt(raw.value.bytes)} bytes${raw.value.pretty ? ', pretty-printed' : ', as logged'}`;
    return [h('p', 'task-note', raw.value.note === null ? size : `${size}. ${raw.value.note}`), pre];
  }

  /** A `<details>` whose content is built when it opens, and whose open state survives re-rendering. */
  private collapsible(key: keyof TaskView['open'], title: string, content: () => HTMLElement[]): HTMLElement {
    const details = h('details', `task-details task-${key}`, h('summary', undefined, title));
    details.open = this.open[key];
    if (details.open) details.append(...content());
    details.addEventListener('toggle', () => {
      this.open[key] = details.open;
      if (details.open) refill(details, content());
    });
    return details;
  }
}

/** Replaces what follows the `<summary>` of `details`. */
function refill(details: HTMLElement, content: HTMLElement[]): void {
  const summary = details.firstElementChild;
  details.replaceChildren(...(summary ? [summary] : []), ...content);
}

/** Ground truth logged as a JSON object or list (tau-bench's expected actions) as a tree; other text as it is. */
function renderTruth(text: string): HTMLElement {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return renderValue(JSON.parse(trimmed) as unknown);
    } catch {
      // Not JSON after all: shown as text below.
    }
  }
  return clippedText(text, 'answer', promptClip);
}

/** The routing decision: the selected expert, then every expert's probability, most probable first. */
function renderRouting(routing: RoutingView | null): HTMLElement | null {
  if (!routing) return null;
  const behaviour = routing.experts.some((e) => e.behaviourProbability !== null);
  const head = h(
    'tr',
    undefined,
    h('th', undefined, 'Expert'),
    h('th', 'num', 'Probability'),
    ...(behaviour ? [h('th', 'num', 'Behaviour router')] : []),
  );
  const rows = routing.experts.map((expert) => {
    const selected = expert.name === routing.selected;
    const name = h('td', undefined, h('span', 'agent-name', expert.name));
    if (selected) name.append(' ', h('span', 'routing-selected', '✓ selected'));
    const row = h('tr', selected ? 'is-selected' : undefined, name, h('td', 'num', formatNumber(expert.probability)));
    if (behaviour) row.append(h('td', 'num', formatNumber(expert.behaviourProbability)));
    return row;
  });
  return h(
    'div',
    'task-routing',
    h('p', undefined, 'Routing: selected ', h('span', 'agent-name', routing.selected)),
    h('table', 'routing-table', h('thead', undefined, head), h('tbody', undefined, ...rows)),
  );
}
