// Keyboard map of the Episode view. Pure: no DOM.

export type KeyAction =
  | 'nextMessage'
  | 'previousMessage'
  | 'firstMessage'
  | 'lastMessage'
  | 'toggle'
  | 'nextEpisode'
  | 'previousEpisode'
  | 'find';

export interface KeyInput {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
}

export interface KeyContext {
  /** Focus is in a text field, dropdown or other control that takes keys. */
  readonly inControl: boolean;
  /** Focus is on a message row. */
  readonly onRow: boolean;
}

const plain: Readonly<Record<string, KeyAction>> = {
  j: 'nextMessage',
  k: 'previousMessage',
  n: 'nextEpisode',
  p: 'previousEpisode',
  '/': 'find',
};

const onRow: Readonly<Record<string, KeyAction>> = {
  ArrowDown: 'nextMessage',
  ArrowUp: 'previousMessage',
  Home: 'firstMessage',
  End: 'lastMessage',
  Enter: 'toggle',
  ' ': 'toggle',
};

/** The action of a key press, or null to let the browser (or the focused control) have it. */
export function keyAction(input: KeyInput, context: KeyContext): KeyAction | null {
  if (input.ctrlKey || input.metaKey || input.altKey || context.inControl) return null;
  if (context.onRow) return onRow[input.key] ?? plain[input.key] ?? null;
  return plain[input.key] ?? null;
}
