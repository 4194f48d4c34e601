import type { EvaluatorView, RecomputeProgress } from '../../../src/protocol/episodePanel';
import type { ViewMethod } from '../../../src/protocol/viewData';
import { h } from '../dom';
import { setDisabled, toolkitButton, toolkitProgressRing } from './controls';
import { formatInt, methodLabels } from './format';
import { evaluatorLine } from './status';

export interface RecomputeActions {
  recompute(): void;
  cancel(): void;
}

/** The Recompute action, its progress (ring, bar, done / total, Cancel) and the evaluator it uses. */
export class RecomputeView {
  readonly element: HTMLElement;
  private readonly button: HTMLElement;
  private readonly progress: HTMLElement;
  private readonly fill: HTMLElement;
  private readonly track: HTMLElement;
  private readonly count: HTMLElement;
  private readonly result: HTMLElement;
  private readonly evaluator: HTMLElement;
  private running = false;

  constructor(actions: RecomputeActions) {
    this.button = toolkitButton('Recompute', 'primary', () => {
      if (!this.running) actions.recompute();
    });
    this.button.classList.add('recompute-button');
    this.fill = h('div', 'progress-fill');
    this.track = h('div', 'progress-track', this.fill);
    this.track.setAttribute('role', 'progressbar');
    this.track.setAttribute('aria-label', 'Recompute progress');
    this.track.setAttribute('aria-valuemin', '0');
    this.count = h('span', 'progress-count');
    const cancel = toolkitButton('Cancel', 'secondary', () => actions.cancel(), 'Cancel the recompute');
    cancel.classList.add('recompute-cancel');
    this.progress = h('div', 'recompute-progress', toolkitProgressRing(), this.track, this.count, cancel);
    this.progress.hidden = true;
    this.result = h('span', 'recompute-result');
    this.result.setAttribute('role', 'status');
    this.evaluator = h('p', 'evaluator-line');
    this.element = h(
      'div',
      'recompute',
      h('div', 'recompute-row', this.button, this.progress, this.result),
      this.evaluator,
    );
  }

  get isRunning(): boolean {
    return this.running;
  }

  setMethod(method: ViewMethod): void {
    this.button.title = `Run the credit engine on this episode with ${methodLabels[method]}`;
  }

  setEvaluator(evaluator: EvaluatorView): void {
    const line = evaluatorLine(evaluator);
    this.evaluator.textContent = line.text;
    this.evaluator.classList.toggle('is-warning', line.warning);
  }

  update(progress: RecomputeProgress): void {
    this.running = progress.state === 'running';
    this.progress.hidden = !this.running;
    setDisabled(this.button, this.running);
    const label = methodLabels[progress.method];
    if (this.running) {
      const share = progress.total > 0 ? Math.min(1, progress.done / progress.total) : 0;
      this.fill.style.width = `${String(share * 100)}%`;
      this.track.setAttribute('aria-valuemax', String(Math.max(progress.total, 1)));
      this.track.setAttribute('aria-valuenow', String(progress.done));
      this.count.textContent =
        progress.total > 0 ? `${formatInt(progress.done)} / ${formatInt(progress.total)}` : (progress.message ?? '');
      this.result.textContent = `Recomputing ${label}…`;
      return;
    }
    const outcome =
      progress.state === 'done'
        ? 'Recomputed'
        : progress.state === 'cancelled'
          ? 'Recompute cancelled'
          : 'Recompute failed';
    this.result.textContent = `${outcome} (${label})${progress.message ? `: ${progress.message}` : '.'}`;
    this.result.classList.toggle('is-error', progress.state === 'failed');
  }
}
