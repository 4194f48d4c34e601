import { checkFormatVersion } from '../../core/formatVersion';
import { err, ok, type Result } from '../../core/result';
import type { EvaluatorConfig, Mechanism, RewardWeights, RunManifest } from '../../core/runManifest';
import type { RunSplits } from '../../core/split';
import { decodeAgent } from './decodeEpisode';
import {
  DecodeError,
  oneOf,
  optionalArray,
  optionalInteger,
  optionalObject,
  optionalString,
  requireObject,
  requireString,
  type JsonObject,
} from './fields';

const mechanisms: readonly Mechanism[] = ['pipeline', 'vote', 'routed', 'debate'];

/**
 * Decodes a parsed `run.json`. `fallbackName` (the folder name) is used when the manifest has no
 * name. An unknown major `version` is an error that says which versions are understood.
 */
export function decodeManifest(value: unknown, fallbackName: string): Result<RunManifest> {
  try {
    return ok(decodeManifestObject(requireObject(value, ''), fallbackName));
  } catch (error) {
    if (error instanceof DecodeError) return err(error.message);
    throw error;
  }
}

function decodeManifestObject(obj: JsonObject, fallbackName: string): RunManifest {
  const format = requireString(obj, 'format', '');
  if (format !== 'credit-lens') throw new DecodeError('format', `expected "credit-lens", got "${format}"`);
  const version = checkFormatVersion(obj['version']);
  if (!version.ok) throw new DecodeError('version', version.error);
  const mechanism = optionalString(obj, 'mechanism', '');
  const manifest: RunManifest = {
    format: 'credit-lens',
    version: String(obj['version']),
    name: optionalString(obj, 'name', '') ?? fallbackName,
    ...(mechanism !== undefined ? { mechanism: oneOf(mechanism, mechanisms, 'mechanism') } : {}),
  };
  const agents = optionalArray(obj, 'agents', '')?.map((a, i) => decodeAgent(a, `agents[${i}]`));
  const evaluator = decodeEvaluator(obj);
  const framework = optionalString(obj, 'framework', '');
  const algorithm = optionalString(obj, 'algorithm', '');
  const traceFormat = optionalString(obj, 'traceFormat', '');
  const advantage = optionalString(obj, 'advantage', '');
  const metadata = optionalObject(obj, 'metadata', '');
  const splits = decodeSplits(obj);
  const rewardWeights = decodeRewardWeights(obj);
  return {
    ...manifest,
    ...(agents ? { agents } : {}),
    ...(evaluator ? { evaluator } : {}),
    ...(framework !== undefined ? { framework } : {}),
    ...(algorithm !== undefined ? { algorithm } : {}),
    ...(traceFormat !== undefined ? { traceFormat } : {}),
    ...(advantage !== undefined ? { advantage } : {}),
    ...(splits ? { splits } : {}),
    ...(rewardWeights ? { rewardWeights } : {}),
    ...(metadata ? { metadata } : {}),
  };
}

/** `rewardWeights`: an object of finite, non-negative numbers keyed by reward column name. */
function decodeRewardWeights(obj: JsonObject): RewardWeights | undefined {
  const weights = optionalObject(obj, 'rewardWeights', '');
  if (weights === undefined) return undefined;
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(weights)) {
    if (key === '') throw new DecodeError('rewardWeights', 'expected reward column names, got an empty name');
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new DecodeError(
        `rewardWeights.${key}`,
        `expected a finite non-negative number, got ${JSON.stringify(value)}`,
      );
    out[key] = value;
  }
  return out;
}

/** `splits`: an object with optional `train` and `validation` arrays of non-empty folder paths. */
function decodeSplits(obj: JsonObject): RunSplits | undefined {
  const splits = optionalObject(obj, 'splits', '');
  if (splits === undefined) return undefined;
  for (const key of Object.keys(splits))
    if (key !== 'train' && key !== 'validation')
      throw new DecodeError(`splits.${key}`, 'expected "train" or "validation"');
  const folders = (key: 'train' | 'validation'): string[] | undefined =>
    optionalArray(splits, key, 'splits')?.map((f, i) => {
      if (typeof f !== 'string' || f.replace(/[/.]/g, '') === '')
        throw new DecodeError(`splits.${key}[${i}]`, 'expected a folder path such as "val_generations/"');
      return f;
    });
  const train = folders('train');
  const validation = folders('validation');
  return { ...(train ? { train } : {}), ...(validation ? { validation } : {}) };
}

function decodeEvaluator(obj: JsonObject): EvaluatorConfig | undefined {
  const evaluator = optionalObject(obj, 'evaluator', '');
  if (evaluator === undefined) return undefined;
  const kind = oneOf(
    requireString(evaluator, 'kind', 'evaluator'),
    ['builtin', 'command', 'replay'] as const,
    'evaluator.kind',
  );
  if (kind === 'command') {
    const timeoutMs = optionalInteger(evaluator, 'timeoutMs', 'evaluator');
    return {
      kind,
      command: requireString(evaluator, 'command', 'evaluator'),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    };
  }
  const options = optionalObject(evaluator, 'options', 'evaluator');
  if (kind === 'replay') return { kind, ...(options ? { options } : {}) };
  return { kind, name: requireString(evaluator, 'name', 'evaluator'), ...(options ? { options } : {}) };
}
