import type { SamplingParams } from '../../../core/chat';
import { err, ok, type Result } from '../../../core/result';
import type { ReplayMode } from '../../../credit/replay/replayTypes';

/**
 * What the user configured for the replay evaluator (docs/replay.md): `--evaluator
 * replay:url=…,model=…`, the `evaluator` of run.json (only its non-endpoint parts: a trace never
 * names the endpoint), or the extension's `creditLens.evaluator.replay` setting. The API key is
 * never part of it: it is read at run time from `apiKeyEnv` (or VS Code's secret storage) and
 * handed to the client only.
 */
export interface ReplayOptions {
  /** Base URL of the OpenAI-compatible API, ending in `/v1` (e.g. `http://127.0.0.1:8000/v1`). */
  readonly url: string;
  /** Model of the agents that neither `models` nor the roster's `policy` names. */
  readonly model?: string;
  /** Model per agent name; wins over the roster's `policy`. */
  readonly models?: Readonly<Record<string, string>>;
  /** `remove` (drop a removed agent's messages) or `default` (its declared default action). */
  readonly mode: ReplayMode;
  /** Replays per counterfactual; the value is their mean, with an interval when K > 1. */
  readonly samples: number;
  /** Sampling for what the trace does not log. */
  readonly sampling: SamplingParams;
  readonly stream: boolean;
  /** Requests in flight at once. */
  readonly concurrency: number;
  /** Per-request timeout, ms. */
  readonly timeoutMs: number;
  /** The environment variable holding the API key (default `CREDIT_LENS_REPLAY_API_KEY`). */
  readonly apiKeyEnv: string;
  /**
   * The option keys the user set (filled by {@link parseReplayOptions}): a run manifest's replay
   * settings fill only the others. Absent: every option counts as set.
   */
  readonly given?: readonly string[];
}

export const defaultApiKeyEnv = 'CREDIT_LENS_REPLAY_API_KEY';

const numberKeys = { temperature: 'temperature', top_p: 'topP', max_tokens: 'maxTokens', seed: 'seed' } as const;

/**
 * Parses the `key=value` settings of `--evaluator replay:…` (or the same keys from JSON settings):
 * `url` (required, http or https), `model`, `models` (`agent=model;agent=model` or an object),
 * `mode` (`remove` | `default`), `samples`, `temperature`, `top_p`, `max_tokens`, `seed`,
 * `stream`, `concurrency`, `timeout_ms`, `api_key_env`. An `api_key` is refused: a key on a command
 * line or in a settings file ends up in shell history and logs.
 */
export function parseReplayOptions(settings: Readonly<Record<string, unknown>>): Result<ReplayOptions> {
  if ('api_key' in settings || 'apiKey' in settings)
    return err(
      'replay: do not put the API key in the options; set it in an environment variable (api_key_env=NAME, default CREDIT_LENS_REPLAY_API_KEY)',
    );
  const url = settings['url'];
  if (typeof url !== 'string' || !/^https?:\/\/[^\s/]+/.test(url))
    return err('replay: url=http://HOST:PORT/v1 is required');
  const known = new Set([
    'url',
    'model',
    'models',
    'mode',
    'samples',
    'stream',
    'concurrency',
    'timeout_ms',
    'api_key_env',
    ...Object.keys(numberKeys),
  ]);
  const unknown = Object.keys(settings).filter((k) => !known.has(k));
  if (unknown.length > 0)
    return err(`replay: unknown option ${unknown.map((k) => `"${k}"`).join(', ')} (known: ${[...known].join(', ')})`);
  const models = parseModels(settings['models']);
  if (!models.ok) return models;
  const mode = settings['mode'] ?? 'remove';
  if (mode !== 'remove' && mode !== 'default')
    return err(`replay: mode must be remove or default, got ${JSON.stringify(mode)}`);
  const numbers = parseNumbers(settings);
  if (!numbers.ok) return numbers;
  const { samples = 1, concurrency = 8, timeout_ms: timeoutMs = 120_000, ...sampling } = numbers.value;
  if (!Number.isInteger(samples) || samples < 1) return err('replay: samples must be a whole number ≥ 1');
  if (!Number.isInteger(concurrency) || concurrency < 1) return err('replay: concurrency must be a whole number ≥ 1');
  const model = settings['model'];
  return ok({
    url: url.replace(/\/+$/, ''),
    ...(typeof model === 'string' && model !== '' ? { model } : {}),
    ...(models.value ? { models: models.value } : {}),
    mode,
    samples,
    sampling: samplingOf(sampling),
    stream: settings['stream'] === true || settings['stream'] === 'true',
    concurrency,
    timeoutMs,
    apiKeyEnv: typeof settings['api_key_env'] === 'string' ? settings['api_key_env'] : defaultApiKeyEnv,
    given: Object.keys(settings).filter((key) => settings[key] !== undefined),
  });
}

