import { isObject } from './canonical/fields';
import { isSideFileName } from './importers/sideFiles';

// Side files (issue 12): what producers write next to their traces (configs, metrics, loggers'
// files, checkpoints). They are listed as "other files" in the index summary, never read as traces
// and never reported as errors. The rules are data: a format adds its own names with
// addSideFileRules() (e.g. `addSideFileRules([{ name: 'c3_extra.json', kind: 'config', by: 'c3' }])`).

/** What a side file holds. */
export type SideFileKind = 'config' | 'metrics' | 'logger' | 'checkpoint';

/** One declarative rule: a file (or folder) name, exact or as a pattern. */
export interface SideFileRule {
  /** The base name (exact, case-insensitive) or a pattern tested against the base name. */
  readonly name: string | RegExp;
  readonly kind: SideFileKind;
  /** True when the rule names a folder (a checkpoint, a logger's folder): the folder is one other file, not searched. */
  readonly folder?: boolean;
  /** Who declared the rule (`generic`, or a format such as `c3`), shown nowhere but kept for reading the list. */
  readonly by: string;
}

/** The rules every format shares. */
const genericRules: readonly SideFileRule[] = [
  // Configs.
  { name: 'run_config.json', kind: 'config', by: 'generic' },
  { name: 'config.json', kind: 'config', by: 'generic' },
  { name: /\.(ya?ml|toml|ini|cfg)$/i, kind: 'config', by: 'generic' },
  {
    name: /^(hparams|args|training_args|generation_config|trainer_state|tokenizer_config|special_tokens_map|adapter_config)\.(json|bin)$/i,
    kind: 'config',
    by: 'generic',
  },
  { name: 'meta.json', kind: 'config', by: 'rllm' },
  // Metrics.
  { name: /(^|[._-])metrics\.jsonl?$/i, kind: 'metrics', by: 'generic' },
  { name: 'budget_ledger.jsonl', kind: 'metrics', by: 'c3' },
  { name: /^(all_)?results\.json$/i, kind: 'metrics', by: 'generic' },
  { name: /^(train|eval)_results\.json$/i, kind: 'metrics', by: 'generic' },
  // Loggers.
  { name: /^wandb-(summary|metadata)\.json$/i, kind: 'logger', by: 'wandb' },
  { name: /^events\.out\.tfevents\./, kind: 'logger', by: 'tensorboard' },
  { name: 'wandb', kind: 'logger', folder: true, by: 'wandb' },
  { name: 'mlruns', kind: 'logger', folder: true, by: 'mlflow' },
  // Checkpoints.
  { name: /^(checkpoint|ckpt)[-_]?\d+$/i, kind: 'checkpoint', folder: true, by: 'generic' },
  { name: /^global_step_?\d+$/i, kind: 'checkpoint', folder: true, by: 'verl' },
  { name: /^(checkpoints|ckpts)$/i, kind: 'checkpoint', folder: true, by: 'generic' },
  { name: /\.(safetensors|pt|pth|ckpt|bin|gguf|npz|npy)$/i, kind: 'checkpoint', by: 'generic' },
];

const extraRules: SideFileRule[] = [];

/** Adds rules (a format's own side-file names); they apply to every later scan. */
export function addSideFileRules(rules: readonly SideFileRule[]): void {
  extraRules.push(...rules);
}

/** The rules in force: the generic ones, then those added by formats. */
export function sideFileRules(): readonly SideFileRule[] {
  return [...genericRules, ...extraRules];
}

/** The kind of side file a base name is (a folder's when `folder`), or undefined for a possible trace. */
export function sideFileKind(name: string, folder = false): SideFileKind | undefined {
  const lower = name.toLowerCase();
  for (const rule of sideFileRules()) {
    if ((rule.folder ?? false) !== folder) continue;
    if (typeof rule.name === 'string' ? rule.name.toLowerCase() === lower : rule.name.test(name)) return rule.kind;
  }
  // Side files a format names for its producer (FormatMapper.sideFiles, e.g. C3's train_metrics.jsonl).
  return !folder && isSideFileName(name) ? 'metrics' : undefined;
}

/** Keys that an episode-like record holds somewhere (prompt, messages, completion, …). */
const episodeKeys = new Set([
  'messages',
  'prompt',
  'completion',
  'completions',
  'input',
  'output',
  'response',
  'responses',
  'trajectory',
  'trajectories',
  'steps',
  'turns',
  'conversation',
  'history',
  'samples',
  'spans',
  'events',
]);
const maxSideString = 512;

/**
 * The content rule: records that do not look like episodes and look like config or metrics. True
 * when there is at least one record and every record is an object with none of the
 * {@link episodeKeys} at its top level, no array of objects and no string longer than 512
 * characters at any depth: a metrics line (`{"step": 3, "loss": 0.2}`) or a config document.
 */
export function looksLikeSideRecords(records: readonly unknown[]): boolean {
  return (
    records.length > 0 &&
    records.every((r) => isObject(r) && !Object.keys(r).some((k) => episodeKeys.has(k)) && isFlatValue(r, 0))
  );
}

function isFlatValue(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return value.length <= maxSideString;
  if (value === null || typeof value !== 'object') return true;
  if (depth > 6) return false;
  if (Array.isArray(value)) return value.every((v) => !isObject(v) && isFlatValue(v, depth + 1));
  return Object.values(value).every((v) => isFlatValue(v, depth + 1));
}
