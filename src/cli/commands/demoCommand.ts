import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeDemoRun } from '../../demo/writeDemoRun';
import type { CliIo } from '../cliIo';
import { count, megabytes } from '../../engine/report/format';
import { indexCommand } from './indexCommand';

/** The run folders `writeDemoRun` creates. */
const demoRunNames = ['planner-solver-verifier', 'planner-solver-verifier-credit', 'routed-experts'];

export interface DemoCommandOptions {
  readonly out: string;
  readonly seed?: number;
  readonly episodes?: number;
  readonly json: boolean;
}

/**
 * `credit-lens demo`: writes the seeded demo runs (a planner/solver/verifier team whose verifier
 * learns to idle while the team reward rises, the same team trained on a marginal-contribution
 * signal whose verifier keeps contributing, and a routed two-expert run), then indexes them.
 */
export async function demoCommand(options: DemoCommandOptions, io: CliIo): Promise<number> {
  const out = resolve(options.out);
  // Only the demo's own run folders are replaced, so a rerun with fewer episodes leaves no stale steps.
  for (const name of demoRunNames) rmSync(join(out, name), { recursive: true, force: true });
  const written = writeDemoRun(out, {
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.episodes !== undefined ? { episodes: options.episodes } : {}),
  });
  if (!options.json) {
    for (const run of written.runs) {
      io.out(
        `Wrote ${run.name}: ${count(run.episodes)} episodes in ${count(run.files)} files (${megabytes(run.bytes)}) → ${run.folder}`,
      );
    }
  }
  return indexCommand({ root: out, json: options.json, search: true }, io);
}
