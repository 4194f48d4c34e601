import type { RosterAgent } from '../../../../src/store/episodeViewRepository';

/** A declared LLM agent of a stored roster at `ordinal` (agent id 10 + ordinal), with nothing counted yet. */
export function rosterAgent(name: string, ordinal: number): RosterAgent {
  return {
    agentId: 10 + ordinal,
    name,
    kind: 'llm',
    ordinal,
    declared: true,
    messages: 0,
    tokens: null,
    reward: null,
    advantage: null,
  };
}
