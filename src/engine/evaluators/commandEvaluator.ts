import { createHash } from 'node:crypto';
import { readEpisode } from '../../ingest/readEpisode';
import { maskMembers, type EvaluationRequest, type Evaluator } from './evaluator';
import { EvaluatorProcess } from './evaluatorProcess';

export interface CommandEvaluatorOptions {
  /** Shell command line of the user's evaluator (docs/evaluator-protocol.md). */
  readonly command: string;
  /** Working directory: the run folder. */
  readonly root: string;
  /** Per-request timeout. */
  readonly timeoutMs?: number;
  /** Requests in flight at once. */
  readonly concurrency?: number;
  /** Part of the cache fingerprint: bump it when the evaluator's behaviour changes. */
  readonly version?: string;
}

/**
 * A user evaluator: one long-lived process speaking JSON lines over stdin/stdout. Each request
 * carries the canonical episode and the coalitions to score; each response carries one reward per
 * coalition. A crash, a timeout or garbage output fails only the affected episodes.
 */
export function commandEvaluator(options: CommandEvaluatorOptions): Evaluator {
  const process = new EvaluatorProcess(
    options.command,
    options.root,
    options.timeoutMs ?? 60_000,
    options.concurrency ?? 4,
  );
  const fingerprint = `command:${createHash('sha256')
    .update(`${options.command}\u0000${options.version ?? ''}`)
    .digest('hex')
    .slice(0, 16)}`;
  return {
    fingerprint,
    label: `the evaluator command "${options.command}"`,
    evaluate: async (request) => {
      const read = await readEpisode(options.root, request.episode);
      if (!read.ok) throw new Error(read.error);
      const coalitions = request.masks.map((mask) => members(request, mask));
      const answer = await process.request({ episode: read.value, kind: request.kind, coalitions });
      if (answer.rewards.length !== request.masks.length) {
        throw new Error(
          `the evaluator returned ${answer.rewards.length} rewards for ${request.masks.length} coalitions`,
        );
      }
      return {
        rewards: new Map(request.masks.map((mask, i) => [mask, answer.rewards[i] ?? Number.NaN])),
        replayed: answer.replayed,
      };
    },
    close: () => process.close(),
  };
}

/** The agent names (kind `agents`) or message indices (kind `messages`) present in a mask. */
function members(request: EvaluationRequest, mask: bigint): (string | number)[] {
  return maskMembers(mask).map((i) => (request.kind === 'agents' ? (request.episode.agents[i]?.name ?? `#${i}`) : i));
}
