import { plural } from '../../core/plural';

/**
 * What a flag's text needs, a shape both a flag the audit raises (core/auditReport.ts) and a flag
 * the index stores (store/browseRepository.ts) fit. `episode` is the one an episode-scope flag names.
 */
export interface FlagFacts {
  readonly kind: string;
  readonly agent?: string | null;
  readonly scope: string;
  readonly steps?: readonly [number, number] | null;
  readonly episode?: string | null;
  readonly evidence: Readonly<Record<string, unknown>>;
}

/** One labelled line of evidence; a window of steps lists its own figures as children. */
export interface EvidenceRow {
  readonly label: string;
  readonly value: string;
  readonly children?: readonly EvidenceRow[];
}

/** What each verdict says about its agent (credit-methods.md §5.2). */
const verdicts: Readonly<Record<string, (agent: string) => string>> = {
  silent: (agent) => `${agent} is declared in the roster but never acts`,
  idle: (agent) => `${agent}'s marginal contribution is indistinguishable from zero`,
  'free-rider': (agent) => `${agent} is idle while sharing a reward the team earns`,
  dominant: (agent) => `${agent} holds almost all of the positive credit`,
  decoupling: (agent) => `the team reward rises while ${agent}'s credit share falls`,
};

/** Evidence keys, in words. A key not listed here is split at its capitals (`fooBar` → `foo bar`). */
const labels: Readonly<Record<string, string>> = {
  n: 'episodes',
  meanCredit: 'mean credit',
  sd: 'standard deviation',
  ci90: '90% interval',
  ci95: '95% interval',
  meanReward: 'team reward',
  partnerSolo: 'team reward without it',
  mcnemarP: 'McNemar test',
  epsilon: 'tolerance',
  partnerSoloAssumed: 'partners alone',
  requiredEpisodes: 'episodes a verdict needs',
  creditStatus: 'credit values',
  rewardRho: 'team reward trend',
  shareRho: 'credit share trend',
  lastShare: 'final credit share',
  silentEpisodes: 'silent in',
  declaredEpisodes: 'episodes that declare it',
  share: 'share',
  creditShare: 'credit share',
  ranges: 'flagged steps',
  windows: 'windows',
  signal: 'shared reward vs own signal',
};

/**
 * Keys left out of the rows: where the flag points (shown as its trace line), the ranking score (an
 * internal sort key), the p-values (said with their ρ) and window bounds (said as the row's steps).
 */
const unlisted = new Set(['location', 'locations', 'score', 'rewardP', 'shareP', 'from', 'to']);

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const minus = '\u2212';

/** `0.833`, `−0.0012`, `1,280`, `2.5e-7`: integers grouped, anything else to `digits` significant digits. */
export function significant(value: number, digits = 3): string {
  if (Number.isNaN(value)) return 'not computed';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : `${minus}∞`;
  const abs = Math.abs(value);
  const text =
    Number.isInteger(value) || abs >= 10 ** digits
      ? grouped.format(Math.round(abs))
      : String(Number(abs.toPrecision(digits)));
  return value < 0 ? `${minus}${text}` : text;
}

/** `p < 0.001`, `p = 0.012`, `p = 0.5`; `p not computed` for a missing or non-finite value. */
export function pValue(p: unknown): string {
  if (typeof p !== 'number' || !Number.isFinite(p)) return 'p not computed';
  return p < 0.001 ? 'p < 0.001' : `p = ${significant(p, 2)}`;
}

/** `[0.204, 0.25]`: an interval's bounds to 3 significant digits. */
export function interval(bounds: readonly [number, number]): string {
  return `[${significant(bounds[0])}, ${significant(bounds[1])}]`;
}

/** `step 4`, `steps 2–40`. */
export function stepSpan(from: number, to: number): string {
  return from === to ? `step ${from}` : `steps ${from}–${to}`;
}

/** Where the flag applies: `steps 25–40`, `steps 0–40, the whole run`, `episode s1-g0-r2`, `the whole run`. */
export function flagScope(flag: FlagFacts): string {
  if (flag.scope === 'episode') {
    const silent = flag.evidence['silentEpisodes'];
    const first = `episode ${flag.episode ?? ''}`.trim();
    return typeof silent === 'number' && silent > 1 ? `${first} and ${significant(silent - 1)} more` : first;
  }
  if (!flag.steps) return 'the whole run';
  const span = stepSpan(flag.steps[0], flag.steps[1]);
  return flag.scope === 'run' ? `${span}, the whole run` : span;
}

