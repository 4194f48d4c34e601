import type { EpisodeCreditView, MessageView } from '../../../src/protocol/episodePanel';
import type { ViewMethod } from '../../../src/protocol/viewData';
import { creditColorScale, creditMagnitude } from '../charts/creditScale';
import { formatCredit } from '../kit/format';
import { methodLabels } from '../methodLabels';

// The tint model: which colour a message (and a token) gets for its credit. Pure: no DOM.

export type CreditKind = EpisodeCreditView['messageCreditKind'];

/** Message credit of one method, on the shared diverging scale centred on zero. */
export interface CreditTint {
  readonly method: ViewMethod;
  readonly kind: CreditKind;
  /** ±magnitude spans the scale: the largest |message credit| of the episode (1 when all are 0). */
  readonly magnitude: number;
  /** The values come from replays on the user's model server (the credit's source names `replayed`). */
  readonly replayed: boolean;
  value(seq: number): number | null;
  /** The scale colour of the message's credit, or null when it has none. */
  color(seq: number): string | null;
}

/** The tint of `credit`'s message values. */
export function creditTint(credit: EpisodeCreditView): CreditTint {
  const values = credit.messageCredit;
  const magnitude = creditMagnitude(values) || 1;
  const scale = creditColorScale(magnitude);
  const value = (seq: number): number | null => {
    const v = values[seq];
    return v === undefined || v === null || !Number.isFinite(v) ? null : v;
  };
  return {
    method: credit.method,
    kind: credit.messageCreditKind,
    magnitude,
    replayed: (credit.source ?? '').split('+').includes('replayed'),
    value,
    color: (seq) => {
      const v = value(seq);
      return v === null ? null : scale(v);
    },
  };
}

/** One-line reading of the kind of message credit (and whether it was replayed). */
export function kindDescription(kind: CreditKind, replayed = false): string {
  const what = kind === 'spread' ? 'agent credit spread evenly over its messages' : 'per-message credit';
  return replayed ? `${what}, replayed` : what;
}

/** The hover / screen-reader text of one message's credit. */
export function creditText(value: number | null, method: ViewMethod, kind: CreditKind, replayed = false): string {
  if (value === null) return `No ${methodLabels[method]} credit for this message`;
  return `Credit ${formatCredit(value)} under ${methodLabels[method]} (${kindDescription(kind, replayed)})`;
}

/** Colour stops of the legend, from −magnitude to +magnitude; `offset` in percent. */
export function legendStops(magnitude: number, steps = 9): { offset: number; color: string }[] {
  const scale = creditColorScale(magnitude);
  const m = Number.isFinite(magnitude) && magnitude > 0 ? magnitude : 1;
  return Array.from({ length: steps }, (_, i) => {
    const t = i / (steps - 1);
    return { offset: t * 100, color: scale(-m + 2 * m * t) };
  });
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

/** `rgb(r, g, b)` (d3's colour strings) as `rgba(r, g, b, alpha)`; other strings are returned as they are. */
export function withAlpha(color: string, alpha: number): string {
  const match = /^rgb\((\d+), (\d+), (\d+)\)$/.exec(color);
  return match ? `rgba(${match[1] ?? '0'}, ${match[2] ?? '0'}, ${match[3] ?? '0'}, ${alpha.toFixed(3)})` : color;
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
