import type { EpisodeFilter } from '../../../src/protocol/dashboardPanel';
import { h } from '../dom';
import { button, debounce, dropdown, setChoices, textField, type Choice, type ValueElement } from '../kit/controls';
import { fieldText, parseFilterField, type TextFilterField } from './filterModel';

/** Flag kinds of the audit (credit-methods.md §5), offered by the flag filter. */
export const flagKindChoices: readonly string[] = ['silent', 'idle', 'free-rider', 'dominant', 'decoupling'];

/** Delay between the last keystroke and the table's refetch. */
export const typingDelayMs = 300;

const textFields: readonly { field: TextFilterField; label: string; placeholder: string }[] = [
  { field: 'stepFrom', label: 'Step from', placeholder: 'step ≥' },
  { field: 'stepTo', label: 'Step to', placeholder: 'step ≤' },
  { field: 'group', label: 'Group', placeholder: 'group id' },
  { field: 'rewardMin', label: 'Reward min', placeholder: 'reward ≥' },
  { field: 'rewardMax', label: 'Reward max', placeholder: 'reward ≤' },
];

/** The filters of the episode table; `onChange` gets each change as a patch (null clears a field). */
export class FilterBar {
  readonly element: HTMLElement;
  readonly search: ValueElement;
  private readonly texts = new Map<TextFilterField, ValueElement>();
  private readonly flag: ValueElement;
  private readonly agent: ValueElement;
  private readonly searchError = h('p', 'search-error');
  private readonly fitNotice = h('p', 'filter-notice');
  private agentsSignature = '';

  constructor(private readonly onChange: (patch: EpisodeFilter) => void) {
    const inputs = textFields.map(({ field, label, placeholder }) => this.text(field, label, placeholder));
    this.flag = dropdown('Flag', flagChoices(), allValue, (value) => {
      onChange({ flag: fromChoice(value) });
    });
    this.flag.id = 'filter-flag';
    this.agent = dropdown('Agent', agentChoices([]), allValue, (value) => {
      onChange({ agent: fromChoice(value) });
    });
    this.agent.id = 'filter-agent';
    this.search = this.text('search', 'Search messages (press /)', 'Search messages  /');
    this.search.classList.add('search-field');
    this.searchError.id = 'search-error';
    this.searchError.setAttribute('role', 'alert');
    this.search.setAttribute('aria-describedby', 'search-error');
    const clear = button('Clear filters', () => {
      this.clearAll();
    });
    clear.id = 'clear-filters';
    const row = h('div', 'filter-row', ...inputs, this.flag, this.agent, this.search, clear);
    this.fitNotice.id = 'filter-notice';
    this.fitNotice.setAttribute('role', 'status');
    this.element = h('div', 'filters', row, this.fitNotice, this.searchError);
    this.element.setAttribute('role', 'search');
    this.element.setAttribute('aria-label', 'Episode filters');
  }

  private text(field: TextFilterField, label: string, placeholder: string): ValueElement {
    const apply = debounce((value: string) => {
      const parsed = parseFilterField(field, value);
      element.classList.toggle('invalid', !parsed.ok);
      element.setAttribute('aria-invalid', String(!parsed.ok));
      if (parsed.ok) this.onChange({ [field]: parsed.value });
    }, typingDelayMs);
    const element = textField(label, placeholder, apply);
    element.id = `filter-${field}`;
    this.texts.set(field, element);
    return element;
  }

  private clearAll(): void {
    for (const element of this.texts.values()) element.value = '';
    this.onChange({
      stepFrom: null,
      stepTo: null,
      group: null,
      rewardMin: null,
      rewardMax: null,
      flag: null,
      agent: null,
      search: null,
      agentCredit: null,
    });
  }

  /** Shows `filter` (a field being edited keeps its text) and the run's `agents`. */
  update(filter: EpisodeFilter, agents: readonly string[], kinds: readonly string[]): void {
    for (const [field, element] of this.texts) {
      if (element !== document.activeElement && element.value !== fieldText(filter, field))
        element.value = fieldText(filter, field);
    }
    const agent = toChoice(filter.agent);
    const flag = toChoice(filter.flag);
    const signature = JSON.stringify([agents, kinds]);
    if (signature !== this.agentsSignature) {
      setChoices(this.agent, agentChoices(agents), agent);
      setChoices(this.flag, flagChoices(kinds), flag);
      this.agentsSignature = signature;
    }
    if (this.agent.value !== agent) this.agent.value = agent;
    if (this.flag.value !== flag) this.flag.value = flag;
  }

  /** Says what of the filter did not fit the run shown (a restored or carried-over filter); none hides the notice. */
  setFitNotes(notes: readonly string[]): void {
    this.fitNotice.textContent = notes.length > 0 ? `The filter did not fit this run: ${notes.join('; ')}.` : '';
  }

  /** Shows the host's message when the search query could not run. */
  setSearchError(message: string | null): void {
    this.searchError.textContent = message ? `Search: ${message}` : '';
    this.search.classList.toggle('invalid', message !== null);
    this.search.setAttribute('aria-invalid', String(message !== null));
  }
}

/** Dropdown value of "no filter"; the others are `=` + the filter value, so no trace string can collide with it. */
const allValue = '*';

function toChoice(value: string | null | undefined): string {
  return value === undefined || value === null ? allValue : `=${value}`;
}

function fromChoice(value: string): string | null {
  return value.startsWith('=') ? value.slice(1) : null;
}

function agentChoices(agents: readonly string[]): Choice[] {
  return [{ value: allValue, label: 'Any agent' }, ...agents.map((a) => ({ value: toChoice(a), label: a }))];
}

function flagChoices(extra: readonly string[] = []): Choice[] {
  const kinds = [...flagKindChoices, ...extra.filter((k) => !flagKindChoices.includes(k))];
  return [
    { value: allValue, label: 'All episodes' },
    { value: toChoice('any'), label: 'Any flag' },
    ...kinds.map((k) => ({ value: toChoice(k), label: `Flag: ${k}` })),
  ];
}
