import { schemeTableau10 } from 'd3-scale-chromatic';

/**
 * Agent colours shared by every chart of a view: Tableau 10 (designed to stay distinguishable for
 * the common colour-vision deficiencies), assigned in roster order so an agent keeps its colour
 * across charts; agents past the tenth reuse the palette. Unknown agents get the palette by hash of
 * their position after the roster.
 */
export function agentPalette(agents: readonly string[]): (agent: string) => string {
  const index = new Map(agents.map((agent, i) => [agent, i]));
  const extra = new Map<string, number>();
  return (agent) => {
    let i = index.get(agent);
    if (i === undefined) {
      i = extra.get(agent) ?? agents.length + extra.size;
      extra.set(agent, i);
    }
    return schemeTableau10[i % schemeTableau10.length] ?? '#888888';
  };
}
