import type { BrowseFlag } from '../../store/browseRepository';
import type { FlagView } from './viewTypes';

/** What each verdict means, in a few words (credit-methods.md §5). */
const verdicts: Readonly<Record<string, (agent: string) => string>> = {
  silent: (agent) => `${agent} is declared in the roster but never acts`,
  idle: (agent) => `${agent}'s marginal contribution is indistinguishable from zero`,
  'free-rider': (agent) => `${agent} is idle while the team earns reward`,
  dominant: (agent) => `${agent} holds almost all of the positive credit`,
  decoupling: (agent) => `the team reward rises while ${agent}'s credit share falls`,
};

/** Evidence keys that restate the flag's scope or ranking rather than explain it. */
const notHeadline = new Set(['score', 'from', 'to', 'location']);

/** A number with at most 3 decimals (`0.8333…` → `0.833`, `2` → `2`); NaN and ±Infinity as is. */
export function formatNumber(value: number): string {
  return Number.isFinite(value) ? String(Number(value.toFixed(3))) : String(value);
}

/** An evidence value on one line: numbers rounded, strings as is, anything else as JSON cut to `max` characters. */
export function formatValue(value: unknown, max = 80): string {
  if (typeof value === 'number') return formatNumber(value);
  const text = typeof value === 'string' ? value : value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `steps 2–3`, `episode s1-g0-r1` or `whole run`. */
export function flagScope(flag: BrowseFlag): string {
  if (flag.steps)
    return flag.steps[0] === flag.steps[1] ? `step ${flag.steps[0]}` : `steps ${flag.steps[0]}–${flag.steps[1]}`;
  if (flag.scope === 'episode') return `episode ${flag.scopeId}`;
  return flag.scope === 'step' && flag.scopeId !== '' ? `steps ${flag.scopeId}` : 'whole run';
}

/** The first scalar evidence entry that explains the verdict, as `key value`; undefined when there is none. */
export function flagHeadline(flag: BrowseFlag): string | undefined {
  const entry = Object.entries(flag.evidence).find(
    ([key, value]) => !notHeadline.has(key) && (typeof value === 'number' || typeof value === 'string'),
  );
  return entry ? `${entry[0]} ${formatValue(entry[1], 40)}` : undefined;
}

/** The verdict, its scope and its headline evidence, without the kind: `verifier is idle while … (steps 2–3; meanCredit 0.001)`. */
export function flagSummary(flag: BrowseFlag): string {
  const agent = flag.agent ?? 'the team';
  const verdict = verdicts[flag.kind]?.(agent) ?? `${agent} was flagged`;
  const headline = flagHeadline(flag);
  return `${verdict} (${flagScope(flag)}${headline ? `; ${headline}` : ''})`;
}

/** One sentence: the kind, then {@link flagSummary}. */
export function flagMessage(flag: BrowseFlag): string {
  return `${flag.kind}: ${flagSummary(flag)}`;
}

/** A stored flag as the panels show it: its one-line summary and the evidence (without the location). */
export function flagView(flag: BrowseFlag): FlagView {
  return {
    flagId: flag.flagId,
    kind: flag.kind,
    agent: flag.agent,
    scope: flag.scope,
    steps: flag.steps,
    score: flag.score,
    summary: flagSummary(flag),
    evidence: flag.evidence,
  };
}
