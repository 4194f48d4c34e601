import type { BrowseFlag, BrowseParseError } from '../../store/browseRepository';
import { stepSpan } from '../../engine/report/flagEvidence';
import { flagMessage } from './flagText';

/** A diagnostic severity, independent of the `vscode` enum so the mapping stays pure. */
export type DiagnosticLevel = 'error' | 'warning' | 'information' | 'hint';

/** The code of parse-error diagnostics, and its key in {@link SeverityByKind}. */
export const parseErrorCode = 'parse-error';

/** Severity per flag kind (and {@link parseErrorCode}); kinds left out keep their default. */
export type SeverityByKind = Readonly<Partial<Record<string, DiagnosticLevel>>>;

/** Verdicts about training warn; a silent agent informs (it needs no counterfactuals); unreadable lines are errors. */
export const defaultSeverities: Readonly<Record<string, DiagnosticLevel>> = {
  'free-rider': 'warning',
  idle: 'warning',
  decoupling: 'warning',
  dominant: 'warning',
  silent: 'information',
  [parseErrorCode]: 'error',
};

/** Most flagged episodes a diagnostic links to (Problems lists each under its entry). */
export const maxRelatedEpisodes = 50;

/** A trace line a diagnostic links to, with what it is (`episode s1-g0-r2`). */
export interface RelatedLine {
  readonly uri: string;
  readonly line: number;
  readonly message: string;
}

/** Where the dashboard opens for a flag: its run and, for a window, its steps. */
export interface DashboardLink {
  readonly runId: number;
  readonly steps?: readonly [number, number];
}

/** One diagnostic on a trace line: `uri` relative to the indexed folder, `line` 1-based. */
export interface TraceDiagnostic {
  readonly uri: string;
  readonly line: number;
  readonly severity: DiagnosticLevel;
  readonly message: string;
  readonly source: 'Credit Lens';
  readonly code: string;
  /** The other flagged episodes (a silent agent's), at most {@link maxRelatedEpisodes}. */
  readonly related?: readonly RelatedLine[];
  readonly dashboard?: DashboardLink;
}

/**
 * Maps flags and parse errors to diagnostics. A flag without a location gets none; line 0 (the
 * file as a whole) is shown on line 1. Unknown kinds are warnings unless `severities` names them.
 */
export function flagDiagnostics(
  flags: readonly BrowseFlag[],
  errors: readonly BrowseParseError[],
  severities: SeverityByKind = {},
): TraceDiagnostic[] {
  const severity = (kind: string): DiagnosticLevel => severities[kind] ?? defaultSeverities[kind] ?? 'warning';
  // A flag that concerns several trace lines (each episode a silent agent is silent in) is shown at
  // each, and each links to the others.
  const fromFlags = flags.flatMap((flag): TraceDiagnostic[] => {
    const lines = flag.locations && flag.locations.length > 0 ? flag.locations : flag.location ? [flag.location] : [];
    const dashboard = dashboardLink(flag);
    return lines.map((at, i) => {
      const related = relatedLines(lines, i);
      return {
        uri: at.uri,
        line: Math.max(1, at.line),
        severity: severity(flag.kind),
        message: flagMessage(flag),
        source: 'Credit Lens',
        code: flag.kind,
        ...(related.length > 0 ? { related } : {}),
        ...(dashboard ? { dashboard } : {}),
      };
    });
  });
  const fromErrors = errors.map((error): TraceDiagnostic => ({
    uri: error.uri,
    line: Math.max(1, error.line),
    severity: severity(parseErrorCode),
    message: error.line === 0 ? `unreadable file: ${error.reason}` : `unreadable line: ${error.reason}`,
    source: 'Credit Lens',
    code: parseErrorCode,
  }));
  return [...fromFlags, ...fromErrors];
}

/** The lines of a flag other than the `own`-th, as links named by their episode. */
function relatedLines(lines: NonNullable<BrowseFlag['locations']>, own: number): RelatedLine[] {
  return lines
    .filter((_, i) => i !== own)
    .slice(0, maxRelatedEpisodes)
    .map((at) => ({
      uri: at.uri,
      line: Math.max(1, at.line),
      message: at.episode === undefined ? 'another flagged episode' : `flagged episode ${at.episode}`,
    }));
}

function dashboardLink(flag: BrowseFlag): DashboardLink | undefined {
  if (flag.runId === undefined) return undefined;
  return flag.steps ? { runId: flag.runId, steps: flag.steps } : { runId: flag.runId };
}

/** `Open in Dashboard (steps 25–40)`, or `Open in Dashboard` for a flag without steps. */
export function dashboardActionTitle(link: DashboardLink): string {
  return link.steps ? `Open in Dashboard (${stepSpan(link.steps[0], link.steps[1])})` : 'Open in Dashboard';
}
