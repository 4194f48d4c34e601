import { grpoAdvantages, type GrpoAdvantageOptions } from './grpoAdvantages';

/**
 * How one trainer turns a group's per-rollout signal into GRPO advantages (credit-methods.md §3.15),
 * transcribed from the trainer's own code.
 */
export interface AdvantageConvention {
  readonly name: AdvantageConventionName;
  /** Short human form, e.g. `sample std, eps 1e-6`. */
  readonly summary: string;
  /** The trainer code this was transcribed from: repository, path, function and commit. */
  readonly source: string;
  readonly options: Readonly<GrpoAdvantageOptions>;
}

export const advantageConventionNames = ['verl', 'trl', 'openrlhf', 'drmas', 'c3', 'dr-grpo'] as const;
export type AdvantageConventionName = (typeof advantageConventionNames)[number];

/** Other names accepted for a convention (`magrpo` is C3's MAGRPO). */
const aliases: Readonly<Record<string, AdvantageConventionName>> = {
  magrpo: 'c3',
  'dr-mas': 'drmas',
  drgrpo: 'dr-grpo',
};

/*
 * Sources (fetched and read, not paraphrased from papers). Every trainer here groups per prompt; the
 * credit engine groups per (prompt group, agent) for every convention, which is Dr. MAS's and C3's
 * grouping and, on the shared reward, the same numbers as per-prompt grouping.
 *
 * verl — volcengine/verl@b178a3cd56f58b2d502255daba591e92833930a7, verl/trainer/ppo/core_algos.py,
 *   compute_grpo_outcome_advantage: `(scores - mean) / (torch.std(scores) + epsilon)`, epsilon 1e-6;
 *   torch.std is the sample std (ddof 1); a group of one gets mean 0 and std 1 (so A = x/(1+1e-6)).
 * trl — huggingface/trl@f2cd57710ae345ea6428ae95363267fcf38a3dc8, trl/trainer/grpo_trainer.py
 *   (_generate_and_score_completions, scale_rewards="group", the default in grpo_config.py):
 *   `(rewards - mean) / (std + 1e-4)` with trl/trainer/utils.py nanstd (Bessel-corrected, ddof 1,
 *   NaN-skipping); num_generations = 1 gives std 0, so A = 0. scale_rewards="batch" (batch std) is
 *   not modelled; "none" is `dr-grpo`. Unscorable (NaN) rewards get A = 0 in TRL, NaN here.
 * openrlhf — OpenRLHF/OpenRLHF@3c3be6234e0cb353e76bb8019947db9dfe99fca7,
 *   openrlhf/trainer/ppo_utils/experience_maker.py, estimator "group_norm":
 *   `(rewards - rewards.mean(-1)) / (rewards.std(-1) + 1e-9)` (torch std, ddof 1). A group of one
 *   would be NaN there (std of one value); here it gets 0.
 * drmas — langfengQ/DrMAS@19c632bc0f75730b6db98d90b5035ee9bb7f66d1, verl/trainer/ppo/core_algos.py
 *   compute_grpo_outcome_advantage with group_by_agent_id (ray_trainer.py compute_advantage builds
 *   the group index `f"{uid}_{agent_id}"`): verl's formula per (prompt, agent) — torch.std (ddof 1),
 *   epsilon 1e-6, groups of one get mean 0, std 1.
 * c3 — EIT-EAST-Lab/C3@628185becc70732771393be28d087e88f0a4a5e8, c3/algorithms/magrpo.py,
 *   compute_magrpo / _group_stats (baseline "group_mean", normalize_adv): population variance
 *   `vsums / cnts`, `std = sqrt(var + eps)` with eps 1e-8 (the default; experience_maker.py does not
 *   pass one), then `/ std.clamp_min(eps)` (never binding, as std ≥ 1e-4). The "rloo" baseline is
 *   not modelled.
 * dr-grpo — mean-centred only: volcengine/verl@b178a3c… compute_grpo_outcome_advantage with
 *   norm_adv_by_std_in_grpo=False (`scores - mean`, a group of one keeps its score, mean 0); the same
 *   as OpenRLHF's "dr_grpo" estimator apart from groups of one. CCPO (bhai114/ccpo@ea50d3a…,
 *   CCPO/examples/gspo_trainer/two_model/two_model_trainer.py _compute_grpo_like_advantage) calls
 *   verl's function, and its launch scripts set algorithm.norm_adv_by_std_in_grpo=False.
 */