/** The settings a run manifest (`run.json` `evaluator: {kind: "replay", options}`) may give. */
const manifestKeys = ['model', 'models', 'mode', 'samples', 'temperature', 'top_p', 'max_tokens', 'seed'];

/**
 * The user's replay options completed by a run manifest's replay settings: the manifest's
 * `model`, `models` (per agent), `mode`, `samples` and sampling fill what the user did not set.
 * A trace folder is untrusted, so the manifest never chooses the endpoint, the key or how the
 * client behaves: a `url` (or any other client option) there is ignored, and each ignored or
 * unusable setting is a warning.
 */
export function withManifestSettings(
  user: ReplayOptions,
  manifest: Readonly<Record<string, unknown>>,
): { options: ReplayOptions; warnings: string[] } {
  const warnings: string[] = [];
  const ignored = Object.keys(manifest).filter((key) => !manifestKeys.includes(key));
  if (ignored.length > 0)
    warnings.push(
      `run.json's replay settings name ${ignored.map((k) => `"${k}"`).join(', ')}, which a trace folder may not set (the endpoint, the key and the client come only from your own settings); ignored`,
    );
  const usable = Object.fromEntries(Object.entries(manifest).filter(([key]) => manifestKeys.includes(key)));
  const parsed = parseReplayOptions({ ...usable, url: user.url });
  if (!parsed.ok) {
    warnings.push(`run.json's replay settings are ignored: ${parsed.error}`);
    return { options: user, warnings };
  }
  const from = parsed.value;
  const given = new Set(user.given ?? Object.keys(user));
  const model = user.model ?? from.model;
  const models = { ...from.models, ...user.models };
  return {
    options: {
      ...user,
      ...(model !== undefined ? { model } : {}),
      ...(Object.keys(models).length > 0 ? { models } : {}),
      mode: given.has('mode') ? user.mode : from.mode,
      samples: given.has('samples') ? user.samples : from.samples,
      sampling: { ...from.sampling, ...user.sampling },
    },
    warnings,
  };
}

function parseModels(value: unknown): Result<Readonly<Record<string, string>> | undefined> {
  if (value === undefined) return ok(undefined);
  if (typeof value === 'object' && value !== null && Object.values(value).every((v) => typeof v === 'string'))
    return ok(value as Record<string, string>);
  if (typeof value !== 'string') return err('replay: models must look like agent=model;agent=model');
  const pairs = value
    .split(';')
    .filter(Boolean)
    .map((pair) => pair.split('=', 2));
  if (pairs.some(([agent, model]) => !agent || !model))
    return err('replay: models must look like agent=model;agent=model');
  return ok(Object.fromEntries(pairs));
}

type NumberOptions = Partial<Record<'samples' | 'concurrency' | 'timeout_ms' | keyof typeof numberKeys, number>>;

function parseNumbers(settings: Readonly<Record<string, unknown>>): Result<NumberOptions> {
  const out: Record<string, number> = {};
  for (const key of ['samples', 'concurrency', 'timeout_ms', ...Object.keys(numberKeys)]) {
    const raw = settings[key];
    if (raw === undefined) continue;
    const value =
      typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
    if (!Number.isFinite(value)) return err(`replay: ${key} must be a number, got ${JSON.stringify(raw)}`);
    out[key] = value;
  }
  return ok(out as NumberOptions);
}

function samplingOf(values: Partial<Record<keyof typeof numberKeys, number>>): SamplingParams {
  const sampling: Record<string, number> = {};
  for (const [key, field] of Object.entries(numberKeys)) {
    const value = values[key as keyof typeof numberKeys];
    if (value !== undefined) sampling[field] = value;
  }
  return sampling;
}
