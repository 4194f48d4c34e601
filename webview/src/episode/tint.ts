import type { EpisodeCreditView, FirstErrorView, MessageView } from '../../../src/protocol/episodePanel';
import type { CreditDomainView, ViewMethod } from '../../../src/protocol/viewData';
import {
  beyondMark,
  creditColorScale,
  creditMagnitude,
  creditPaint,
  domainBound,
  type CreditPaint,
} from '../charts/creditScale';
import { formatCredit, formatInterval, formatMargin } from '../kit/format';
import { methodLabels } from '../methodLabels';
import { firstErrorOf } from './firstError';

// The tint model: which colour a message (and a token) gets for its credit. Pure: no DOM.

export type CreditKind = EpisodeCreditView['messageCreditKind'];
export type MessageInterval = readonly [number, number];

/** Message credit of one method, on the run's fixed colour domain (the same for every method). */
export interface CreditTint {
  readonly method: ViewMethod;
  readonly kind: CreditKind;
  /** ±bound spans the scale: the run's fixed domain, not the episode's largest value. */
  readonly bound: number;
  readonly domain: CreditDomainView | undefined;
  /** The values come from replays on the user's model server (the credit's source names `replayed`). */
  readonly replayed: boolean;
  /** Why the data cannot answer this episode under the method; null when it can. */
  readonly unidentified: string | null;
  value(seq: number): number | null;
  /** The 95% interval of an estimated message credit (Monte-Carlo Owen); null when it has none. */
  interval(seq: number): MessageInterval | null;
  /** How the message's credit is painted (no credit and not identifiable included). */
  paint(seq: number): CreditPaint;
  /** The failed episode's first error under this credit (credit-methods.md §3.13); null when none is named. */
  readonly firstError: FirstErrorView | null;
}

/**
 * The tint of `credit`'s message values on the run's `domain`; null when the method shows nothing
 * to colour (no message credit, and the episode is not "not identifiable" either).
 */
export function creditTint(credit: EpisodeCreditView | null, domain?: CreditDomainView): CreditTint | null {
  if (!credit) return null;
  const unidentified = credit.status === 'not-identifiable' ? (credit.reason ?? 'the data cannot answer') : null;
  const values = credit.messageCredit;
  if (unidentified === null && !values.some((v) => v !== null && Number.isFinite(v))) return null;
  const bound = domainBound(domain);
  const value = (seq: number): number | null => {
    const v = values[seq];
    return v === undefined || v === null || !Number.isFinite(v) ? null : v;
  };
  return {
    method: credit.method,
    kind: credit.messageCreditKind,
    bound,
    domain,
    replayed: (credit.source ?? '').split('+').includes('replayed'),
    unidentified,
    value,
    interval: (seq) => {
      const v = value(seq);
      const margin = credit.messageMargin?.[seq];
      return v === null || margin === undefined || margin === null || !Number.isFinite(margin)
        ? null
        : [v - margin, v + margin];
    },
    paint: (seq) => creditPaint(value(seq), bound, unidentified !== null),
    firstError: firstErrorOf(credit),
  };
}

/** One-line reading of the kind of message credit (and whether it was replayed). */
export function kindDescription(kind: CreditKind, replayed = false): string {
  const what = kind === 'spread' ? 'agent credit spread evenly over its messages' : 'per-message credit';
  return replayed ? `${what}, replayed` : what;
}

/** The sentence the legend says about what a message's colour stands for. */
export function kindSentence(method: ViewMethod, kind: CreditKind, replayed = false): string {
  const what =
    kind === 'spread'
      ? `each message shows its agent's ${methodLabels[method]} credit spread evenly over the agent's messages`
      : `each message shows its own ${methodLabels[method]} credit`;
  return `${what.charAt(0).toUpperCase()}${what.slice(1)}${replayed ? ' (replayed on your model server)' : ''}.`;
}

/** The hover / screen-reader text of one message's credit, with its interval when it was estimated. */
export function creditText(
  value: number | null,
  method: ViewMethod,
  kind: CreditKind,
  replayed = false,
  interval: MessageInterval | null = null,
): string {
  if (value === null) return `No credit for this message under ${methodLabels[method]}`;
  const estimated = interval ? `, estimated; 95% interval ${formatInterval(interval[0], interval[1])}` : '';
  return `Credit ${formatCredit(value)} under ${methodLabels[method]} (${kindDescription(kind, replayed)}${estimated})`;
}

/**
 * The short mark a message row shows beside its number: `±half-width` for an estimated credit,
 * `spread` for an agent's credit divided evenly over its messages; null otherwise.
 */
export function kindMark(tint: CreditTint, seq: number): { text: string; kind: 'interval' | 'spread' } | null {
  if (tint.value(seq) === null) return null;
  const interval = tint.interval(seq);
  if (interval) return { text: formatMargin(interval[0], interval[1]), kind: 'interval' };
  return tint.kind === 'spread' ? { text: 'spread', kind: 'spread' } : null;
}

/** The hover / screen-reader text of message `seq` under `tint`: its value, or why it has none, and a clamp. */
export function tintText(tint: CreditTint, seq: number): string {
  const paint = tint.paint(seq);
  if (paint.state === 'unidentified')
    return `Not identifiable under ${methodLabels[tint.method]}: ${tint.unidentified ?? 'the data cannot answer'}`;
  const text = creditText(tint.value(seq), tint.method, tint.kind, tint.replayed, tint.interval(seq));
  const beyond = beyondMark(paint, tint.bound).text;
  return beyond ? `${text}; ${beyond}` : text;
}

/** A token of a message with per-token attributions. */
export interface TokenHeat {
  readonly text: string;
  readonly attribution: number | null;
  /** The scale colour (for outlines); null without an attribution. */
  readonly color: string | null;
  /** The colour as a translucent fill, more opaque the larger |attribution| (so text stays legible). */
  readonly fill: string | null;
}

/** `color` made translucent: `rgb(r, g, b)` as `rgba(…)`, any other CSS colour mixed with transparent. */
export function withAlpha(color: string, alpha: number): string {
  const match = /^rgb\((\d+), (\d+), (\d+)\)$/.exec(color);
  if (match) return `rgba(${match[1] ?? '0'}, ${match[2] ?? '0'}, ${match[3] ?? '0'}, ${alpha.toFixed(3)})`;
  return `color-mix(in srgb, ${color} ${(alpha * 100).toFixed(1)}%, transparent)`;
}

/**
 * The tokens of `message` coloured by attribution on the shared scale, spanned by the message's
 * own largest |attribution| (token values are not comparable with message credit). Null when the
 * message carries no tokens. Missing or non-finite attributions get no colour.
 */
export function tokenHeat(message: Pick<MessageView, 'tokens'>): { tokens: TokenHeat[]; magnitude: number } | null {
  const tokens = message.tokens;
  if (!tokens || tokens.text.length === 0) return null;
  const attributions = tokens.text.map((_, i) => {
    const a = tokens.attribution[i];
    return a === undefined || !Number.isFinite(a) ? null : a;
  });
  const magnitude = creditMagnitude(attributions) || 1;
  const scale = creditColorScale(magnitude);
  return {
    magnitude,
    tokens: tokens.text.map((text, i) => {
      const attribution = attributions[i] ?? null;
      if (attribution === null) return { text, attribution, color: null, fill: null };
      const color = scale(attribution);
      return {
        text,
        attribution,
        color,
        fill: withAlpha(color, 0.06 + 0.34 * Math.min(1, Math.abs(attribution) / magnitude)),
      };
    }),
  };
}