/** The verdict in words: `verifier is idle while sharing a reward the team earns`. */
export function flagVerdict(flag: FlagFacts): string {
  const agent = flag.agent ?? 'the team';
  return verdicts[flag.kind]?.(agent) ?? `${agent} was flagged ${flag.kind}`;
}

/** The figures behind the verdict in one clause (the first few figures when the kind's own are missing); `''` when none. */
export function flagEvidence(flag: FlagFacts): string {
  return kindEvidence(flag) || genericText(flag.evidence);
}

function kindEvidence(flag: FlagFacts): string {
  const e = flag.evidence;
  switch (flag.kind) {
    case 'silent':
      return silentText(e);
    case 'decoupling':
      return [
        trend('team reward', e['rewardRho'], e['rewardP']),
        trend('credit share', e['shareRho'], e['shareP']),
        figure('final share', e['lastShare']),
      ]
        .filter(Boolean)
        .join(', ');
    case 'idle':
    case 'free-rider':
      // Older audits stored one window's figures flat, without `windows`.
      return [windowsOf(e).length > 0 ? windowText(windowsOf(e)) : windowFigures(e), signalText(flag)]
        .filter(Boolean)
        .join('; ');
    case 'dominant':
      return figure('credit share', windowsOf(e).at(-1)?.['creditShare'] ?? e['creditShare']);
    default:
      return genericText(e);
  }
}

/** The verdict, where it applies and its figures: `verifier is idle … (steps 25–40): mean credit 0 …`. */
export function flagSentence(flag: FlagFacts): string {
  const evidence = flagEvidence(flag);
  return `${flagVerdict(flag)} (${flagScope(flag)})${evidence ? `: ${evidence}` : ''}`;
}

/** The kind, then {@link flagSentence}: the one line the Flags view, Problems, SARIF and the CLI print. */
export function flagMessage(flag: FlagFacts): string {
  return `${flag.kind}: ${flagSentence(flag)}`;
}

/** The evidence as labelled rows in words (p-values with their ρ, intervals to 3 digits, windows by step). */
export function flagEvidenceRows(evidence: Readonly<Record<string, unknown>>): EvidenceRow[] {
  return Object.entries(evidence)
    .filter(([key, value]) => !unlisted.has(key) && value !== undefined)
    .map(([key, value]) => evidenceRow(key, value, evidence));
}

function evidenceRow(key: string, value: unknown, evidence: Readonly<Record<string, unknown>>): EvidenceRow {
  const label = labelOf(key);
  if (key === 'windows' && Array.isArray(value)) {
    const windows = value.filter(isRecord);
    return { label, value: plural(windows.length, 'window'), children: windows.map(windowRow) };
  }
  if (key === 'rewardRho' || key === 'shareRho') {
    return { label, value: rhoText(value, evidence[key === 'rewardRho' ? 'rewardP' : 'shareP']) };
  }
  return { label, value: valueText(key, value) };
}

function windowRow(window: Readonly<Record<string, unknown>>): EvidenceRow {
  const from = window['from'];
  const to = window['to'];
  const label = typeof from === 'number' && typeof to === 'number' ? stepSpan(from, to) : 'window';
  return { label, value: windowFigures(window), children: flagEvidenceRows(window) };
}

/** A value in words by what its key holds; trace-derived strings stay as they are. */
function valueText(key: string, value: unknown): string {
  if (key === 'mcnemarP' || /P$/.test(key)) return value === null ? 'not computed' : pValue(value);
  if (key === 'partnerSoloAssumed')
    return value === true ? 'assumed to carry the reward (no counterfactual logged)' : 'tested';
  if (key === 'epsilon' && typeof value === 'number') return `±${significant(value)}`;
  if (key === 'share' || key === 'creditShare' || key === 'lastShare')
    return typeof value === 'number' ? percent(value) : valueText('', value);
  if (key === 'silentEpisodes' && typeof value === 'number') return plural(value, 'episode');
  if (key === 'ranges' && Array.isArray(value)) return rangesText(value);
  if (key === 'creditStatus' && isRecord(value)) return countsText(value);
  if (key === 'signal' && isRecord(value)) return signalFigures(value, 'the agent');
  return scalarText(value);
}

