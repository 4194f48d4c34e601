import { toolkitTags } from '../components/toolkitTags';
import { h } from '../dom';

/** A toolkit element with a string value (<vscode-dropdown>, <vscode-text-field>). */
export type ValueElement = HTMLElement & { value: string };

/** One choice of a dropdown. */
export interface Choice {
  readonly value: string;
  readonly label: string;
}

/** A toolkit element created by tag name (toolkit.ts registers them). */
function toolkit(tag: string, className?: string): HTMLElement {
  const element = document.createElement(tag);
  if (className) element.className = className;
  return element;
}

/** `<vscode-dropdown>` named `label` with `choices`; calls `onChange` with the chosen value. */
export function dropdown(
  label: string,
  choices: readonly Choice[],
  value: string,
  onChange: (value: string) => void,
): ValueElement {
  const element = toolkit(toolkitTags.dropdown, 'control') as ValueElement;
  element.setAttribute('aria-label', label);
  setChoices(element, choices, value);
  element.addEventListener('change', () => {
    onChange(element.value);
  });
  return element;
}

/** Replaces the options of a dropdown and selects `value` (option labels are text nodes). */
export function setChoices(element: ValueElement, choices: readonly Choice[], value: string): void {
  const options = choices.map((choice) => {
    const option = toolkit(toolkitTags.option) as ValueElement;
    option.setAttribute('value', choice.value);
    if (choice.value === value) option.setAttribute('selected', '');
    option.append(choice.label);
    return option;
  });
  element.replaceChildren(...options);
  element.value = value;
}

/** `<vscode-text-field>` named `label`; `onInput` runs on every edit. */
export function textField(label: string, placeholder: string, onInput: (value: string) => void): ValueElement {
  const element = toolkit(toolkitTags.textField, 'control') as ValueElement;
  element.setAttribute('aria-label', label);
  element.setAttribute('placeholder', placeholder);
  element.addEventListener('input', () => {
    onInput(element.value);
  });
  return element;
}

/** `<vscode-button>`; `appearance` primary / secondary / icon. */
export function button(
  label: string,
  onClick: () => void,
  appearance: 'primary' | 'secondary' = 'secondary',
): HTMLElement {
  const element = toolkit(toolkitTags.button, 'control');
  element.setAttribute('appearance', appearance);
  element.append(label);
  element.addEventListener('click', onClick);
  return element;
}

/** A labelled group of controls (the label is visible text, tied by aria-labelledby). */
export function field(id: string, label: string, ...controls: HTMLElement[]): HTMLElement {
  const caption = h('span', 'field-label', label);
  caption.id = id;
  for (const control of controls) if (!control.hasAttribute('aria-label')) control.setAttribute('aria-labelledby', id);
  return h('div', 'field', caption, ...controls);
}

/** Runs `fn` `ms` after the last call (for typed filters). */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): (...args: A) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      fn(...args);
    }, ms);
  };
}
