import type { BrowseFlag } from '../../store/browseRepository';
import {
  flagEvidence,
  flagEvidenceRows,
  flagMessage as messageText,
  flagScope as scopeText,
  flagSentence,
  type FlagFacts,
} from '../report/flagEvidence';
import type { FlagView, RunWindowsView } from './viewTypes';

/** A number with at most 3 decimals (`0.8333…` → `0.833`, `2` → `2`); NaN and ±Infinity as is. */
export function formatNumber(value: number): string {
  return Number.isFinite(value) ? String(Number(value.toFixed(3))) : String(value);
}

/** A stored flag as the one flag formatter (engine/report/flagEvidence.ts) reads it. */
export function flagFacts(flag: BrowseFlag): FlagFacts {
  return {
    kind: flag.kind,
    agent: flag.agent,
    scope: flag.scope,
    steps: flag.steps,
    episode: flag.scope === 'episode' ? flag.scopeId : null,
    evidence: flag.evidence,
  };
}

/** `steps 2–3`, `episode s1-g0-r1` or `the whole run`. */
export function flagScope(flag: BrowseFlag): string {
  return scopeText(flagFacts(flag));
}

/** The figures behind the verdict in words (`mean credit 0 (90% CI [0, 0]) …`); undefined when there are none. */
export function flagHeadline(flag: BrowseFlag): string | undefined {
  return flagEvidence(flagFacts(flag)) || undefined;
}

/** The verdict, its scope and its figures, without the kind: `verifier is idle … (steps 2–3): mean credit 0.001 …`. */
export function flagSummary(flag: BrowseFlag): string {
  return flagSentence(flagFacts(flag));
}

/** One sentence: the kind, then {@link flagSummary} (the Flags view, Problems, SARIF and the CLI say the same). */
export function flagMessage(flag: BrowseFlag): string {
  return messageText(flagFacts(flag));
}

/** A stored flag as the panels show it: its one-line summary and the evidence in words (without the location). */
export function flagView(flag: BrowseFlag): FlagView {
  return {
    flagId: flag.flagId,
    kind: flag.kind,
    agent: flag.agent,
    scope: flag.scope,
    steps: flag.steps,
    score: flag.score,
    summary: flagSummary(flag),
    evidence: flagEvidenceRows(flag.evidence),
  };
}

/** The episode an Episode view shows, as its flags are matched to it. */
export interface FlaggedEpisode {
  readonly runId: number;
  readonly externalId: string;
  readonly step: number | null;
}

/**
 * The flags of one Episode view: those about the episode (episode scope, naming it) as its own list,
 * and the run's step windows covering its step as one count. A window is a verdict about the run's
 * steps, not about each episode in them, so it never reads as the episode's flag (issue 16, item 6).
 */
export function episodeFlags(
  flags: readonly BrowseFlag[],
  episode: FlaggedEpisode,
): { readonly flags: FlagView[]; readonly runWindows: RunWindowsView | null } {
  const own = flags.filter((f) => f.scope === 'episode' && f.scopeId === episode.externalId);
  const { step } = episode;
  const windows = flags.flatMap((f) =>
    f.scope === 'step' && f.steps !== null && step !== null && f.steps[0] <= step && step <= f.steps[1]
      ? [f.steps]
      : [],
  );
  const runWindows: RunWindowsView | null =
    windows.length === 0 || step === null
      ? null
      : {
          runId: episode.runId,
          count: windows.length,
          step,
          steps: [Math.min(...windows.map((w) => w[0])), Math.max(...windows.map((w) => w[1]))],
        };
  return { flags: own.map(flagView), runWindows };
}
