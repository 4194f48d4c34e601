/** A child of {@link h}: an element, or text that becomes a text node (never parsed as HTML). */
export type Child = Node | string;

/**
 * Creates `<tag class="className">` with `children`. Strings become text nodes, so trace content
 * (agent names, file names, reasons) can never inject markup.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (className) element.className = className;
  element.append(...children);
  return element;
}

/** Replaces all children of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren(...children);
}
