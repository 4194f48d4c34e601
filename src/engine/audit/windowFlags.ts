import type { AuditFlag, FlagKind } from '../../core/auditReport';
import type { AuditThresholds } from '../../credit/audit/auditThresholds';
import { creditShares, isDominant } from '../../credit/audit/creditShare';
import { mergeStepRanges, stepWindows, type StepWindow } from '../../credit/audit/stepWindows';
import { windowVerdict, type WindowEvidence } from '../../credit/audit/windowVerdict';
import type { EpisodeFacts } from './auditFacts';
import type { TraceLocation } from './stepTrends';

interface Hit {
  readonly window: StepWindow;
  readonly evidence: Readonly<Record<string, unknown>>;
}

/** The window flags of a run, and the verdicts that could not be reached in some window. */
export interface WindowFlagsResult {
  readonly flags: AuditFlag[];
  readonly unreachable: string[];
}

/** One agent's values in an open window, in episode order. */
interface AgentInWindow {
  /** Credit and reward of the episodes where both are known (its first roster entry). */
  readonly credit: number[];
  readonly rewards: number[];
  /** Of those, the episodes where it spoke. */
  spoke: number;
  /** Every verdict credit value (for its mean, the dominance share) and their statuses. */
  creditSum: number;
  creditN: number;
  readonly statuses: Record<string, number>;
}

/** What a finished window says of one agent: a verdict that cannot be reached, or a flag. */
type WindowOutcome = { readonly cannotJudge: string } | { readonly kind: FlagKind; readonly hit: Hit };

/** A finished window: each agent's outcome (if any) and mean verdict credit (0 without any). */
interface WindowResult {
  readonly outcomes: Map<string, WindowOutcome>;
  readonly means: Map<string, number>;
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
 *
 * The windows come from the run's episode counts per step, known before the episodes are fed (in
 * id order): an episode's values wait in its window until the window has all its episodes, then
 * the window is judged and its values dropped. A run logged in step order holds one window at a time.
 */
export class WindowTally {
  private readonly windows: StepWindow[];
  private readonly steps: number[];
  private readonly windowOf = new Map<number, number>();
  private readonly open = new Map<number, { seen: number; readonly agents: Map<string, AgentInWindow> }>();
  private readonly results: (WindowResult | undefined)[];

  constructor(
    stepCounts: readonly { readonly step: number; readonly episodes: number }[],
    private readonly thresholds: AuditThresholds,
  ) {
    this.steps = [...new Set(stepCounts.map((c) => c.step))].sort((a, b) => a - b);
    this.windows = stepWindows(stepCounts, thresholds.minEpisodesPerWindow);
    // Windows cover the sorted steps left to right: one walk over both.
    let k = 0;
    for (const step of this.steps) {
      while (k < this.windows.length && (this.windows[k]?.to ?? Infinity) < step) k++;
      if (k < this.windows.length) this.windowOf.set(step, k);
    }
    this.results = Array<WindowResult | undefined>(this.windows.length).fill(undefined);
  }

  add(e: EpisodeFacts): void {
    const k = this.windowOf.get(e.step);
    if (k === undefined) return;
    const open = this.open.get(k) ?? { seen: 0, agents: new Map<string, AgentInWindow>() };
    this.open.set(k, open);
    open.seen++;
    const first = new Set<string>();
    for (const a of e.agents) {
      const values = open.agents.get(a.name) ?? {
        credit: [],
        rewards: [],
        spoke: 0,
        creditSum: 0,
        creditN: 0,
        statuses: {},
      };
      open.agents.set(a.name, values);
      const isFirst = !first.has(a.name);
      first.add(a.name);
      if (a.credit === null) continue;
      values.creditSum += a.credit;
      values.creditN++;
      values.statuses[a.creditStatus] = (values.statuses[a.creditStatus] ?? 0) + 1;
      if (!isFirst || e.reward === null) continue;
      values.credit.push(a.credit);
      values.rewards.push(e.reward);
      if (a.messages > 0) values.spoke++;
    }
    if (open.seen >= (this.windows[k]?.episodes ?? 0)) this.close(k);
  }

