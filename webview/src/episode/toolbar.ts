import { viewMethods, type ViewMethod } from '../../../src/protocol/viewData';
import { h } from '../dom';
import { button, dropdown, textField, type ValueElement } from '../kit/controls';
import type { FindDirection } from './find';
import { methodLabels } from '../methodLabels';

/** What the toolbar asks of the view. */
export interface ToolbarActions {
  setMethod(method: ViewMethod): void;
  navigate(direction: 'next' | 'previous'): void;
  reveal(): void;
  /** The find text changed (highlighting). */
  findInput(text: string): void;
  /** Enter in the find field. */
  findNext(text: string, direction: FindDirection): void;
  /** Escape in the find field: back to the messages. */
  leaveFind(): void;
}

/** The method switcher, episode navigation, Reveal in trace and the find field. */
export class Toolbar {
  readonly element: HTMLElement;
  private readonly dropdown: ValueElement;
  private readonly findField: ValueElement;
  private readonly findStatus: HTMLElement;

  constructor(method: ViewMethod, actions: ToolbarActions) {
    const methods = viewMethods.map((m) => ({ value: m, label: methodLabels[m] }));
    this.dropdown = dropdown('Credit method', methods, method, (value) => {
      const next = viewMethods.find((m) => m === value);
      if (next) actions.setMethod(next);
    });
    this.dropdown.classList.add('method-switch');
    this.findField = textField('Find in messages', 'Find in messages ( / )');
    this.findField.classList.add('find-field');
    this.findField.addEventListener('input', () => {
      actions.findInput(this.findField.value);
    });
    this.findField.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        actions.findNext(this.findField.value, event.shiftKey ? 'backward' : 'forward');
      } else if (event.key === 'Escape') {
        event.preventDefault();
        actions.leaveFind();
      }
    });
    this.findStatus = h('span', 'find-status');
    this.findStatus.setAttribute('role', 'status');
    const methodGroup = h('div', 'toolbar-group', h('span', 'toolbar-label', 'Method'), this.dropdown);
    const navGroup = h(
      'div',
      'toolbar-group',
      button('‹ Previous', () => actions.navigate('previous'), 'secondary', 'Previous episode of the run (p)'),
      button('Next ›', () => actions.navigate('next'), 'secondary', 'Next episode of the run (n)'),
      button('Reveal in trace', () => actions.reveal(), 'secondary', 'Open the trace file at this episode’s line'),
    );
    const findGroup = h('div', 'toolbar-group find-group', this.findField, this.findStatus);
    const keys = h('p', 'key-hint', 'Keys: j / k messages · Enter expand · n / p episodes · / find');
    this.element = h('div', 'toolbar', methodGroup, navGroup, findGroup, keys);
  }

  /** Offers the Routing method only when the episode logs a routing decision (keeps it while chosen). */
  offerRouting(logged: boolean): void {
    for (const option of this.dropdown.querySelectorAll('[value="routing"]')) {
      (option as HTMLElement).hidden = !logged && this.dropdown.value !== 'routing';
    }
  }

  setMethod(method: ViewMethod): void {
    if (this.dropdown.value !== method) this.dropdown.value = method;
  }

  /** The find text, lower-cased and trimmed (for highlighting). */
  get query(): string {
    return this.findField.value.trim().toLowerCase();
  }

  focusFind(): void {
    this.findField.focus();
  }

  setFindStatus(text: string): void {
    this.findStatus.textContent = text;
  }
}
