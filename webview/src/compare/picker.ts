import type { CompareRunChoice, ComparisonRequest } from '../../../src/core/runComparison';
import { isViewMethod } from '../../../src/protocol/viewData';
import { h } from '../dom';
import { button, dropdown, field, setChoices, setDisabled, textField, type ValueElement } from '../kit/controls';
import { formatInt } from '../kit/format';
import { methodLabels } from '../methodLabels';
import { commonMethods, readSide, type PickerSelection, type SideInput } from './pickerModel';

// The Compare view's form: side A and side B (a run and optional steps each), the method both have
// stored, and Compare. Toolkit controls, each labelled; run names are option text (text nodes).

type SideKey = 'a' | 'b';

/** What a run is called in the form: its name (or "(root)"), episodes and steps. */
function runLabel(run: CompareRunChoice): string {
  const steps = run.steps ? `, steps ${formatInt(run.steps.from)}–${formatInt(run.steps.to)}` : ', no steps';
  return `${run.run || '(root)'} (${formatInt(run.episodes)} episodes${steps})`;
}

function methodLabel(method: string): string {
  return isViewMethod(method) ? methodLabels[method] : method;
}

/** The form; calls `onCompare` with a checked request when Compare is pressed. */
export class ComparePicker {
  readonly element: HTMLElement;
  private selection: PickerSelection;
  private readonly methods: ValueElement;
  private readonly error = h('p', 'picker-error');
  private readonly compareButton: HTMLElement;

  constructor(
    private readonly runs: readonly CompareRunChoice[],
    initial: PickerSelection,
    private readonly onCompare: (request: ComparisonRequest) => void,
  ) {
    this.selection = initial;
    this.error.setAttribute('role', 'alert');
    this.methods = dropdown('Credit method', [], '', (value) => {
      this.selection = { ...this.selection, method: value };
      this.check();
    });
    this.methods.classList.add('method-choice');
    this.compareButton = button(
      'Compare',
      () => {
        this.submit();
      },
      'primary',
    );
    this.compareButton.classList.add('compare-button');
    this.element = h(
      'section',
      'compare-picker',
      h('div', 'sides', this.side('a'), this.side('b')),
      h('div', 'toolbar', field('method-label', 'Credit', this.methods), this.compareButton),
      this.error,
    );
    this.element.setAttribute('aria-label', 'What to compare');
    this.fillMethods();
  }

  private side(key: SideKey): HTMLElement {
    const name = key.toUpperCase();
    const input = this.selection[key];
    const choices = this.runs.map((run, i) => ({ value: String(i), label: runLabel(run) }));
    const runs = dropdown(`Run of side ${name}`, choices, String(input.run), (value) => {
      this.update(key, { run: Number(value) });
      this.fillMethods();
    });
    runs.classList.add('run-choice');
    const from = textField(`First step of side ${name}`, 'first', (value) => {
      this.update(key, { from: value });
    });
    const to = textField(`Last step of side ${name}`, 'last', (value) => {
      this.update(key, { to: value });
    });
    from.value = input.from;
    to.value = input.to;
    from.classList.add('step-from');
    to.classList.add('step-to');
    const legend = h('legend', undefined, `Side ${name}`);
    const steps = h('div', 'steps', h('span', 'field-label', 'Steps'), from, h('span', undefined, 'to'), to);
    return h('fieldset', `side side-${key}`, legend, runs, steps);
  }

  private update(key: SideKey, patch: Partial<SideInput>): void {
    this.selection = { ...this.selection, [key]: { ...this.selection[key], ...patch } };
    this.check();
  }

  /** The methods both runs have stored; says so when there is none. */
  private fillMethods(): void {
    const methods = commonMethods(this.runs[this.selection.a.run], this.runs[this.selection.b.run]);
    const method =
      this.selection.method !== null && methods.includes(this.selection.method)
        ? this.selection.method
        : (methods[0] ?? null);
    this.selection = { ...this.selection, method };
    setChoices(
      this.methods,
      methods.map((m) => ({ value: m, label: methodLabel(m) })),
      method ?? '',
    );
    this.check();
  }

  /** The request the form holds, or the sentence that says what is missing. */
  private read(): { readonly request: ComparisonRequest | null; readonly error: string } {
    const { a, b, method } = this.selection;
    const sideA = readSide(this.runs[a.run], a, 'A');
    if (!sideA.ok) return { request: null, error: sideA.error };
    const sideB = readSide(this.runs[b.run], b, 'B');
    if (!sideB.ok) return { request: null, error: sideB.error };
    if (method === null)
      return {
        request: null,
        error:
          'These two runs have no credit method stored on both: run Credit Lens: Recompute Credit… on the one that lacks it.',
      };
    return { request: { a: sideA.side, b: sideB.side, method }, error: '' };
  }

  private check(): void {
    const { error } = this.read();
    this.error.textContent = error;
    this.error.hidden = error === '';
    setDisabled(this.compareButton, error !== '');
  }

  private submit(): void {
    const { request } = this.read();
    if (request) this.onCompare(request);
  }
}
