import type { SamplingParams } from '../../core/chat';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The metadata keys each sampling parameter is read from, in order of preference. */
const keys: Readonly<Record<keyof SamplingParams, readonly string[]>> = {
  temperature: ['temperature'],
  topP: ['top_p', 'topP'],
  maxTokens: ['max_tokens', 'maxTokens'],
  seed: ['seed'],
};

/**
 * The sampling parameters an episode logs in its metadata (docs/trace-format.md §2.1): `temperature`,
 * `top_p`, `max_tokens` and `seed`, at the top level or in an object `metadata.sampling` (which wins);
 * `topP` and `maxTokens` are read too. Values that are not finite numbers are ignored, as are a
 * `max_tokens` or `seed` that is not an integer and a negative `max_tokens`.
 */
export function loggedSampling(metadata: Readonly<Record<string, unknown>> | undefined): SamplingParams {
  const nested = metadata?.['sampling'];
  const sources = [isRecord(nested) ? nested : undefined, metadata].filter((s) => s !== undefined);
  const sampling: Mutable<SamplingParams> = {};
  for (const [param, names] of Object.entries(keys) as [keyof SamplingParams, readonly string[]][]) {
    const value = sources.flatMap((source) => names.map((name) => source[name])).find((v) => isValid(param, v));
    if (typeof value === 'number') sampling[param] = value;
  }
  return sampling;
}

/** The trace's sampling parameters, each missing one taken from the config. */
export function replaySampling(logged: SamplingParams, configured: SamplingParams | undefined): SamplingParams {
  return { ...configured, ...logged };
}

/**
 * The sampling of replay sample `sample` (0-based) of `samples = K`: with a seed, sample j uses
 * `seed + j`, so K replays are K different draws that repeat exactly on a rerun; without one, the
 * server's own randomness makes them differ.
 */
export function samplingForSample(sampling: SamplingParams, sample: number): SamplingParams {
  if (sampling.seed === undefined || sample === 0) return sampling;
  return { ...sampling, seed: sampling.seed + sample };
}

function isValid(param: keyof SamplingParams, value: unknown): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  if (param === 'maxTokens') return Number.isInteger(value) && value > 0;
  return param === 'seed' ? Number.isInteger(value) : true;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
