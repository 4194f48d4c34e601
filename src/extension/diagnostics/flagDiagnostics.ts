import type { BrowseFlag, BrowseParseError } from '../../store/browseRepository';
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

/** One diagnostic on a trace line: `uri` relative to the indexed folder, `line` 1-based. */
export interface TraceDiagnostic {
  readonly uri: string;
  readonly line: number;
  readonly severity: DiagnosticLevel;
  readonly message: string;
  readonly source: 'Credit Lens';
  readonly code: string;
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
  // A flag that concerns several trace lines (each episode a silent agent is silent in) is shown at each.
  const fromFlags = flags.flatMap((flag): TraceDiagnostic[] =>
    (flag.locations && flag.locations.length > 0 ? flag.locations : flag.location ? [flag.location] : []).map((at) => ({
      uri: at.uri,
      line: Math.max(1, at.line),
      severity: severity(flag.kind),
      message: flagMessage(flag),
      source: 'Credit Lens',
      code: flag.kind,
    })),
  );
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
