import type { DashboardRun, DashboardRunsData, DashboardViewState } from '../../../src/protocol/dashboardPanel';
import { viewMethods, type ViewMethod } from '../../../src/protocol/viewData';
import { h } from '../dom';
import { formatInt } from '../kit/format';
import { button, dropdown, field, setChoices, type ValueElement } from '../kit/controls';
import { methodLabels } from '../methodLabels';
import type { ChartMode } from './viewState';
import { plural } from '../../../src/core/plural';

export interface ToolbarActions {
  selectRun(runId: number): void;
  selectMethod(method: ViewMethod): void;
  setChart(mode: ChartMode): void;
  recompute(): void;
}

/** The dashboard's header: title, run and method choice, chart mode toggle, Recompute. */
export class Toolbar {
  readonly element: HTMLElement;
  private readonly title = h('h1', 'dashboard-title');
  private readonly facts = h('p', 'run-facts');
  private readonly runs: ValueElement;
  private readonly runField: HTMLElement;
  private readonly method: ValueElement;
  private readonly modes: Record<ChartMode, HTMLElement>;
  private readonly recomputeNote = h('span', 'recompute-note');
  private runsSignature = '';

  constructor(actions: ToolbarActions) {
    this.runs = dropdown('Run', [], '', (value) => {
      actions.selectRun(Number(value));
    });
    this.runs.id = 'run-select';
    this.runField = field('run-label', 'Run', this.runs);
    const methods = viewMethods.map((m) => ({ value: m, label: methodLabels[m] }));
    this.method = dropdown('Credit method', methods, 'loo', (value) => {
      actions.selectMethod(value as ViewMethod);
    });
    this.method.id = 'method-select';
    this.modes = {
      stacked: this.modeButton('stacked', 'Stacked', actions),
      lines: this.modeButton('lines', 'Lines', actions),
    };
    const toggle = h('div', 'segmented', this.modes.stacked, this.modes.lines);
    toggle.setAttribute('role', 'group');
    toggle.setAttribute('aria-label', 'Credit share chart');
    const recompute = button('Recompute credit', () => {
      actions.recompute();
    });
    recompute.id = 'recompute';
    this.recomputeNote.setAttribute('role', 'status');
    const controls = h(
      'div',
      'toolbar-controls',
      this.runField,
      field('method-label', 'Method', this.method),
      field('mode-label', 'Credit share', toggle),
      recompute,
      this.recomputeNote,
    );
    this.element = h('header', 'toolbar', h('div', 'toolbar-heading', this.title, this.facts), controls);
  }

  private modeButton(mode: ChartMode, label: string, actions: ToolbarActions): HTMLElement {
    const element = button(label, () => {
      actions.setChart(mode);
    });
    element.id = `mode-${mode}`;
    return element;
  }

  /** Shows `data`'s runs, the chosen `run` and the UI state. */
  update(data: DashboardRunsData, run: DashboardRun | undefined, state: DashboardViewState): void {
    this.title.textContent = run ? `${data.folderName} · ${run.name || '(root)'}` : data.folderName;
    this.facts.textContent = run ? runFacts(run) : 'No runs in this folder yet.';
    this.runField.hidden = data.runs.length < 2;
    const runChoices = data.runs.map((r) => ({ value: String(r.runId), label: r.name || '(root)' }));
    const selected = run ? String(run.runId) : '';
    const signature = JSON.stringify(runChoices);
    if (signature !== this.runsSignature) setChoices(this.runs, runChoices, selected);
    else if (this.runs.value !== selected) this.runs.value = selected;
    this.runsSignature = signature;
    if (state.method && this.method.value !== state.method) this.method.value = state.method;
    // Routing is offered only for a run that logs a router (kept while it is the chosen method).
    for (const option of this.method.querySelectorAll('[value="routing"]'))
      (option as HTMLElement).hidden = run?.routingLogged === false && state.method !== 'routing';
    for (const mode of ['stacked', 'lines'] as const) {
      const pressed = state.chart === mode;
      this.modes[mode].setAttribute('aria-pressed', String(pressed));
      this.modes[mode].setAttribute('appearance', pressed ? 'primary' : 'secondary');
    }
  }

  /** Says that a recompute was requested (cleared by the next revision). */
  setRecomputing(requested: boolean): void {
    this.recomputeNote.textContent = requested ? 'Recompute requested; the dashboard refreshes when it finishes.' : '';
  }
}

function runFacts(run: DashboardRun): string {
  const steps =
    run.steps.min === null || run.steps.max === null
      ? 'no steps'
      : `steps ${String(run.steps.min)}–${String(run.steps.max)} (${formatInt(run.steps.count)})`;
  const mechanism = run.mechanism ? ` · ${run.mechanism}` : '';
  return `${plural(run.episodes, 'episode')} · ${plural(run.agents.length, 'agent')} · ${steps} · ${plural(run.flags, 'flag')}${mechanism}`;
}
