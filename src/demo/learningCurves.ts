/**
 * The latent skill curves of the planner → solver → verifier demo run, as functions of training
 * progress. They are written for a 40-step run; a run of any other length is stretched onto the same
 * 40 "reference steps" so a short or very long run tells the same story.
 *
 * Why these levels (credit-methods.md §5.1, the reward–cooperation decoupling): the team reward is
 * `acc + (1 − acc)·catch`, so the verifier's early leave-one-out is `(1 − acc)·catch` and the early
 * reward is `acc + LOO`. For the reward to rise by ≥ 0.15 while the verifier's early LOO is ≥ 0.15,
 * the solver must start well below its final ≈ 0.94 and the verifier's early catch rate must stay
 * near 0.45 (a 0.75 catch rate on top of a 0.55 solver would already score 0.89 at step 1).
 */

/** The curves of one run variant. */
export interface LearningCurves {
  /** P(solver correct | planner's plan) at a step. */
  accWithPlan(step: number): number;
  /** P(solver correct | no plan): the solver re-run with the planner removed. */
  accNoPlan(step: number): number;
  /** P(verifier corrects a wrong solution) at a step. */
  catchRate(step: number): number;
  /** P(verifier writes a real check rather than an echo); at least `catchRate`. */
  engagement(step: number): number;
}

const earlyCatch = 0.45;
const controlCatch = 0.75;

/**
 * Curves for a run of `steps` steps. `freeRider` true: the verifier catches errors at ≈ 0.45 until
 * reference step 12, then decays to 0 by step 28 while the solver learns to work alone (≈ 0.40 →
 * 0.94). False (control): the verifier keeps improving (0.45 → 0.75) and the solver leans on it
 * (≈ 0.40 → 0.78).
 */
export function learningCurves(steps: number, freeRider: boolean): LearningCurves {
  const reference = (step: number): number => (steps <= 1 ? 1 : 1 + ((step - 1) / (steps - 1)) * 39);
  const progress = (step: number): number => ramp((reference(step) - 1) / 39);
  const solverEnd = freeRider ? 0.94 : 0.78;
  const catchRate = freeRider
    ? (step: number): number => earlyCatch * decay(reference(step))
    : (step: number): number => earlyCatch + (controlCatch - earlyCatch) * progress(step);
  return {
    accWithPlan: (step) => 0.4 + (solverEnd - 0.4) * progress(step),
    accNoPlan: (step) => 0.3 + 0.2 * progress(step),
    catchRate,
    engagement: (step) => Math.min(1, catchRate(step) / earlyCatch),
  };
}

/** Mostly S-shaped learning progress in [0, 1]: slow start, fast middle, plateau. */
function ramp(p: number): number {
  const t = Math.min(1, Math.max(0, p));
  return 0.3 * t + 0.7 * t * t * (3 - 2 * t);
}

/** 1 up to reference step 12, a cosine fall to 0 at step 28, then 0: the verifier learns to idle. */
function decay(referenceStep: number): number {
  if (referenceStep <= 12) return 1;
  if (referenceStep >= 28) return 0;
  return (1 + Math.cos((Math.PI * (referenceStep - 12)) / 16)) / 2;
}
