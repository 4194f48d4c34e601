import type { AgentComparison, PairingSummary } from '../../core/runComparison';
import type { CompareEpisode, CompareFailures, CompareParamSet } from '../../store/compareRepository';
import { count, plural } from '../report/format';
import type { PromptKeys } from './promptKeys';
import type { ResolvedSide } from './sideReader';

/** What the comparison read of one side. */
export interface SideFacts {
  readonly resolved: ResolvedSide;
  readonly root: string | undefined;
  /** The parameter set of the side's credit rows: of the run's sets for the method, the one covering the most episodes. */
  readonly paramsHash: string;
  /** How many of the run's episodes it covers. */
  readonly covered: number;
  /** Sets written after it that cover fewer episodes (an episode recomputed on its own): not compared. */
  readonly newer: readonly CompareParamSet[];
  readonly episodes: readonly CompareEpisode[];
  readonly failures: readonly CompareFailures[];
}

export interface NotesInput {
  readonly method: string;
  readonly a: SideFacts;
  readonly b: SideFacts;
  readonly pairing: PairingSummary;
  readonly agents: readonly AgentComparison[];
  /** Whether each side's run was audited. */
  readonly audited: readonly [boolean, boolean];
  /** Present when the sides were paired (or tried) by prompt. */
  readonly prompts?: readonly [PromptKeys, PromptKeys];
}

/** The command that would store the method's credit for the sides' runs. */
export function creditRemedy(method: string, sides: readonly SideFacts[]): string {
  const runs = [
    ...new Set(sides.map((s) => `${s.root ?? '<run-dir>'} --method ${method} --run ${s.resolved.side.run}`)),
  ];
  return `run ${runs.map((r) => `\`credit-lens credit ${r}\``).join(' and ')} first`;
}

/**
 * Plain sentences for the reader (credit-methods.md §5.5): how the episodes were paired and what
 * was excluded, the parameter sets read, episodes without credit, sides never audited, and the test.
 */
export function comparisonNotes(input: NotesInput): string[] {
  return [
    ...pairingNotes(input),
    ...[input.a, input.b].flatMap((side, i) => sideNotes(input, side, i === 0 ? 'A' : 'B')),
    ...agentNotes(input.agents),
    `Intervals are 95% and p two-sided, from the paired differences B − A: Student t (n − 1 df) below 30 pairs, normal at 30 and above; shares by the delta method.`,
  ];
}

function pairingNotes({ pairing, a, b, prompts }: NotesInput): string[] {
  const notes: string[] = [];
  const labels = `${a.resolved.side.label} and ${b.resolved.side.label}`;
  if (pairing.key === 'none') {
    notes.push(
      `No episode of ${labels} could be paired: they share no task id${prompts ? ' and no prompt' : ''}. Compare runs trained on the same tasks, or step ranges that revisit the same prompts${prompts ? '' : ' (prompts are read back from the trace folder when it is known)'}.`,
    );
  } else {
    notes.push(
      `${plural(pairing.pairs, 'pair')} of episodes by ${pairing.key === 'task' ? 'task id' : 'prompt (a hash of its text)'}.`,
    );
    if (pairing.ambiguousKeys > 0)
      notes.push(
        `${plural(pairing.ambiguousKeys, pairing.key === 'task' ? 'task id' : 'prompt')} held several episodes on a side (GRPO rollouts): paired by group and rollout index where both log them, else in logged order.`,
      );
  }
  if (pairing.unpairedA + pairing.unpairedB > 0)
    notes.push(
      `Excluded, no partner on the other side: ${count(pairing.unpairedA)} of ${count(pairing.episodesA)} episodes of ${a.resolved.side.label}, ${count(pairing.unpairedB)} of ${count(pairing.episodesB)} of ${b.resolved.side.label}.`,
    );
  for (const [i, keys] of (prompts ?? []).entries()) {
    const label = (i === 0 ? a : b).resolved.side.label;
    if (keys.otherFormat > 0)
      notes.push(
        `${plural(keys.otherFormat, 'episode')} of ${label} are not canonical JSONL: their prompts were not read (a task id would pair them).`,
      );
    if (keys.unreadable > 0) notes.push(`${plural(keys.unreadable, 'episode')} of ${label} without a readable prompt.`);
  }
  return notes;
}

function sideNotes(input: NotesInput, side: SideFacts, which: 'A' | 'B'): string[] {
  const label = side.resolved.side.label;
  const notes = [
    `${label}: ${input.method} credit of parameter set ${side.paramsHash.slice(0, 12)} (${plural(side.covered, 'episode')} of the run, the set covering the most).`,
  ];
  if (side.newer.length > 0)
    notes.push(
      `${label}: newer ${input.method} credit under ${side.newer.map((set) => `${set.paramsHash.slice(0, 12)} (${plural(set.episodes, 'episode')})`).join(', ')} is not compared: it covers fewer episodes (recomputed on their own, e.g. from the Episode view); recompute the run with those settings to compare them.`,
    );
  for (const f of side.failures)
    notes.push(
      `${label}: ${plural(f.episodes, 'episode')} without ${input.method} credit (${f.status === 'not-identifiable' ? 'not identifiable' : 'failed'}: ${f.reason}${f.remedy ? `; what would answer it: ${f.remedy}` : ''}); their pairs are left out of the credit differences.`,
    );
  const audited = input.audited[which === 'A' ? 0 : 1];
  if (audited && side.resolved.side.steps)
    notes.push(`${label}: flags are the run's last audit, kept when their step window overlaps the side's steps.`);
  if (!audited)
    notes.push(
      `${label} has no audit yet, so flags are not compared; run \`credit-lens audit ${side.root ?? '<run-dir>'} --run ${side.resolved.side.run}\`.`,
    );
  return notes;
}

function agentNotes(agents: readonly AgentComparison[]): string[] {
  return agents.flatMap((agent) => {
    const weak = [agent.statusA, agent.statusB].filter((s) => s === 'approximate');
    return weak.length > 0
      ? [
          `${agent.agent}: some credit is approximate (an agent later agents read was removed without re-generating them): read the difference with care.`,
        ]
      : [];
  });
}
