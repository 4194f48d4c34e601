import { h } from '../dom';
import { formatInt } from '../kit/format';

// One renderer for the structured values of a trace: metadata, tool arguments and tool results.
// Objects become key / value lists, arrays numbered lists, long strings are clipped with a button
// that shows them whole. Every key and value becomes a text node (never markup).

/** Characters of a string shown before "Show all". */
export const clipChars = 400;
/** Nesting shown as lists; deeper values are shown as JSON text (clipped like any string). */
const maxDepth = 6;
/** Entries of one object or array listed before the rest is summarised. */
const maxEntries = 200;

/** `value` as a readable tree (see the module comment). */
export function renderValue(value: unknown, depth = 0): HTMLElement {
  if (typeof value === 'string') return clippedText(value, 'value-string');
  if (value === null || typeof value !== 'object') return h('span', `value-${typeOf(value)}`, scalarText(value));
  if (depth >= maxDepth) return clippedText(JSON.stringify(value), 'value-json');
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, i): [string, unknown] => [String(i), item])
    : Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return h('span', 'value-empty', Array.isArray(value) ? '[] (empty list)' : '{} (empty)');
  const list = h('dl', Array.isArray(value) ? 'value-tree is-list' : 'value-tree');
  for (const [key, item] of entries.slice(0, maxEntries))
    list.append(h('dt', 'value-key', key), h('dd', 'value-item', renderValue(item, depth + 1)));
  if (entries.length > maxEntries)
    list.append(h('dd', 'value-more', `… ${formatInt(entries.length - maxEntries)} more not shown`));
  return list;
}

/** Text clipped at {@link clipChars} characters, with a button that shows it whole in place. */
export function clippedText(text: string, className: string, clip = clipChars): HTMLElement {
  const span = h('span', className);
  if (text.length <= clip) {
    span.textContent = text === '' ? '""' : text;
    return span;
  }
  const shown = h('span', undefined, `${text.slice(0, clip)}…`);
  const more = h('button', 'link-button value-show-all', `Show all (${formatInt(text.length)} characters)`);
  more.type = 'button';
  more.addEventListener('click', () => {
    span.replaceChildren(text);
  });
  span.append(shown, ' ', more);
  return span;
}

function typeOf(value: unknown): string {
  return value === null ? 'null' : typeof value;
}

function scalarText(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return value.toString();
  return '—';
}
