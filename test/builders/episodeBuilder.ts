import { mkdtempSync, rmSync } from 'node:fs';
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

/** Folders made by {@link tempFolder} in this process, removed when it exits. */
const madeFolders: string[] = [];

/**
 * A fresh temporary folder for one test, removed with everything in it when the test process
 * exits (each test file runs in a process of its own); `CREDIT_LENS_KEEP_TEMP=1` keeps them, to
 * look into a failure. Why: the suite made about 300 folders a run (indexes, copies, demo runs),
 * and a machine that ran it for a few sessions had 5.6 GB of them in its temp folder.
 */
export function tempFolder(prefix = 'credit-lens-test-'): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  if (madeFolders.push(folder) === 1 && !process.env['CREDIT_LENS_KEEP_TEMP'])
    process.once('exit', () => {
      for (const made of madeFolders) rmSync(made, { recursive: true, force: true });
    });
  return folder;
}
