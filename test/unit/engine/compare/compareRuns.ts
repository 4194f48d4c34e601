import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Episode } from '../../../../src/core/episode';
import { runCreditJob } from '../../../../src/engine/credit/creditJob';
import { runIndexJob } from '../../../../src/engine/indexJob';
import { episode, jsonl } from '../../../builders/episodeBuilder';

/** One episode whose logged removals make the planner's LOO credit `planner` and the solver's 1 (reward 1). */
export function creditedEpisode(id: string, planner: number, overrides: Partial<Episode> = {}): Episode {
  return episode(id, {
    reward: 1,
    counterfactuals: [
      { intervention: 'remove', agents: ['planner'], reward: 1 - planner },
      { intervention: 'remove', agents: ['solver'], reward: 0 },
    ],
    ...overrides,
  });
}

/** Writes run folder `name` under `root` with a run.json and one JSONL file of `episodes`. */
export function writeRun(root: string, name: string, episodes: readonly Episode[]): void {
  mkdirSync(join(root, name), { recursive: true });
  writeFileSync(join(root, name, 'run.json'), JSON.stringify({ format: 'credit-lens', version: '1.0', name }));
  writeFileSync(join(root, name, 'rollouts.jsonl'), jsonl(...episodes));
}

/** Indexes `root` and stores its LOO credit from the logged removals (no evaluator). */
export async function indexWithCredit(root: string): Promise<void> {
  await runIndexJob({ root, search: false });
  await runCreditJob({ root, method: 'loo', evaluator: { kind: 'none' } });
}
