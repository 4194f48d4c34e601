import type { AgentCreditFilter } from '../../../src/protocol/dashboardPanel';
import { h } from '../dom';
import { debounce, dropdown, setChoices, textField, type ValueElement } from '../kit/controls';
import { typingDelayMs } from './filterBar';
import { parseFilterField } from './filterModel';

/** What the chooser changes: the agent columns hidden (by agent name) and the agent-credit filter. */
export interface ChooserActions {
  setHidden(hidden: readonly string[]): void;
  filterCredit(range: AgentCreditFilter | null): void;
}

const noAgent = '';

/**
 * The episode table's column chooser (W&B-style): a checkbox per agent-credit column, and a
 * filter on one agent's credit ("verifier credit ≤ 0.05"). Agent names are text nodes.
 */
export class ColumnChooser {
  readonly element: HTMLElement;
  private readonly boxes = h('div', 'chooser-columns');
  private readonly agent: ValueElement;
  private readonly min: ValueElement;
  private readonly max: ValueElement;
  private signature = '';
  private hidden: readonly string[] = [];

  constructor(private readonly actions: ChooserActions) {
    this.agent = dropdown('Credit filter agent', [{ value: noAgent, label: 'no credit filter' }], noAgent, () => {
      this.applyFilter();
    });
    this.agent.id = 'credit-filter-agent';
    this.min = this.bound('min', 'Credit min', 'credit ≥');
    this.max = this.bound('max', 'Credit max', 'credit ≤');
    const summary = h('summary', 'chooser-summary', 'Agent credit columns');
    const body = h('div', 'chooser-body', this.boxes, this.agent, this.min, this.max);
    this.element = h('details', 'column-chooser', summary, body);
    this.element.id = 'column-chooser';
  }

  private bound(which: 'min' | 'max', label: string, placeholder: string): ValueElement {
    const element = textField(
      label,
      placeholder,
      debounce(() => {
        this.applyFilter();
      }, typingDelayMs),
    );
    element.id = `credit-filter-${which}`;
    return element;
  }

  /** Shows the run's `agents`, the `hidden` ones unchecked, and the current credit filter. */
  update(agents: readonly string[], hidden: readonly string[], filter: AgentCreditFilter | null | undefined): void {
    this.hidden = hidden;
    const signature = JSON.stringify([agents, hidden, filter ?? null]);
    if (signature === this.signature) return;
    this.signature = signature;
    this.boxes.replaceChildren(...agents.map((agent, i) => this.checkbox(agent, i, !hidden.includes(agent))));
    const choices = [{ value: noAgent, label: 'no credit filter' }, ...agents.map((a) => ({ value: a, label: a }))];
    setChoices(this.agent, choices, filter?.agent ?? noAgent);
    if (!filter) this.min.value = this.max.value = '';
  }

  private checkbox(agent: string, index: number, shown: boolean): HTMLElement {
    const box = h('input');
    box.type = 'checkbox';
    box.checked = shown;
    box.id = `show-agent-${String(index)}`;
    box.addEventListener('change', () => {
      const rest = this.hidden.filter((a) => a !== agent);
      this.actions.setHidden(box.checked ? rest : [...rest, agent]);
    });
    const label = h('label', 'chooser-column', box, agent);
    label.title = `Show the column of ${agent}'s credit`;
    return label;
  }

  /** Sends the filter the controls hold; a bound that is not a number marks its field and sends nothing. */
  private applyFilter(): void {
    // The credit bounds parse as the reward bounds do (a finite number, blank for none).
    const min = parseFilterField('rewardMin', this.min.value);
    const max = parseFilterField('rewardMax', this.max.value);
    for (const [element, parsed] of [
      [this.min, min],
      [this.max, max],
    ] as const) {
      element.classList.toggle('invalid', !parsed.ok);
      element.setAttribute('aria-invalid', String(!parsed.ok));
    }
    if (!min.ok || !max.ok) return;
    const agent = this.agent.value;
    this.actions.filterCredit(
      agent === noAgent ? null : { agent, min: min.value as number | null, max: max.value as number | null },
    );
  }
}
