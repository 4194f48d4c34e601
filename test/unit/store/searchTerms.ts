import type { IndexStore } from '../../../src/store/indexStore';

/** Every (term, episode id) pair of the full-text index, sorted: its whole content with detail=none. */
export function searchTerms(store: IndexStore): string[] {
  store.db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_terms USING fts5vocab(main, episode_fts, instance)');
  return store.db
    .prepare<{ term: string; doc: number }>('SELECT term, doc FROM temp.fts_terms')
    .all()
    .map((r) => `${r.term} ${r.doc}`)
    .sort();
}
