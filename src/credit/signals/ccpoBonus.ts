/** How the CCPO bonus is computed from the joint reward and the prompt's solo baseline. */
export type CcpoBonusMode = 'event' | 'delta';

/** Options of {@link ccpoBonus}. */
export interface CcpoOptions {
  /** Weight of the bonus in the Thinker's reward. Default 0.2 (the CCPO default). */
  readonly lambda?: number;
  /** `event` (default): `helped − hurt`; `delta`: `(R_joint − solo_baseline)/2`. */
  readonly mode?: CcpoBonusMode;
}

/** CCPO's per-rollout rewards for one prompt group, aligned with the inputs. */
export interface CcpoRewards {
  /** Prompt-group mean of `R_solo`; NaN for an empty group. */
  readonly soloBaseline: number;
  readonly bonus: Float64Array;
  /** `R_joint + λ·bonus`. */
  readonly thinker: Float64Array;
  /** `R_joint` (a copy): the Solver trains on the joint reward. */
  readonly solver: Float64Array;
}

/**
 * CCPO's counterfactual bonus for a Thinker → Solver pair (credit-methods.md §3.11, code
 * `bhai114/ccpo` two-model trainer; oracle E7b). Per rollout of one prompt, `joint` is the Solver's
 * reward with the thought and `solo` its reward re-run on the problem alone, both in ±1 units.
 *
 * * `solo_baseline = mean(solo)` over the group (a prompt-level baseline, not per-sample LOO);
 * * event mode: `helped = R_joint > 0 ∧ solo_baseline < 0`, `hurt = R_joint < 0 ∧ solo_baseline > 0`,
 *   `bonus = helped − hurt` ∈ {−1, 0, 1}; delta mode: `bonus = (R_joint − solo_baseline)/2`;
 * * `r_thinker = R_joint + λ·bonus`, `r_solver = R_joint`. CCPO then applies GRPO/GSPO without std
 *   normalisation (`grpoAdvantages(x, {centerOnly: true})`).
 *
 * NaN in `joint` propagates to that rollout; NaN in `solo` makes the baseline NaN (and every event
 * bonus 0, since comparisons with NaN are false). `joint` and `solo` must have the same length
 * (a programmer error throws RangeError).
 */
export function ccpoBonus(joint: ArrayLike<number>, solo: ArrayLike<number>, options: CcpoOptions = {}): CcpoRewards {
  const { lambda = 0.2, mode = 'event' } = options;
  if (joint.length !== solo.length)
    throw new RangeError(`joint (${joint.length}) and solo (${solo.length}) rewards must be aligned per rollout`);
  const n = joint.length;
  let sum = 0;
  for (let g = 0; g < n; g++) sum += solo[g] ?? NaN;
  const soloBaseline = sum / n;
  const bonus = new Float64Array(n);
  const thinker = new Float64Array(n);
  const solver = new Float64Array(n);
  for (let g = 0; g < n; g++) {
    const r = joint[g] ?? NaN;
    bonus[g] = mode === 'delta' ? (r - soloBaseline) / 2 : eventBonus(r, soloBaseline);
    thinker[g] = r + lambda * (bonus[g] ?? NaN);
    solver[g] = r;
  }
  return { soloBaseline, bonus, thinker, solver };
}

function eventBonus(joint: number, soloBaseline: number): number {
  const helped = joint > 0 && soloBaseline < 0;
  const hurt = joint < 0 && soloBaseline > 0;
  return Number(helped) - Number(hurt);
}
