import type { AgentDecl } from '../../../../core/episode';

/**
 * The roster name `raw` stands for: the same name, else the one that differs only in case (C3 logs
 * `reasoner` in eval lines and `Reasoner` in buckets; run.json may say `Thinker`). Undefined when
 * the roster has no such agent.
 */
export function rosterName(raw: string, roster: readonly AgentDecl[]): string | undefined {
  if (roster.some((a) => a.name === raw)) return raw;
  const lower = raw.toLowerCase();
  return roster.find((a) => a.name.toLowerCase() === lower)?.name;
}

/**
 * A copy of the roster's declaration of `name`, else `fallback` under that name. Always a fresh
 * object: the indexer's decoder normalises episodes in place, so episodes never share objects.
 */
export function agentDecl(name: string, roster: readonly AgentDecl[], fallback: Omit<AgentDecl, 'name'>): AgentDecl {
  const declared = roster.find((a) => a.name === name);
  return declared ? { ...declared } : { name, ...fallback };
}

/** A trained LLM agent, the default declaration of the agents the RL dumps name. */
export const trainedLlm: Omit<AgentDecl, 'name'> = { kind: 'llm', trainable: true };

/**
 * The single agent of a single-policy dump (verl, TRL): the run roster's agent when it declares
 * exactly one, else `policy` (trace-formats.md §6: "single `policy` agent").
 */
export function singlePolicy(roster: readonly AgentDecl[]): AgentDecl {
  const only = roster.length === 1 ? roster[0] : undefined;
  return only ? { ...only } : { name: 'policy', ...trainedLlm };
}
