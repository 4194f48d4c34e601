import type { EpisodeApp } from './app';
import { keyAction, type KeyAction } from './keys';

/** Controls that take their own keys (typing, choosing). */
const controlSelector = 'input, textarea, select, [contenteditable], vscode-text-field, vscode-dropdown, vscode-option';

/** Wires the Episode view's keyboard map ({@link keyAction}) to the document. */
export function bindKeys(app: EpisodeApp): void {
  document.addEventListener('keydown', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const onRow = target?.classList.contains('msg') ?? false;
    const inControl = target?.closest(controlSelector) != null;
    const action = keyAction(event, { inControl, onRow });
    if (action === null || !run(app, action, onRow)) return;
    event.preventDefault();
  });
}

/** Runs `action`; false when it does not apply (no episode yet). */
function run(app: EpisodeApp, action: KeyAction, onRow: boolean): boolean {
  if (action === 'nextEpisode' || action === 'previousEpisode') {
    app.navigate(action === 'nextEpisode' ? 'next' : 'previous');
    return true;
  }
  const episode = app.episode;
  if (!episode) return false;
  const { list, ui, toolbar } = episode;
  // From outside the list, the first j / k lands on the current row when it is in view, else on the top row.
  const from = onRow || list.isInView(ui.focusedSeq) ? ui.focusedSeq : null;
  switch (action) {
    case 'find':
      toolbar.focusFind();
      return true;
    case 'nextMessage':
      list.focus(from === null ? list.topSeq() : from + 1);
      return true;
    case 'previousMessage':
      list.focus(from === null ? list.topSeq() : from - 1);
      return true;
    case 'firstMessage':
      list.focus(0);
      return true;
    case 'lastMessage':
      list.focus(list.count - 1);
      return true;
    case 'toggle':
      list.toggle(ui.focusedSeq);
      return true;
  }
}
