import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Episode, Message } from '../../src/core/episode';

/** A canonical episode with sensible defaults; pass only the fields a test depends on. */
export function episode(id: string, overrides: Partial<Episode> = {}): Episode {
  const messages: Message[] = [
    { agent: 'planner', turn: 0, role: 'assistant', content: `Plan for ${id}: add the numbers.`, tokenCount: 7 },
    { agent: 'solver', turn: 0, role: 'assistant', content: `2 + 2 = 4 #### 4`, tokenCount: 8 },
  ];
  return {
    id,
    step: 1,
    group: 'g1',
    sample: 0,
    agents: [
      { name: 'planner', kind: 'llm' },
      { name: 'solver', kind: 'llm' },
    ],
    messages,
    reward: 1,
    final: { answer: '4', agent: 'solver' },
    ...overrides,
  };
}

/** JSONL text (with a trailing newline) for the given episodes. */
export function jsonl(...episodes: readonly Episode[]): string {
  return episodes.map((e) => `${JSON.stringify(e)}\n`).join('');
}

/** Episodes e<from>..e<to-1>, one per line, at the given step. */
export function episodes(from: number, to: number, step = 1): Episode[] {
  const list: Episode[] = [];
  for (let i = from; i < to; i++) list.push(episode(`e${i}`, { step }));
  return list;
}

/** A fresh temporary folder for one test. */
export function tempFolder(prefix = 'credit-lens-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