  /** The flags of `agents` (the judged ones), located at the first episode at or after their first step. */
  flags(agents: readonly string[], locate: (step: number) => TraceLocation | undefined): WindowFlagsResult {
    for (const k of [...this.open.keys()]) this.close(k);
    const hits = new Map<string, Hit[]>();
    const add = (kind: FlagKind, agent: string, hit: Hit): void => {
      const key = `${kind}\u0000${agent}`;
      const list = hits.get(key);
      if (list) list.push(hit);
      else hits.set(key, [hit]);
    };
    const unreachable: string[] = [];
    this.windows.forEach((window, k) => {
      const result = this.results[k];
      for (const agent of agents) {
        const outcome = result?.outcomes.get(agent);
        if (outcome && 'cannotJudge' in outcome)
          unreachable.push(
            `idle and free-rider for ${agent} at steps ${window.from}–${window.to}: cannot judge: ${outcome.cannotJudge}`,
          );
        else if (outcome) add(outcome.kind, agent, outcome.hit);
      }
      const means = agents.map((agent) => result?.means.get(agent) ?? 0);
      for (const [agent, share] of dominantAgents(means, agents, this.thresholds))
        add('dominant', agent, { window, evidence: { from: window.from, to: window.to, creditShare: share } });
    });
    return { flags: [...hits].map(([key, list]) => toFlag(key, list, this.steps, locate)), unreachable };
  }

  /** Judges window `k` for every agent seen in it and drops its values. */
  private close(k: number): void {
    const open = this.open.get(k);
    const window = this.windows[k];
    this.open.delete(k);
    if (!open || !window) return;
    const outcomes = new Map<string, WindowOutcome>();
    const means = new Map<string, number>();
    for (const [agent, values] of open.agents) {
      means.set(agent, values.creditN === 0 ? 0 : values.creditSum / values.creditN);
      const outcome = agentOutcome(window, values, this.thresholds);
      if (outcome) outcomes.set(agent, outcome);
    }
    this.results[k] = { outcomes, means };
  }
}

function agentOutcome(
  window: StepWindow,
  values: AgentInWindow,
  thresholds: AuditThresholds,
): WindowOutcome | undefined {
  const verdict = agentVerdict(values, thresholds);
  if (!verdict || 'cannotJudge' in verdict) return verdict;
  if (verdict.verdict !== 'idle' && verdict.verdict !== 'free-rider') return undefined;
  // A team that mostly fails shares no reward worth the name: its idle agents are only idle.
  const kind = verdict.evidence.meanReward >= thresholds.freeRiderMinReward ? 'free-rider' : 'idle';
  return {
    kind,
    hit: { window, evidence: { ...windowJson(window, verdict.evidence), creditStatus: values.statuses } },
  };
}

function agentVerdict(
  values: AgentInWindow,
  thresholds: AuditThresholds,
): ReturnType<typeof windowVerdict> | { cannotJudge: string } | undefined {
  const { credit, rewards, spoke } = values;
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

/** Agents whose share of the window's positive mean credit reaches the dominance threshold. */
function dominantAgents(
  means: readonly number[],
  agents: readonly string[],
  thresholds: AuditThresholds,
): [string, number][] {
  if (agents.length < 2) return [];
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
  locate: (step: number) => TraceLocation | undefined,
): AuditFlag {
  const [kind = 'idle', agent = ''] = key.split('\u0000');
  const ranges = mergeStepRanges(
    hits.map((h) => [h.window.from, h.window.to] as [number, number]),
    steps,
  );
  const first = ranges[0] ?? [0, 0];
  const last = ranges[ranges.length - 1] ?? first;
  const whole = first[0] === steps[0] && last[1] === steps[steps.length - 1] && ranges.length === 1;
  const at = locate(first[0]);
  return {
    kind: kind as FlagKind,
    agent,
    scope: whole ? 'run' : 'step',
    steps: [first[0], last[1]],
    ...(at ? { location: { uri: at.uri, line: at.line } } : {}),
    evidence: { ranges, windows: hits.map((h) => h.evidence), score: hits.length },
  };
}