function scalarText(value: unknown): string {
  if (value === null) return 'none';
  if (typeof value === 'number') return significant(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value;
  if (isPair(value)) return interval(value);
  if (Array.isArray(value)) return value.map(scalarText).join(', ');
  if (isRecord(value))
    return Object.entries(value)
      .map(([k, v]) => `${labelOf(k)} ${scalarText(v)}`)
      .join(', ');
  return typeof value === 'bigint' ? value.toString() : typeof value;
}

/**
 * How the shared reward pushed the flagged agent over its window (credit-methods.md §3.18), from the
 * `signal` evidence the audit adds when the credit pass stored it: `in steps 25–40, 0% of verifier's
 * 512 samples were pushed the wrong way by the shared reward …`; `''` without it.
 */
function signalText(flag: FlagFacts): string {
  const s = flag.evidence['signal'];
  if (!isRecord(s) || typeof s['from'] !== 'number' || typeof s['to'] !== 'number') return '';
  return `in ${stepSpan(s['from'], s['to'])}, ${signalFigures(s, flag.agent ?? 'the agent')}`;
}

function signalFigures(s: Readonly<Record<string, unknown>>, agent: string): string {
  const { n, wrongWay, sharedOnlyShare, method } = s;
  if (typeof n !== 'number' || typeof wrongWay !== 'number') return scalarText(s);
  const own = typeof method === 'string' ? `${method} ` : '';
  const alone =
    typeof sharedOnlyShare === 'number' && sharedOnlyShare > 0
      ? `, and ${percent(sharedOnlyShare)} were pushed by it while ${agent}'s own ${own}advantage was 0`
      : '';
  return `${percent(wrongWay)} of ${agent}'s ${plural(n, 'sample')} were pushed the wrong way by the shared reward${alone}`;
}

function silentText(e: Readonly<Record<string, unknown>>): string {
  const silent = e['silentEpisodes'];
  const declared = e['declaredEpisodes'];
  if (typeof silent !== 'number') return '';
  return typeof declared === 'number'
    ? `silent in ${significant(silent)} of the ${plural(declared, 'episode')} that declare it`
    : `silent in ${plural(silent, 'episode')}`;
}

/** The last window's figures, saying which of several it is (the verdict holds in every one). */
function windowText(windows: readonly Readonly<Record<string, unknown>>[]): string {
  const last = windows.at(-1);
  if (!last) return '';
  if (windows.length === 1) return windowFigures(last);
  const from = last['from'];
  const to = last['to'];
  const where = typeof from === 'number' && typeof to === 'number' ? ` (${stepSpan(from, to)})` : '';
  return `in each of ${plural(windows.length, 'window')}; the last${where}: ${windowFigures(last)}`;
}

function windowFigures(w: Readonly<Record<string, unknown>>): string {
  const ci = isPair(w['ci90']) ? ` (90% CI ${interval(w['ci90'])})` : '';
  const episodes = typeof w['n'] === 'number' ? ` over ${plural(w['n'], 'episode')}` : '';
  const parts = [
    typeof w['meanCredit'] === 'number' ? `mean credit ${significant(w['meanCredit'])}${ci}${episodes}` : '',
    figure('team reward', w['meanReward']),
    typeof w['epsilon'] === 'number' ? `tolerance ±${significant(w['epsilon'])}` : '',
    typeof w['creditShare'] === 'number' ? `credit share ${percent(w['creditShare'])}` : '',
  ];
  return parts.filter(Boolean).join(', ');
}

function genericText(e: Readonly<Record<string, unknown>>): string {
  return Object.entries(e)
    .filter(([key, value]) => !unlisted.has(key) && (typeof value === 'number' || typeof value === 'string'))
    .slice(0, 3)
    .map(([key, value]) => `${labelOf(key)} ${valueText(key, value)}`)
    .join(', ');
}

function trend(what: string, rho: unknown, p: unknown): string {
  return typeof rho === 'number' ? `${what} ${rhoText(rho, p)}` : '';
}

function rhoText(rho: unknown, p: unknown): string {
  return typeof rho === 'number' ? `ρ = ${significant(rho, 2)} (${pValue(p)})` : scalarText(rho);
}

function figure(what: string, value: unknown): string {
  return typeof value === 'number' ? `${what} ${what.includes('share') ? percent(value) : significant(value)}` : '';
}

function percent(share: number): string {
  return Number.isFinite(share) ? `${significant(share * 100, 3)}%` : significant(share);
}

function rangesText(ranges: readonly unknown[]): string {
  return ranges.map((r) => (isPair(r) ? stepSpan(r[0], r[1]) : scalarText(r))).join(', ');
}

function countsText(counts: Readonly<Record<string, unknown>>): string {
  return Object.entries(counts)
    .map(([status, n]) => `${scalarText(n)} ${status}`)
    .join(', ');
}

function windowsOf(e: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>>[] {
  const windows = e['windows'];
  return Array.isArray(windows) ? windows.filter(isRecord) : [];
}

function labelOf(key: string): string {
  return labels[key] ?? key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPair(value: unknown): value is [number, number] {
  return Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'number');
}
