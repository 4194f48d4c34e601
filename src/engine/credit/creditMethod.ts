/** The credit signals a pass can compute (credit-methods.md §3). */
export const creditMethods = ['shared', 'loo', 'shapley', 'shapley-mc', 'routing', 'prefix', 'owen'] as const;
export type CreditMethodName = (typeof creditMethods)[number];

/** Methods that give one value per message (their agent value is the sum over its messages). */
export const perMessageMethods: ReadonlySet<CreditMethodName> = new Set(['prefix', 'owen']);

/** Methods that need coalition values v(S) (logged, cached or evaluated). */
export const coalitionMethods: ReadonlySet<CreditMethodName> = new Set(['loo', 'shapley', 'shapley-mc']);

export function isCreditMethod(name: string): name is CreditMethodName {
  return (creditMethods as readonly string[]).includes(name);
}

/** Largest roster for exact Shapley (2^n coalitions per episode). */
export const maxExactAgents = 16;
/** Largest episode for exact per-message Owen values (2^messages coalitions). */
export const maxOwenMessages = 14;
