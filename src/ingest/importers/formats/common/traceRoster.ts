import type { AgentDecl } from '../../../../core/episode';
import { definedOnly } from './json';

/**
 * An episode's roster under construction: declared agents first (the run manifest's, then the
 * format's own declarations), then speakers in order of first appearance (trace-formats.md §5
 * `episode_agent`: declared-but-silent agents stay listed). The first declaration of a name wins.
 * With `foldCase`, names that differ only in case are one agent spelt as first declared (Who&When
 * logs both `WebSurfer` and `Websurfer`, §3.1).
 */
export class TraceRoster {
  private readonly agents: AgentDecl[] = [];
  private readonly byKey = new Map<string, string>();

  constructor(
    seed: readonly AgentDecl[],
    private readonly foldCase = false,
  ) {
    for (const agent of seed) this.add(agent);
  }

  /** Adds `agent` unless an agent of that name is listed; returns the listed spelling. */
  add(agent: AgentDecl): string {
    const listed = this.resolve(agent.name);
    if (listed !== undefined) return listed;
    this.byKey.set(this.key(agent.name), agent.name);
    this.agents.push(definedOnly(agent));
    return agent.name;
  }

  /** The listed spelling of `name`, or undefined when no such agent is listed. */
  resolve(name: string): string | undefined {
    return this.byKey.get(this.key(name));
  }

  /** The roster in order. */
  list(): AgentDecl[] {
    return [...this.agents];
  }

  private key(name: string): string {
    return this.foldCase ? name.toLowerCase() : name;
  }
}
