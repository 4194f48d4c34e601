import type { CreditEpisode } from '../../core/creditInput';
import { remedies, type Unidentified } from '../../core/provenance';
import { interventionKey, type Evaluator } from '../evaluators/evaluator';
import type { CachedEvaluation, NewEvaluation, ValueCounters } from './coalitionValues';

/** How a checker fared against the logged rewards of a run (docs/credit-provenance.md, "Calibration"). */
export interface CalibrationResult {
  readonly evaluator: string;
  /** Factual episodes scored (with a logged reward the evaluator can score). */
  readonly sampled: number;
  /** Of which the evaluator reproduced the logged reward. */
  readonly agreed: number;
  /** `agreed / sampled`, NaN when nothing was sampled. */
  readonly rate: number;
  readonly threshold: number;
  readonly accepted: boolean;
  /** Why it was not accepted (or what limits an acceptance); undefined when plainly accepted. */
  readonly reason?: string;
  /** One disagreeing episode. */
  readonly example?: {
    readonly episode: string;
    readonly where: string;
    readonly logged: number;
    readonly checked: number;
  };
}

export interface CalibrationOptions {
  /** Required agreement, in [0, 1] (default 0.95); 0 accepts any checker. */
  readonly threshold?: number;
  /** Most factual episodes scored (default 200), spread evenly over the run. */
  readonly sample?: number;
}

export const defaultCalibration = { threshold: 0.95, sample: 200 } as const;

/** What calibration reads and writes besides the evaluator. */
export interface CalibrationIo {
  readonly cache: (episodeId: number) => ReadonlyMap<string, CachedEvaluation>;
  readonly fresh: NewEvaluation[];
  readonly counters: ValueCounters;
}

const agreementTolerance = 1e-6;

/**
 * Calibrates an evaluator on a run before its counterfactual values are trusted: it scores v(N)
 * (the factual episode) on an even sample of the episodes that log a reward and that it can score,
 * and is accepted when it reproduces the logged reward on at least `threshold` of them **and** the
 * sample holds more than one logged outcome (agreement on a run that always fails, or always
 * succeeds, cannot show that the checker tells the two apart). A run that logs no reward at all has
 * nothing to disagree with: the evaluator is accepted and defines every value.
 * `episodes` must be in a stable order; `total` is their number.
 */
export async function calibrateEvaluator(
  evaluator: Evaluator,
  episodes: Iterable<CreditEpisode>,
  total: number,
  io: CalibrationIo,
  options: CalibrationOptions = {},
): Promise<CalibrationResult> {
  const threshold = options.threshold ?? defaultCalibration.threshold;
  const chosen = sampleEpisodes(evaluator, episodes, total, options.sample ?? defaultCalibration.sample);
  const base = { evaluator: evaluator.fingerprint, threshold };
  if (chosen.sample.length === 0) {
    if (!chosen.anyReward)
      return {
        ...base,
        sampled: 0,
        agreed: 0,
        rate: NaN,
        accepted: true,
        reason: 'the trace logs no reward to compare with, so the evaluator defines every value',
      };
    return {
      ...base,
      sampled: 0,
      agreed: 0,
      rate: NaN,
      accepted: false,
      reason: `${evaluator.label} can score none of the run's episodes that log a reward${chosen.refusal ? `: ${chosen.refusal}` : ''}`,
    };
  }
  let agreed = 0;
  let example: CalibrationResult['example'];
  const errors: Error[] = [];
  const score = (episode: CreditEpisode): Promise<number> =>
    factualValue(evaluator, episode, io).catch((error: unknown) => {
      errors.push(error instanceof Error ? error : new Error(String(error)));
      return NaN; // an episode the evaluator fails on counts as a disagreement
    });
  // A few requests in flight, so a command evaluator's concurrency is used.
  for (let start = 0; start < chosen.sample.length; start += 8) {
    const batch = chosen.sample.slice(start, start + 8);
    const scores = await Promise.all(batch.map(score));
    batch.forEach((episode, k) => {
      const checked = scores[k] ?? NaN;
      const logged = episode.reward as number;
      if (Math.abs(checked - logged) <= agreementTolerance) agreed++;
      else example ??= { episode: episode.externalId, where: `${episode.uri}:${episode.line}`, logged, checked };
    });
  }
  const sampled = chosen.sample.length;
  // An evaluator that fails on every sampled episode is broken, not miscalibrated: say what failed.
  if (errors.length === sampled && errors[0]) throw errors[0];
  const rate = agreed / sampled;
  const outcomes = new Set(chosen.sample.map((e) => e.reward)).size;
  const result = { ...base, sampled, agreed, rate, ...(example ? { example } : {}) };
  if (threshold > 0 && rate < threshold) {
    const failed = errors.length > 0 ? `; ${errors.length} could not be scored (${errors[0]?.message ?? ''})` : '';
    const e =
      failed +
      (example
        ? `; e.g. episode ${example.episode} (${example.where}) logs ${example.logged}, the evaluator scores ${example.checked}`
        : '');
    return {
      ...result,
      accepted: false,
      reason: `${evaluator.label} reproduces the logged reward of ${agreed} of ${sampled} sampled episodes (${percent(rate)}, below the ${percent(threshold)} required)${e}`,
    };
  }
  if (threshold > 0 && outcomes < 2) {
    const only = chosen.sample[0]?.reward;
    return {
      ...result,
      accepted: false,
      reason: `all ${sampled} sampled episodes log reward ${only}, so agreement cannot show that ${evaluator.label} tells success from failure`,
    };
  }
  return { ...result, accepted: true };
}

/** Why counterfactual values of a run cannot be used after `result`, or undefined when they can. */
export function calibrationDistrust(result: CalibrationResult): Unidentified | undefined {
  if (result.accepted) return undefined;
  return {
    reason: `counterfactual values are not identifiable for this run: ${result.reason ?? 'the evaluator is not calibrated'}`,
    remedy: remedies.checker,
  };
}

function sampleEpisodes(evaluator: Evaluator, episodes: Iterable<CreditEpisode>, total: number, size: number) {
  const stride = Math.max(1, Math.floor(total / Math.max(1, size)));
  const sample: CreditEpisode[] = [];
  let refusal: string | undefined;
  let anyReward = false;
  let k = 0;
  for (const episode of episodes) {
    if (episode.reward === null) continue;
    anyReward = true;
    const why = evaluator.cannotScore?.(episode);
    if (why !== undefined) {
      refusal ??= why;
      continue;
    }
    if (k++ % stride === 0 && sample.length < size) sample.push(episode);
  }
  return { sample, refusal, anyReward };
}

async function factualValue(evaluator: Evaluator, episode: CreditEpisode, io: CalibrationIo): Promise<number> {
  const full = (1n << BigInt(episode.agents.length)) - 1n;
  const key = interventionKey(episode, 'agents', full);
  const cached = io.cache(episode.episodeId).get(key);
  if (cached !== undefined) {
    io.counters.cached++;
    return cached.value;
  }
  const result = await evaluator.evaluate({ episode, kind: 'agents', masks: [full] });
  const value = result.rewards.get(full);
  if (value === undefined || !Number.isFinite(value)) return NaN;
  io.counters.evaluated++;
  io.fresh.push({ episodeId: episode.episodeId, intervention: key, value, replayed: result.replayed });
  return value;
}

function percent(rate: number): string {
  return `${Math.round(rate * 1000) / 10}%`;
}
