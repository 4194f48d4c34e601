import type { AuditFlag } from '../../core/auditReport';
import type { EpisodeFacts } from './auditFacts';

/** Most silent episodes listed per flag (the count is always exact). */
const maxLocations = 1000;

/** Where a silent episode is. */
interface SilentAt {
  readonly uri: string;
  readonly line: number;
  readonly episode: string;
}

interface SilentTotals {
  declared: number;
  silent: number;
  /** Lowest and highest step of its silent episodes. */
  low: number;
  high: number;
  /** The first {@link maxLocations} silent episodes. */
  readonly at: SilentAt[];
}

/**
 * `silent`: an agent declared in the roster that never acts (credit-methods.md §5.2; trace-formats.md
 * §5: declared-but-silent agents stay in the roster). Needs no credit computation. One flag per agent,
 * with how many of the episodes that declare it it stayed silent in, located at the first such episode
 * and listing every one (up to 1,000) in `locations`. Fed episode by episode, in id order.
 */
export class SilentTally {
  private readonly tally = new Map<string, SilentTotals>();

  add(e: EpisodeFacts): void {
    for (const a of e.agents) {
      if (!a.declared) continue;
      const t = this.tally.get(a.name) ?? { declared: 0, silent: 0, low: Infinity, high: -Infinity, at: [] };
      this.tally.set(a.name, t);
      t.declared++;
      if (a.messages !== 0) continue;
      t.silent++;
      t.low = Math.min(t.low, e.step);
      t.high = Math.max(t.high, e.step);
      if (t.at.length < maxLocations) t.at.push({ uri: e.uri, line: e.line, episode: e.externalId });
    }
  }

  flags(): AuditFlag[] {
    const flags: AuditFlag[] = [];
    for (const [agent, t] of this.tally) {
      const first = t.at[0];
      if (t.silent === 0 || !first) continue;
      const whole = t.silent === t.declared;
      flags.push({
        kind: 'silent',
        agent,
        scope: whole ? 'run' : 'episode',
        steps: [t.low, t.high],
        ...(whole ? {} : { episode: first.episode }),
        location: { uri: first.uri, line: first.line },
        locations: t.at,
        evidence: {
          silentEpisodes: t.silent,
          declaredEpisodes: t.declared,
          share: t.silent / t.declared,
          score: t.silent / t.declared,
        },
      });
    }
    return flags;
  }
}

/** The silent flags of a list of episodes (in id order); see {@link SilentTally}. */
export function silentFlags(episodes: Iterable<EpisodeFacts>): AuditFlag[] {
  const tally = new SilentTally();
  for (const e of episodes) tally.add(e);
  return tally.flags();
}
