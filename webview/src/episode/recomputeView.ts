import type {
  EvaluatorKind,
  EvaluatorOptionView,
  EvaluatorView,
  RecomputeProgress,
} from '../../../src/protocol/episodePanel';
import type { ViewMethod } from '../../../src/protocol/viewData';
import { h } from '../dom';
import { button, dropdown, progressRing, setDisabled } from '../kit/controls';
import { formatInt } from '../kit/format';
import { methodLabels } from '../methodLabels';
import { evaluatorLine, evaluatorOptionLabel } from './status';
import { plural } from '../../../src/core/plural';

export interface RecomputeActions {
  recompute(): void;
  cancel(): void;
}

/** States in which a recompute is under way (the button is disabled, Cancel is offered). */
const busy: ReadonlySet<RecomputeProgress['state']> = new Set(['estimating', 'confirming', 'running']);

/**
 * The Recompute action, the evaluator menu (when the host offers more than one: e.g. a replay and
 * the checker), the progress (ring, bar, done / total, Cancel; for a replay its estimate, the
 * confirmation the host asks for, then calls, tokens and time) and the evaluator it uses.
 */
export class RecomputeView {
  readonly element: HTMLElement;
  private readonly button: HTMLElement;
  private readonly picker: HTMLElement;
  private readonly progress: HTMLElement;
  private readonly fill: HTMLElement;
  private readonly track: HTMLElement;
  private readonly count: HTMLElement;
  private readonly result: HTMLElement;
  private readonly evaluatorText: HTMLElement;
  private dropdown: HTMLElement | null = null;
  private evaluator: EvaluatorView | null = null;
  private chosen: EvaluatorKind | undefined;
  private method: ViewMethod = 'shared';
  private running = false;

  constructor(actions: RecomputeActions) {
    this.button = button(
      'Recompute',
      () => {
        if (!this.running) actions.recompute();
      },
      'primary',
    );
    this.button.classList.add('recompute-button');
    this.picker = h('span', 'evaluator-pick');
    this.fill = h('div', 'progress-fill');
    this.track = h('div', 'progress-track', this.fill);
    this.track.setAttribute('role', 'progressbar');
    this.track.setAttribute('aria-label', 'Recompute progress');
    this.track.setAttribute('aria-valuemin', '0');
    this.count = h('span', 'progress-count');
    const cancel = button('Cancel', () => actions.cancel(), 'secondary', 'Cancel the recompute');
    cancel.classList.add('recompute-cancel');
    this.progress = h('div', 'recompute-progress', progressRing('Recomputing'), this.track, this.count, cancel);
    this.progress.hidden = true;
    this.result = h('span', 'recompute-result');
    this.result.setAttribute('role', 'status');
    this.evaluatorText = h('p', 'evaluator-line');
    this.element = h(
      'div',
      'recompute',
      h('div', 'recompute-row', this.picker, this.button, this.progress, this.result),
      this.evaluatorText,
    );
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** The evaluator chosen in the menu; undefined when the host offers no choice (it uses its default). */
  get evaluatorKind(): EvaluatorKind | undefined {
    return (this.evaluator?.options?.length ?? 0) > 1 ? this.chosen : undefined;
  }

  setMethod(method: ViewMethod): void {
    this.method = method;
    this.renderTitle();
  }

  /** The evaluators the host offers: the menu keeps the user's pick while it is still offered. */
  setEvaluator(evaluator: EvaluatorView): void {
    const options = evaluator.options ?? [];
    const sameMenu = sameKinds(options, this.evaluator?.options ?? []);
    this.evaluator = evaluator;
    if (!options.some((o) => o.kind === this.chosen)) this.chosen = options[0]?.kind;
    if (!sameMenu) this.renderPicker(options);
    this.renderLine();
    this.renderTitle();
  }

  update(progress: RecomputeProgress): void {
    this.running = busy.has(progress.state);
    this.element.dataset['state'] = progress.state;
    this.progress.hidden = !this.running;
    setDisabled(this.button, this.running);
    if (this.dropdown) setDisabled(this.dropdown, this.running);
    this.result.classList.toggle('is-error', progress.state === 'failed');
    if (this.running) this.showRunning(progress);
    else this.result.textContent = outcomeText(progress);
  }

  private showRunning(progress: RecomputeProgress): void {
    const share = progress.total > 0 ? Math.min(1, progress.done / progress.total) : 0;
    this.fill.style.width = `${String(share * 100)}%`;
    this.track.setAttribute('aria-valuemax', String(Math.max(progress.total, 1)));
    this.track.setAttribute('aria-valuenow', String(progress.done));
    const label = methodLabels[progress.method];
    if (progress.state === 'estimating') {
      this.count.textContent = '';
      this.result.textContent = progress.message ?? 'Estimating the replay…';
    } else if (progress.state === 'confirming') {
      this.count.textContent = '';
      this.result.textContent = `Waiting for your confirmation in the dialog: ${progress.message ?? 'replay?'}`;
    } else if (progress.unit === 'calls') {
      this.count.textContent = progress.message ?? plural(progress.done, 'call');
      this.result.textContent = `Replaying ${label} on ${progress.replay ?? 'the model server'}…`;
    } else {
      this.count.textContent =
        progress.total > 0 ? `${formatInt(progress.done)} / ${formatInt(progress.total)}` : (progress.message ?? '');
      this.result.textContent = `Recomputing ${label}…`;
    }
  }

  private renderPicker(options: readonly EvaluatorOptionView[]): void {
    this.dropdown = null;
    if (options.length < 2) {
      this.picker.replaceChildren();
      return;
    }
    const choices = options.map((o) => ({ value: o.kind, label: evaluatorOptionLabel(o) }));
    const switcher = dropdown('Evaluator', choices, this.chosen ?? '', (value) => {
      this.chosen = options.find((o) => o.kind === value)?.kind ?? this.chosen;
      this.renderLine();
      this.renderTitle();
    });
    switcher.classList.add('evaluator-switch');
    this.dropdown = switcher;
    this.picker.replaceChildren(switcher);
  }

  private chosenOption(): EvaluatorOptionView | undefined {
    return this.evaluator?.options?.find((o) => o.kind === this.chosen);
  }

  private renderLine(): void {
    if (!this.evaluator) return;
    const line = evaluatorLine(this.evaluator, this.chosenOption());
    this.evaluatorText.textContent = line.text;
    this.evaluatorText.classList.toggle('is-warning', line.warning);
  }

  private renderTitle(): void {
    const option = this.chosenOption();
    const by = option?.kind === 'replay' ? ` by ${option.description}` : '';
    this.button.title = `Run the credit engine on this episode with ${methodLabels[this.method]}${by}`;
  }
}

function sameKinds(a: readonly EvaluatorOptionView[], b: readonly EvaluatorOptionView[]): boolean {
  return a.length === b.length && a.every((o, i) => o.kind === b[i]?.kind && o.description === b[i].description);
}

/** The line after a recompute ended: `Recomputed (LOO): …`, `Replay failed (LOO): …`. */
function outcomeText(progress: RecomputeProgress): string {
  const replayed = progress.replay !== undefined && progress.replay !== null;
  const outcome =
    progress.state === 'done'
      ? 'Recomputed'
      : progress.state === 'cancelled'
        ? 'Recompute cancelled'
        : replayed
          ? 'Replay failed'
          : 'Recompute failed';
  const label = methodLabels[progress.method];
  return `${outcome} (${label})${progress.message ? `: ${progress.message}` : '.'}`;
}
