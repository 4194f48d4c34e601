import type { CreditViewInput } from '../../../../src/engine/views/creditView';

/** A credit view input with an evaluator, message evaluations cached, and no error; `input` fills the rest. */
export function creditViewInput(
  input: Pick<CreditViewInput, 'method' | 'reward' | 'roster' | 'authors' | 'rows'>,
): CreditViewInput {
  return {
    evaluatorConfigured: true,
    error: undefined,
    evidence: {
      coalitions: false,
      counterfactuals: false,
      agentEvaluations: false,
      messageEvaluations: true,
      routing: false,
    },
    ...input,
  };
}
