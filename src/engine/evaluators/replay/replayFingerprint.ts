import { createHash } from 'node:crypto';
import type { AgentDecl } from '../../../core/episode';
import { finalAnswerFingerprint, type FinalAnswerOptions } from '../../../credit/evaluator/finalAnswerEvaluator';
import { modelOf } from '../../../credit/replay/replayRoster';
import type { ReplayConfig } from '../../../credit/replay/replayTypes';
import type { ReplayOptions } from './replayOptions';

/** Bumped whenever a change to planning, running or scoring a replay can change a value. */
const replayVersion = 1;

/**
 * The cache fingerprint of a replay evaluator: a hash of everything a replayed value depends on —
 * the endpoint, the models (the mapping, the default, and the model each agent of the run's roster
 * resolves to), the mode, the sampling, the samples and the checker's own fingerprint. Not the
 * key, the concurrency, the timeout or streaming, which change no value. A hash, so the index
 * holds no URL (a query string may carry a token).
 */
export function replayFingerprint(
  options: ReplayOptions,
  checker: FinalAnswerOptions,
  config: ReplayConfig,
  roster: readonly AgentDecl[] = [],
): string {
  const resolved = roster.map((agent) => {
    const model = modelOf(
      { name: agent.name, isModel: true, ...(agent.policy ? { policy: agent.policy } : {}) },
      config,
    );
    return [agent.name, model.ok ? model.value : null];
  });
  const canonical = JSON.stringify([
    replayVersion,
    options.url,
    options.model ?? null,
    sortedEntries(options.models ?? {}),
    resolved,
    options.mode,
    sortedEntries(options.sampling),
    options.samples,
    finalAnswerFingerprint(checker),
  ]);
  return `replay@${replayVersion}:${createHash('sha256').update(canonical).digest('hex').slice(0, 16)}`;
}

function sortedEntries(record: object): [string, unknown][] {
  return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1));
}
