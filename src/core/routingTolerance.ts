/**
 * How far from 1 a router's probabilities may sum (docs/trace-format.md §2.5). The indexer checks
 * `routing.probs` and `routing.behaviourProbs` with it, and the credit engine checks the same
 * distributions again with it, so a decision that was indexed is never rejected at credit time for
 * its sum.
 */
export const routingProbabilityTolerance = 1e-3;

/**
 * Slack for floating-point rounding of the sum itself, so that `0.5 + 0.499` (0.9990000000000001
 * from 1 by more than 0.001 in binary) counts as exactly at the tolerance, whatever the order in
 * which the probabilities are added.
 */
const roundingSlack = 1e-12;

/** True when `sum` is within {@link routingProbabilityTolerance} of 1 (inclusive). */
export function sumsToOne(sum: number): boolean {
  return Math.abs(sum - 1) <= routingProbabilityTolerance + roundingSlack;
}
