import { toolkitTags } from '../components/toolkitTags';

// Small builders for the toolkit's custom elements (registered by components/toolkit.ts, created
// here by tag name only) and the attributes the view needs on them.

/** A toolkit element with a `value` (dropdown, text field). */
export type ValueElement = HTMLElement & { value: string };

/** `<vscode-button>` with a text label. */
export function toolkitButton(
  label: string,
  appearance: 'primary' | 'secondary',
  onClick: () => void,
  title?: string,
): HTMLElement {
  const button = document.createElement(toolkitTags.button);
  button.setAttribute('appearance', appearance);
  button.append(label);
  if (title) button.title = title;
  button.addEventListener('click', onClick);
  return button;
}

export function setDisabled(element: HTMLElement, disabled: boolean): void {
  element.toggleAttribute('disabled', disabled);
}

/** `<vscode-dropdown>` of `options` (value, label) with `selected` chosen. */
export function toolkitDropdown(
  options: readonly (readonly [string, string])[],
  selected: string,
  label: string,
  onChange: (value: string) => void,
): ValueElement {
  const dropdown = document.createElement(toolkitTags.dropdown) as ValueElement;
  dropdown.setAttribute('aria-label', label);
  for (const [value, text] of options) {
    const option = document.createElement(toolkitTags.option);
    option.setAttribute('value', value);
    if (value === selected) option.setAttribute('selected', '');
    option.append(text);
    dropdown.append(option);
  }
  dropdown.addEventListener('change', () => {
    onChange(dropdown.value);
  });
  return dropdown;
}

/** `<vscode-text-field>` with a placeholder and an accessible name. */
export function toolkitTextField(placeholder: string, label: string): ValueElement {
  const field = document.createElement(toolkitTags.textField) as ValueElement;
  field.setAttribute('placeholder', placeholder);
  field.setAttribute('aria-label', label);
  return field;
}

/** `<vscode-progress-ring>`, indeterminate. */
export function toolkitProgressRing(): HTMLElement {
  const ring = document.createElement(toolkitTags.progressRing);
  ring.setAttribute('aria-label', 'Recomputing');
  return ring;
}
