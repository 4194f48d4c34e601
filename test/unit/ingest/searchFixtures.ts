import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexStore } from '../../../src/store/indexStore';
import { episode, episodes, jsonl, tempFolder } from '../../builders/episodeBuilder';

/** Canonical JSONL (with a bad line and a duplicate id), a mapped JSONL format, TRL's rolling buffer and whole JSON files. */
export function mixedSearchFolder(): string {
  const root = tempFolder();
  const fixtures = join(__dirname, '../../fixtures');
  cpSync(join(fixtures, 'canonical/valid'), join(root, 'canonical'), { recursive: true });
  cpSync(join(fixtures, 'importers/verl/rollout'), join(root, 'verl'), { recursive: true });
  cpSync(join(fixtures, 'importers/trl'), join(root, 'trl'), { recursive: true });
  const unicode = episode('u', { messages: [{ agent: 'planner', content: 'résoudre 漢字 😀, step_by-step' }] });
  writeFileSync(join(root, 'mine.jsonl'), jsonl(...episodes(0, 30), unicode) + '{oops\n' + jsonl(episode('e3')));
  return root;
}

/** Episodes marked searchable: those whose ids are not in `episode_unsearched` (migration 0022). */
export function searchableEpisodes(store: IndexStore): number {
  return (
    store.db
      .prepare<{ n: number }>(
        'SELECT count(*) AS n FROM episode e WHERE NOT EXISTS (SELECT 1 FROM episode_unsearched u WHERE u.episode_id = e.episode_id)',
      )
      .get()?.n ?? -1
  );
}
