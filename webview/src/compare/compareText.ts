import type { ComparisonView } from '../../../src/protocol/comparePanel';
import { formatCredit, formatInt, formatP, formatPercent, formatPointChange } from '../kit/format';

// The words and numbers of the Compare view, shared by its chart, its table and its sections, so
// one figure reads the same everywhere. Pure: no DOM.

export type AgentView = ComparisonView['agents'][number];
export type DifferenceView = ComparisonView['reward'];
export type FlagChangeView = ComparisonView['flags'][number];
export type ExamplePairView = ComparisonView['examples'][number];
type Status = AgentView['statusA'];

const statusWords: Readonly<Record<Status, string>> = {
  exact: 'exact',
  estimated: 'estimated',
  approximate: 'approximate',
  'not-identifiable': 'not identifiable',
};

/** A side's status in words ("not identifiable", never a bare id). */
export function statusText(status: Status): string {
  return statusWords[status];
}

/** Whether the agent's difference has a number to show: both sides identifiable, at least one pair, a finite mean. */
export function hasDifference(agent: AgentView): boolean {
  return (
    agent.statusA !== 'not-identifiable' &&
    agent.statusB !== 'not-identifiable' &&
    agent.credit.n !== null &&
    agent.credit.n > 0 &&
    agent.credit.difference !== null
  );
}

/** Whether a difference has both ends of its 95% interval (it needs 2 pairs or more). */
export function hasInterval(d: DifferenceView): boolean {
  return d.interval[0] !== null && d.interval[1] !== null;
}

/** `[+0.050, +0.190]`, or why there is none. */
export function intervalText(d: DifferenceView): string {
  if (!hasInterval(d)) return 'no interval (fewer than 2 pairs)';
  return `[${formatCredit(d.interval[0])}, ${formatCredit(d.interval[1])}]`;
}

/** Which test gave the interval and p: Student t below 30 pairs, normal at 30 and above. */
export function testText(d: DifferenceView): string {
  return d.test === 't' ? 'paired t' : 'normal';
}

/** `12 pairs` / `1 pair`. */
export function pairsText(n: number | null): string {
  return count(n, 'pair');
}

/** `+0.120 [+0.050, +0.190], p = 0.003 (paired t, 12 pairs)`: a difference as the chart's label says it. */
export function differenceText(d: DifferenceView): string {
  const stats = hasInterval(d) ? `, ${formatP(d.p)} (${testText(d)}, ${pairsText(d.n)})` : ` (${pairsText(d.n)})`;
  return `${formatCredit(d.difference)} ${intervalText(d)}${stats}`;
}

/** Why an agent has no difference: the engine's `missing` text, else what the pairs lacked. */
export function missingText(agent: AgentView): string {
  if (agent.missing) return agent.missing;
  if ((agent.credit.n ?? 0) === 0) return 'no pair carries this agent\u2019s credit on both sides';
  return 'not identifiable from the stored credit';
}

/** The agent's difference in words, or "not identifiable: …" with what would answer it. */
export function agentDifferenceText(agent: AgentView): string {
  return hasDifference(agent) ? differenceText(agent.credit) : `not identifiable: ${missingText(agent)}`;
}

/** `18.0% → 31.0%`; a side without positive credit reads `—`. */
export function shareText(agent: AgentView): string {
  return `${formatPercent(agent.shareA)} \u2192 ${formatPercent(agent.shareB)}`;
}

/** The share change B − A in percentage points, or null when a side has no share. */
export function shareChange(agent: AgentView): number | null {
  return agent.shareA === null || agent.shareB === null ? null : agent.shareB - agent.shareA;
}

/** `+11.0 pp [+9.7, +12.3] pp`: the engine's paired share difference with its interval, else the plain change. */
export function shareChangeText(agent: AgentView): string {
  const share = agent.share;
  if (!share || share.difference === null) return formatPointChange(shareChange(agent));
  if (share.interval[0] === null || share.interval[1] === null) return formatPointChange(share.difference);
  const bound = (x: number): string => formatPointChange(x).replace(' pp', '');
  return `${formatPointChange(share.difference)} [${bound(share.interval[0])}, ${bound(share.interval[1])}] pp`;
}

/** A side's status with where its values came from: `exact (logged)`; the status alone when no source is stored. */
export function statusSourceText(status: Status, source: string | null | undefined): string {
  return source ? `${statusText(status)} (${source})` : statusText(status);
}

/** `free-rider disappeared`, `idle appeared (steps 25–40)`. */
export function flagChangeText(flag: FlagChangeView): string {
  const steps = flag.change === 'disappeared' ? flag.stepsA : flag.stepsB;
  return `${flag.kind} ${flag.change}${steps ? ` (${stepsText(steps)})` : ''}`;
}

/** `steps 25–40`, `step 7`. */
export function stepsText(steps: readonly [number | null, number | null]): string {
  const [from, to] = steps;
  return from === to ? `step ${String(from)}` : `steps ${String(from)}\u2013${String(to)}`;
}

/**
 * The pairing summary in sentences: how many pairs on what key, and the episodes without a partner
 * (counted and excluded, and said so).
 */
export function pairingSentences(c: ComparisonView): string[] {
  const p = c.pairing;
  const sentences: string[] = [];
  if (p.key === 'none' || p.pairs === 0)
    sentences.push(
      `No episode of ${c.a.label} could be paired with one of ${c.b.label}: they share no task or prompt.`,
    );
  else
    sentences.push(`${pairsText(p.pairs)} by ${p.key}, of ${count(p.episodesA)} in A and ${count(p.episodesB)} in B.`);
  if ((p.unpairedA ?? 0) > 0 || (p.unpairedB ?? 0) > 0)
    sentences.push(
      `Unpaired, counted and excluded: ${count(p.unpairedA)} of A and ${count(p.unpairedB)} of B had no partner on the other side.`,
    );
  if ((p.ambiguousKeys ?? 0) > 0)
    sentences.push(
      `${count(p.ambiguousKeys, 'key')} matched several episodes on a side (GRPO rollouts): paired by group and rollout index, else in order.`,
    );
  return sentences;
}

function count(n: number | null, noun = 'episode'): string {
  const value = n ?? 0;
  return `${formatInt(value)} ${noun}${value === 1 ? '' : 's'}`;
}