const verlCommit = 'volcengine/verl@b178a3cd56f58b2d502255daba591e92833930a7';

const conventions: Readonly<Record<AdvantageConventionName, AdvantageConvention>> = {
  verl: {
    name: 'verl',
    summary: 'sample std, eps 1e-6',
    source: `${verlCommit} verl/trainer/ppo/core_algos.py compute_grpo_outcome_advantage`,
    options: { ddof: 1, eps: 1e-6, singleton: 'unit' },
  },
  trl: {
    name: 'trl',
    summary: 'sample std, eps 1e-4',
    source:
      'huggingface/trl@f2cd57710ae345ea6428ae95363267fcf38a3dc8 trl/trainer/grpo_trainer.py (scale_rewards="group")',
    options: { ddof: 1, eps: 1e-4 },
  },
  openrlhf: {
    name: 'openrlhf',
    summary: 'sample std, eps 1e-9',
    source:
      'OpenRLHF/OpenRLHF@3c3be6234e0cb353e76bb8019947db9dfe99fca7 openrlhf/trainer/ppo_utils/experience_maker.py (group_norm)',
    options: { ddof: 1, eps: 1e-9 },
  },
  drmas: {
    name: 'drmas',
    summary: 'per-agent groups, sample std, eps 1e-6',
    source:
      'langfengQ/DrMAS@19c632bc0f75730b6db98d90b5035ee9bb7f66d1 verl/trainer/ppo/core_algos.py compute_grpo_outcome_advantage (group_by_agent_id)',
    options: { ddof: 1, eps: 1e-6, singleton: 'unit' },
  },
  c3: {
    name: 'c3',
    summary: 'population std, eps 1e-8 inside the sqrt',
    source: 'EIT-EAST-Lab/C3@628185becc70732771393be28d087e88f0a4a5e8 c3/algorithms/magrpo.py compute_magrpo',
    options: { ddof: 0, eps: 1e-8, epsPlacement: 'inside' },
  },
  'dr-grpo': {
    name: 'dr-grpo',
    summary: 'mean-centred, no std',
    source: `${verlCommit} verl/trainer/ppo/core_algos.py compute_grpo_outcome_advantage (norm_adv_by_std_in_grpo=False)`,
    options: { centerOnly: true, singleton: 'unit' },
  },
};

/** The convention named `name` (or one of its aliases, case-insensitive), or undefined. */
export function findAdvantageConvention(name: string): AdvantageConvention | undefined {
  const key = name.trim().toLowerCase();
  const canonical = (advantageConventionNames as readonly string[]).includes(key)
    ? (key as AdvantageConventionName)
    : aliases[key];
  return canonical ? conventions[canonical] : undefined;
}

/** Every convention, in table order. */
export function allAdvantageConventions(): readonly AdvantageConvention[] {
  return advantageConventionNames.map((n) => conventions[n]);
}

/**
 * GRPO advantages of one (prompt group, agent) group as the named trainer computes them: see
 * {@link grpoAdvantages} for NaN handling and constant groups (A = 0).
 */
export function advantagesFor(
  convention: AdvantageConvention | AdvantageConventionName,
  values: ArrayLike<number>,
): Float64Array {
  const c = typeof convention === 'string' ? conventions[convention] : convention;
  return grpoAdvantages(values, c.options);
}
