import * as vscode from 'vscode';
import type { EpisodeSuggestion } from '../../store/episodeLookup';
import { description, rewardText } from '../tree/treeItems';

/** The ids of the index starting with a prefix (at most 50, by id). */
export type SuggestEpisodes = (prefix: string) => readonly EpisodeSuggestion[];

/** What the user accepted: an offered episode, or an id typed that no suggestion is. */
export type EpisodeChoice =
  { readonly kind: 'suggested'; readonly episode: EpisodeSuggestion } | { readonly kind: 'typed'; readonly id: string };

/** The part of a quick pick the id pick drives (vscode.window.createQuickPick's, or a test's). */
export interface IdQuickPick<T extends vscode.QuickPickItem> {
  title: string | undefined;
  placeholder: string | undefined;
  value: string;
  items: readonly T[];
  busy: boolean;
  matchOnDescription: boolean;
  readonly selectedItems: readonly T[];
  onDidChangeValue: vscode.Event<string>;
  onDidAccept: vscode.Event<void>;
  onDidHide: vscode.Event<void>;
  show(): void;
  hide(): void;
  dispose(): void;
}

interface ChoiceItem extends vscode.QuickPickItem {
  readonly choice: EpisodeChoice;
}

export interface EpisodeIdPickOptions {
  readonly title: string;
  /** Pause after a keystroke before the index is asked (default 120 ms): typing fast asks once. */
  readonly debounceMs?: number;
  readonly createPick?: () => IdQuickPick<ChoiceItem>;
}

/**
 * Asks for an episode id in a quick pick that lists the index's ids starting with what is typed,
 * each described by its run, step, group and reward. Each keystroke cancels the pending lookup and
 * restarts a short timer, so only the settled text is looked up (a lookup is one synchronous index
 * range read: none is ever in flight while the user types).
 * The typed text itself is always one of the items (listed first; VS Code then orders the rows by how well their labels match), so an id that is not listed can still be opened
 * (the caller then says whether the index has it); so is text accepted before its suggestions
 * arrived. Resolves to undefined when dismissed.
 */
export function pickEpisodeId(
  suggest: SuggestEpisodes,
  options: EpisodeIdPickOptions,
): Promise<EpisodeChoice | undefined> {
  const pick = options.createPick?.() ?? vscode.window.createQuickPick<ChoiceItem>();
  pick.title = options.title;
  pick.placeholder = 'Type an episode id as the trace gives it (e.g. step12-g3-r1)';
  pick.matchOnDescription = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const refresh = (): void => {
    timer = undefined;
    const typed = pick.value.trim();
    pick.items = choiceItems(typed, suggest(typed));
    pick.busy = false;
  };
  return new Promise((resolve) => {
    let done = false;
    const finish = (choice: EpisodeChoice | undefined): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(choice);
      pick.dispose();
    };
    pick.onDidChangeValue(() => {
      clearTimeout(timer);
      pick.busy = true;
      timer = setTimeout(refresh, options.debounceMs ?? 120);
    });
    pick.onDidAccept(() => {
      // Accepted before the suggestions for the text arrived: the selection is an older list's.
      const item = timer === undefined ? pick.selectedItems[0] : undefined;
      const typed = pick.value.trim();
      if (item) finish(item.choice);
      else if (typed !== '') finish({ kind: 'typed', id: typed });
    });
    pick.onDidHide(() => finish(undefined));
    refresh();
    pick.show();
  });
}

/** The typed id first (unless a suggestion is exactly it), then the suggestions. */
function choiceItems(typed: string, found: readonly EpisodeSuggestion[]): ChoiceItem[] {
  const exact = found.some((e) => e.externalId === typed);
  const typedItem: ChoiceItem[] =
    typed === '' || exact
      ? []
      : [
          {
            label: typed,
            description: found.length === 0 ? 'no id in the index starts with this' : 'open this id',
            alwaysShow: true,
            choice: { kind: 'typed', id: typed },
          },
        ];
  return [...typedItem, ...found.map(suggestionItem)];
}

function suggestionItem(e: EpisodeSuggestion): ChoiceItem {
  return {
    label: e.externalId,
    description: description(
      e.run === '' ? '(root)' : e.run,
      e.step === null ? 'no step' : `step ${String(e.step)}`,
      e.group === null ? undefined : `group ${e.group}`,
      rewardText(e.reward),
    ),
    alwaysShow: true,
    choice: { kind: 'suggested', episode: e },
  };
}
