import { timelineFlags, type LabelView } from '../../../../src/protocol/episodePanel';
import { formatInt } from '../../kit/format';
import { firstErrorGlyph, firstErrorText } from '../firstError';
import { tintText, type CreditTint } from '../tint';
import type { SwimlaneModel } from './model';

/** How a label reads on its block: "mistake: step 7". */
export function labelText(label: LabelView): string {
  return `${label.kind}${label.value ? `: ${label.value}` : ''}`;
}

/**
 * The hover and screen-reader text of message `seq`'s block: position, lane, tokens, credit (or
 * why none), its labels and whether it is the first error, e.g. "#7 coder · 27 tokens · Credit 0.25
 * under LOO (…) · label mistake: step 7 · first error, from …".
 */
export function blockText(
  model: SwimlaneModel,
  seq: number,
  message: { readonly tokens: number | null; readonly flags: number },
  tint: CreditTint | null,
  labels: readonly LabelView[],
): string {
  const lane = model.lanes[model.laneOf[seq] ?? 0];
  const { tokens, flags } = message;
  const parts = [
    `#${formatInt(seq)} ${lane?.name ?? ''}`,
    ...(flags & timelineFlags.toolCall ? ['tool call'] : []),
    ...(flags & timelineFlags.toolResult ? ['tool result'] : []),
    tokens === null ? 'no token count (drawn as 1 token)' : `${formatInt(tokens)} tokens`,
    tint ? tintText(tint, seq) : 'No credit shown',
    ...labels.map((label) => `label ${labelText(label)}`),
    ...(tint?.firstError?.message === seq ? [firstErrorText(tint.firstError)] : []),
  ];
  return parts.join(' · ');
}

/** The sentence under the lanes on what a block's width and marks stand for. */
export function sizingNote(model: SwimlaneModel): string {
  const unknown =
    model.unknownTokens === 0
      ? ''
      : model.unknownTokens === model.count
        ? ' The trace logs no token counts, so every block is drawn as 1 token.'
        : ` ${formatInt(model.unknownTokens)} of ${formatInt(model.count)} messages log no token count and are drawn as 1 token.`;
  return `One lane per agent; a block's width grows with its message's tokens, its colour is the message credit on the scale above; ! marks a labelled message (blame), ${firstErrorGlyph} with a dashed outline the first error of a failed episode (from its prefix values).${unknown}`;
}
