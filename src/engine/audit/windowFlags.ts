import type { AuditFlag, FlagKind } from '../../core/auditReport';
import type { AuditThresholds } from '../../credit/audit/auditThresholds';
import { creditShares, isDominant } from '../../credit/audit/creditShare';
import { mergeStepRanges, stepWindows, type StepWindow } from '../../credit/audit/stepWindows';
import { windowVerdict, type WindowEvidence } from '../../credit/audit/windowVerdict';
import type { EpisodeFacts } from './auditFacts';

interface Hit {
  readonly window: StepWindow;
  readonly evidence: Readonly<Record<string, unknown>>;
}

/** The window flags of a run, and the verdicts that could not be reached in some window. */
export interface WindowFlagsResult {
  readonly flags: AuditFlag[];
  readonly unreachable: string[];
}

/**
 * `idle`, `free-rider` and `dominant` over windows of consecutive training steps holding at least
 * `minEpisodesPerWindow` episodes (credit-methods.md §5.2–5.3). Agents that never speak in a window
 * are left to the `silent` flag: they consume no budget. Adjacent flagged windows merge into one
 * flag whose evidence lists every window. An idle verdict needs the documented minimum of episodes
 * with identifiable credit in the window, and outcome variance: when every episode of the window
 * has the same outcome with and without the agent (a team that always fails, or always succeeds
 * whatever is removed), a zero marginal contribution cannot tell an idler from an agent that
 * cannot change that outcome, so the verdict is "cannot judge" (listed in `unreachable`).
 */
export function windowFlags(
  episodes: readonly EpisodeFacts[],
  agents: readonly string[],
  thresholds: AuditThresholds,
): WindowFlagsResult {
  const steps = [...new Set(episodes.map((e) => e.step))].sort((a, b) => a - b);
  const counts = steps.map((step) => ({ step, episodes: 0 }));
  const index = new Map(steps.map((s, i) => [s, i]));
  for (const e of episodes) (counts[index.get(e.step) ?? 0] as { episodes: number }).episodes++;
  const hits = new Map<string, Hit[]>();
  const add = (kind: FlagKind, agent: string, hit: Hit): void => {
    const key = `${kind}\u0000${agent}`;
    const list = hits.get(key);
    if (list) list.push(hit);
    else hits.set(key, [hit]);
  };
  const unreachable: string[] = [];
  for (const window of stepWindows(counts, thresholds.minEpisodesPerWindow)) {
    const inWindow = episodes.filter((e) => e.step >= window.from && e.step <= window.to);
    agents.forEach((agent) => {
      const verdict = agentVerdict(inWindow, agent, thresholds);
      if (verdict && 'cannotJudge' in verdict) {
        unreachable.push(
          `idle and free-rider for ${agent} at steps ${window.from}–${window.to}: cannot judge: ${verdict.cannotJudge}`,
        );
        return;
      }
      if (!verdict || (verdict.verdict !== 'idle' && verdict.verdict !== 'free-rider')) return;
      // A team that mostly fails shares no reward worth the name: its idle agents are only idle.
      const kind = verdict.evidence.meanReward >= thresholds.freeRiderMinReward ? 'free-rider' : 'idle';
      add(kind, agent, {
        window,
        evidence: { ...windowJson(window, verdict.evidence), creditStatus: statusCounts(inWindow, agent) },
      });
    });
    for (const [agent, share] of dominantAgents(inWindow, agents, thresholds))
      add('dominant', agent, { window, evidence: { from: window.from, to: window.to, creditShare: share } });
  }
  return { flags: [...hits].map(([key, list]) => toFlag(key, list, steps, episodes)), unreachable };
}

function agentVerdict(
  episodes: readonly EpisodeFacts[],
  agent: string,
  thresholds: AuditThresholds,
): ReturnType<typeof windowVerdict> | { cannotJudge: string } | undefined {
  const credit: number[] = [];
  const rewards: number[] = [];
  let spoke = 0;
  for (const e of episodes) {
    const a = e.agents.find((x) => x.name === agent);
    if (!a || a.credit === null || e.reward === null) continue;
    credit.push(a.credit);
    rewards.push(e.reward);
    if (a.messages > 0) spoke++;
  }
  if (credit.length === 0 || spoke === 0) return undefined;
  const minEpisodes = thresholds.minEpisodesPerWindow;
  if (credit.length < minEpisodes) {
    return {
      cannotJudge: `${credit.length} episode(s) with identifiable credit, fewer than the ${minEpisodes} a verdict needs (minEpisodesPerWindow)`,
    };
  }
  const without = credit.map((c, i) => (rewards[i] ?? 0) - c);
  const outcomes = new Set([...rewards, ...without]);
  if (outcomes.size === 1) {
    return {
      cannotJudge: `every one of the ${credit.length} episodes has outcome ${[...outcomes][0]} with and without it, so a zero contribution cannot be told from an agent that cannot change the outcome; episodes with varied outcomes (or counterfactuals that change them) would answer it`,
    };
  }
  return windowVerdict(credit, rewards, without, {
    ...(thresholds.epsilon !== undefined ? { epsilon: thresholds.epsilon } : {}),
    minEpisodes,
  });
}

/** How many of the agent's values in the window are exact or estimated (the only kinds a verdict uses). */
function statusCounts(episodes: readonly EpisodeFacts[], agent: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of episodes)
    for (const a of e.agents)
      if (a.name === agent && a.credit !== null) counts[a.creditStatus] = (counts[a.creditStatus] ?? 0) + 1;
  return counts;
}

/** Agents whose share of the window's positive mean credit reaches the dominance threshold. */
function dominantAgents(
  episodes: readonly EpisodeFacts[],
  agents: readonly string[],
  thresholds: AuditThresholds,
): [string, number][] {
  if (agents.length < 2) return [];
  const means = agents.map((agent) => {
    const values = episodes.flatMap((e) =>
      e.agents.filter((a) => a.name === agent && a.credit !== null).map((a) => a.credit as number),
    );
    return values.length === 0 ? 0 : values.reduce((s, v) => s + v, 0) / values.length;
  });
  const shares = creditShares(means);
  return agents.flatMap((agent, i) =>
    isDominant(shares, i, thresholds.dominantShare) ? [[agent, shares[i] ?? 0] as [string, number]] : [],
  );
}

function windowJson(window: StepWindow, evidence: WindowEvidence): Record<string, unknown> {
  return { from: window.from, to: window.to, ...evidence };
}

function toFlag(
  key: string,
  hits: readonly Hit[],
  steps: readonly number[],
  episodes: readonly EpisodeFacts[],
): AuditFlag {
  const [kind = 'idle', agent = ''] = key.split('\u0000');
  const ranges = mergeStepRanges(
    hits.map((h) => [h.window.from, h.window.to] as [number, number]),
    steps,
  );
  const first = ranges[0] ?? [0, 0];
  const last = ranges[ranges.length - 1] ?? first;
  const whole = first[0] === steps[0] && last[1] === steps[steps.length - 1] && ranges.length === 1;
  const at = episodes.find((e) => e.step >= first[0]);
  return {
    kind: kind as FlagKind,
    agent,
    scope: whole ? 'run' : 'step',
    steps: [first[0], last[1]],
    ...(at ? { location: { uri: at.uri, line: at.line } } : {}),
    evidence: { ranges, windows: hits.map((h) => h.evidence), score: hits.length },
  };
}
