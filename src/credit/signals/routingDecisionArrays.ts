import type { RoutingDecision } from '../../core/episode';
import { err, ok, type Result } from '../../core/result';

/** A {@link RoutingDecision} as arrays aligned with a roster of expert names. */
export interface RoutingArrays {
  readonly probs: Float64Array;
  /** Index of the selected expert in the roster. */
  readonly selected: number;
  readonly behaviourProbs?: Float64Array;
}

/**
 * Aligns a logged routing decision (keyed by expert name) with `experts`, the roster order used for
 * every per-expert array (credit-methods.md §3.4, §6.1). Errors when an expert has no logged
 * probability (the estimates need **all** of them), when the decision names an expert outside the
 * roster, or when the selected expert is not in the roster. Values are copied as logged; run
 * {@link routingEstimates} (./routingEstimates) to check that they form distributions.
 */
export function routingDecisionArrays(decision: RoutingDecision, experts: readonly string[]): Result<RoutingArrays> {
  const probs = alignedProbabilities(decision.probs, experts, 'router');
  if (!probs.ok) return probs;
  const selected = experts.indexOf(decision.selected);
  if (selected < 0) return err(`selected expert '${decision.selected}' is not in the roster (${experts.join(', ')})`);
  if (decision.behaviourProbs === undefined) return ok({ probs: probs.value, selected });
  const behaviourProbs = alignedProbabilities(decision.behaviourProbs, experts, 'behaviour router');
  if (!behaviourProbs.ok) return behaviourProbs;
  return ok({ probs: probs.value, selected, behaviourProbs: behaviourProbs.value });
}

function alignedProbabilities(
  logged: Readonly<Record<string, number>>,
  experts: readonly string[],
  label: string,
): Result<Float64Array> {
  for (const name of Object.keys(logged)) {
    if (!experts.includes(name))
      return err(`${label} probability logged for '${name}', which is not in the roster (${experts.join(', ')})`);
  }
  const aligned = new Float64Array(experts.length);
  for (const [k, name] of experts.entries()) {
    const p = Object.hasOwn(logged, name) ? logged[name] : undefined;
    if (p === undefined)
      return err(
        `${label} probability missing for expert '${name}': positivity needs the probabilities of all experts`,
      );
    aligned[k] = p;
  }
  return ok(aligned);
}
