import { toolkitTags } from '../components/toolkitTags';
import { h } from '../dom';

// The builders of the toolkit's custom elements (registered by components/toolkit.ts, created here
// by tag name only) for every view. Labels and option texts are text nodes: trace content never
// becomes markup.

/** A toolkit element with a string value (<vscode-dropdown>, <vscode-text-field>). */
export type ValueElement = HTMLElement & { value: string };

/** One choice of a dropdown. */
export interface Choice {
  readonly value: string;
  readonly label: string;
}

/** A toolkit element created by tag name, with the `control` class the views style. */
function toolkit(tag: string): HTMLElement {
  const element = document.createElement(tag);
  element.className = 'control';
  return element;
}

/** `<vscode-dropdown>` named `label` with `choices`, `value` chosen; calls `onChange` with the chosen value. */
export function dropdown(
  label: string,
  choices: readonly Choice[],
  value: string,
  onChange: (value: string) => void,
): ValueElement {
  const element = toolkit(toolkitTags.dropdown) as ValueElement;
  element.setAttribute('aria-label', label);
  setChoices(element, choices, value);
  element.addEventListener('change', () => {
    onChange(element.value);
  });
  return element;
}

/** Replaces the options of a dropdown and selects `value`. */
export function setChoices(element: ValueElement, choices: readonly Choice[], value: string): void {
  const options = choices.map((choice) => {
    const option = document.createElement(toolkitTags.option);
    option.setAttribute('value', choice.value);
    if (choice.value === value) option.setAttribute('selected', '');
    option.append(choice.label);
    return option;
  });
  element.replaceChildren(...options);
  element.value = value;
}

/** `<vscode-text-field>` named `label`; `onInput`, when given, runs on every edit. */
export function textField(label: string, placeholder: string, onInput?: (value: string) => void): ValueElement {
  const element = toolkit(toolkitTags.textField) as ValueElement;
  element.setAttribute('aria-label', label);
  element.setAttribute('placeholder', placeholder);
  if (onInput)
    element.addEventListener('input', () => {
      onInput(element.value);
    });
  return element;
}

/** `<vscode-button>` with a text label and, when given, a tooltip. */
export function button(
  label: string,
  onClick: () => void,
  appearance: 'primary' | 'secondary' = 'secondary',
  title?: string,
): HTMLElement {
  const element = toolkit(toolkitTags.button);
  element.setAttribute('appearance', appearance);
  element.append(label);
  if (title) element.title = title;
  element.addEventListener('click', onClick);
  return element;
}

export function setDisabled(element: HTMLElement, disabled: boolean): void {
  element.toggleAttribute('disabled', disabled);
}

/** `<vscode-progress-ring>`, indeterminate, named `label`. */
export function progressRing(label: string): HTMLElement {
  const ring = toolkit(toolkitTags.progressRing);
  ring.setAttribute('aria-label', label);
  return ring;
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
