import type { EpisodeTable } from './episodeTable';
import { keyAction, type KeyAction } from './keys';

/** Tags where letters are typed or chosen, so `/` and `j`/`k` are left alone. */
const fieldTags = new Set(['input', 'textarea', 'select', 'vscode-text-field', 'vscode-dropdown', 'vscode-text-area']);

function isField(element: Element | null): boolean {
  return (
    element !== null &&
    (fieldTags.has(element.localName) || (element instanceof HTMLElement && element.isContentEditable))
  );
}

/**
 * The dashboard's keyboard: `/` focuses `search`; `j`/`k` (and, on the table, arrows, Page Up/Down,
 * Home/End) move the row focus; Enter on the table opens the focused episode; Tab on the table moves
 * to the focused row's Group link (Enter opens the group) and Shift+Tab back; Escape or Enter in the
 * search goes back to the table.
 */
export function bindKeys(doc: Document, search: HTMLElement, table: EpisodeTable): void {
  doc.addEventListener('keydown', (event) => {
    const active = doc.activeElement;
    if (event.key === 'Tab' && tabInTable(event.shiftKey, active, table)) {
      event.preventDefault();
      return;
    }
    const action = keyAction({
      key: event.key,
      ctrlKey: event.ctrlKey,
      metaKey: event.metaKey,
      altKey: event.altKey,
      inField: isField(active),
      inSearch: active === search,
      inTable: active === table.grid,
    });
    if (!action) return;
    event.preventDefault();
    run(action, search, table);
  });
}

/** Tab from the grid to the focused row's link, Shift+Tab from a row's link to the grid; false: the page's own Tab. */
function tabInTable(shift: boolean, active: Element | null, table: EpisodeTable): boolean {
  if (!shift) return active === table.grid && table.focusLink();
  if (!table.isLink(active)) return false;
  table.grid.focus();
  return true;
}

function run(action: KeyAction, search: HTMLElement, table: EpisodeTable): void {
  const total = table.total ?? 0;
  const actions: Record<KeyAction, () => void> = {
    search: () => search.focus(),
    next: () => table.move(1),
    previous: () => table.move(-1),
    pageDown: () => table.move(table.pageRows),
    pageUp: () => table.move(-table.pageRows),
    first: () => table.focusRow(total > 0 ? 0 : -1),
    last: () => table.focusRow(total - 1),
    open: () => table.open(),
    leaveSearch: () => table.grid.focus(),
  };
  actions[action]();
}
