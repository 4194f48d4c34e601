import type { AgentDecl } from './episode';
import type { RunSplits } from './split';

/** How the team's agents combine into one answer. */
export type Mechanism = 'pipeline' | 'vote' | 'routed' | 'debate';

/** Which evaluator re-scores counterfactual episodes (used by the credit engine). */
export type EvaluatorConfig =
  | { readonly kind: 'builtin'; readonly name: string; readonly options?: Readonly<Record<string, unknown>> }
  | { readonly kind: 'command'; readonly command: string; readonly timeoutMs?: number }
  /**
   * Replay settings (models, mode, samples, sampling; docs/replay.md). Never the endpoint: a trace
   * folder is untrusted, so a `url` here is ignored with a warning and replay only goes to the
   * server the user configured.
   */
  | { readonly kind: 'replay'; readonly options?: Readonly<Record<string, unknown>> };

/** The optional `run.json` manifest of a run folder (format v1). */
export interface RunManifest {
  readonly format: 'credit-lens';
  /** `major.minor`; only major 1 is understood. */
  readonly version: string;
  readonly name: string;
  readonly mechanism?: Mechanism;
  /** Default roster for episodes that do not declare their own. */
  readonly agents?: readonly AgentDecl[];
  readonly evaluator?: EvaluatorConfig;
  readonly framework?: string;
  readonly algorithm?: string;
  /**
   * The importer to read every trace file of the run with (a format name such as `verl`,
   * `credit_lens_jsonl`), instead of detecting each file's format by content.
   */
  readonly traceFormat?: string;
  /**
   * The GRPO advantage convention of the run's trainer (`verl`, `trl`, `openrlhf`, `drmas`, `c3`,
   * `dr-grpo`; `credit-lens credit --advantage help` lists them). Without it, the producer decides.
   */
  readonly advantage?: string;
  /**
   * Which folders (relative to the run folder) hold training and which validation dumps, e.g.
   * `{ "validation": ["val_generations/"] }`; overrides what an importer guesses from folder names.
   */
  readonly splits?: RunSplits;
  /**
   * The weight of each reward function, by its column name in the traces (TRL `GRPOConfig.reward_weights`,
   * applied by the trainer and not logged), e.g. `{ "accuracy_reward": 1, "format_reward": 0.5 }`;
   * an unnamed function weighs 1. Finite and non-negative.
   */
  readonly rewardWeights?: RewardWeights;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** Reward-function weights by column name (run.json `rewardWeights`). */
export type RewardWeights = Readonly<Record<string, number>>;

/** The format versions this build reads. */
export const supportedFormatMajor = 1;
export const currentFormatVersion = '1.0';
