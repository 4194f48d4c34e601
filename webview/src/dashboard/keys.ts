/** What a key press does on the dashboard. */
export type KeyAction =
  'search' | 'next' | 'previous' | 'pageDown' | 'pageUp' | 'first' | 'last' | 'open' | 'leaveSearch';

/** The parts of a keydown that decide its action. */
export interface KeyPress {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  /** Focus is in a text field or a dropdown (where letters type). */
  readonly inField: boolean;
  /** Focus is in the search field. */
  readonly inSearch: boolean;
  /** Focus is on the episode table. */
  readonly inTable: boolean;
}

const tableKeys: Readonly<Record<string, KeyAction>> = {
  ArrowDown: 'next',
  ArrowUp: 'previous',
  PageDown: 'pageDown',
  PageUp: 'pageUp',
  Home: 'first',
  End: 'last',
  Enter: 'open',
};

/**
 * The action of a key press, or undefined to let the page handle it: `/` focuses the search and
 * `j`/`k` move the row focus anywhere outside a field; arrows, Page Up/Down, Home/End and Enter
 * act on the table when it has focus; Escape or Enter in the search go back to the table.
 */
export function keyAction(press: KeyPress): KeyAction | undefined {
  if (press.ctrlKey || press.metaKey || press.altKey) return undefined;
  if (press.inSearch) return press.key === 'Escape' || press.key === 'Enter' ? 'leaveSearch' : undefined;
  if (press.inField) return undefined;
  if (press.key === '/') return 'search';
  if (press.key === 'j') return 'next';
  if (press.key === 'k') return 'previous';
  return press.inTable ? tableKeys[press.key] : undefined;
}
