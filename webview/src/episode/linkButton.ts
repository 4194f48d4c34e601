import { h } from '../dom';

/** A native text button styled as a link (for dense places such as table cells and notes). */
export function linkButton(label: string, onClick: () => void, title?: string): HTMLButtonElement {
  const button = h('button', 'link-button', label);
  button.type = 'button';
  if (title) button.title = title;
  button.addEventListener('click', onClick);
  return button;
}
