import type { AuditFlag } from '../../core/auditReport';
import type { EpisodeFacts } from './auditFacts';

/** Most silent episodes listed per flag (the count is always exact). */
const maxLocations = 1000;

/**
 * `silent`: an agent declared in the roster that never acts (credit-methods.md §5; trace-formats.md
 * §5 "silent_declared"). Needs no credit computation. One flag per agent, with how many of the
 * episodes that declare it it stayed silent in, located at the first such episode and listing
 * every one (up to 1,000) in `locations`.
 */
export function silentFlags(episodes: readonly EpisodeFacts[]): AuditFlag[] {
  const tally = new Map<
    string,
    { declared: number; silent: number; first?: EpisodeFacts; steps: number[]; at: EpisodeFacts[] }
  >();
  for (const e of episodes) {
    for (const a of e.agents) {
      if (!a.declared) continue;
      const t = tally.get(a.name) ?? { declared: 0, silent: 0, steps: [], at: [] };
      t.declared++;
      if (a.messages === 0) {
        t.silent++;
        t.first ??= e;
        t.steps.push(e.step);
        if (t.at.length < maxLocations) t.at.push(e);
      }
      tally.set(a.name, t);
    }
  }
  const flags: AuditFlag[] = [];
  for (const [agent, t] of tally) {
    if (t.silent === 0 || !t.first) continue;
    const steps = range(t.steps);
    flags.push({
      kind: 'silent',
      agent,
      scope: t.silent === t.declared ? 'run' : 'episode',
      ...(steps ? { steps } : {}),
      ...(t.silent === t.declared ? {} : { episode: t.first.externalId }),
      location: { uri: t.first.uri, line: t.first.line },
      locations: t.at.map((e) => ({ uri: e.uri, line: e.line, episode: e.externalId })),
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

function range(steps: readonly number[]): [number, number] | undefined {
  if (steps.length === 0) return undefined;
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of steps) {
    lo = Math.min(lo, s);
    hi = Math.max(hi, s);
  }
  return [lo, hi];
}
