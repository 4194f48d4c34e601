import type { LabelView, MessageView } from '../../../src/protocol/episodePanel';
import { h } from '../dom';
import { splitMatches } from './find';
import { formatCredit, formatInt } from '../kit/format';
import { beyondMark } from '../charts/creditScale';
import { kindMark, tintText, tokenHeat, type CreditTint } from './tint';
import { firstErrorGlyph, firstErrorText } from './firstError';
import { renderValue } from './valueTree';

// One row of the message timeline. Trace text only ever becomes text nodes (h() / textContent);
// colours are set through CSS custom properties on the element's CSSOM style.

/** Characters of a collapsed message that are laid out (the rest is cut by the line clamp anyway). */
export const previewChars = 600;

/** What every row of the list shares. */
export interface RowView {
  readonly count: number;
  readonly tint: CreditTint | null;
  /** Lower-cased find text; '' when none. */
  readonly query: string;
  readonly labels: ReadonlyMap<number, readonly LabelView[]>;
}

/** A message row; a placeholder while `message` is loading, or the load `error`. */
export function renderRow(
  seq: number,
  message: MessageView | undefined,
  error: string | undefined,
  expanded: boolean,
  view: RowView,
): HTMLElement {
  const row = h('div', 'msg');
  row.setAttribute('role', 'listitem');
  row.tabIndex = -1;
  row.dataset['seq'] = String(seq);
  row.setAttribute('aria-posinset', String(seq + 1));
  row.setAttribute('aria-setsize', String(view.count));
  const strip = h('div', 'msg-strip');
  strip.setAttribute('aria-hidden', 'true');
  const tint = h('div', 'msg-tint');
  tint.setAttribute('aria-hidden', 'true');
  if (!message) {
    row.classList.add('is-placeholder');
    row.append(
      tint,
      strip,
      h('div', 'msg-head', h('span', 'msg-seq', `#${formatInt(seq)}`)),
      h('div', 'msg-body', error ? `Could not load this message: ${error}` : 'Loading…'),
    );
    paintTint(row, seq, view.tint);
    return row;
  }
  row.classList.add('is-loaded');
  row.classList.toggle('is-expanded', expanded);
  const labels = view.labels.get(seq) ?? [];
  row.classList.toggle('has-label', labels.length > 0);
  row.append(tint, strip, renderHead(message, labels, expanded), renderBody(message, expanded, view.query));
  if (expanded && message.truncated) {
    row.append(
      h(
        'p',
        'msg-note',
        `Showing the first ${formatInt(message.content.length)} of ${formatInt(message.contentChars)} characters; Reveal in trace opens the full text.`,
      ),
    );
  }
  paintTint(row, seq, view.tint);
  return row;
}

/** Sets the credit colour, state, number and texts of a rendered row (re-colouring in place). */
export function paintTint(row: HTMLElement, seq: number, tint: CreditTint | null): void {
  const value = tint ? tint.value(seq) : null;
  const paint = tint ? tint.paint(seq) : null;
  const state = paint?.state ?? 'none';
  row.classList.toggle('no-credit', state === 'none');
  row.classList.toggle('credit-zero', state === 'zero');
  row.classList.toggle('credit-unidentified', state === 'unidentified');
  row.classList.toggle('credit-beyond', paint?.beyond !== null && paint?.beyond !== undefined);
  if (!paint || paint.color === null) {
    row.style.removeProperty('--tint');
    row.style.removeProperty('--tint-strength');
  } else {
    row.style.setProperty('--tint', paint.color);
    row.style.setProperty('--tint-strength', String(paint.strength));
  }
  row.dataset['credit'] = value === null ? '' : String(value);
  row.dataset['creditState'] = state;
  paintFirstError(row, seq, tint);
  const text = tint ? tintText(tint, seq) : 'No credit shown';
  const strip = row.querySelector<HTMLElement>('.msg-strip');
  if (strip) strip.title = text;
  const chip = row.querySelector<HTMLElement>('.msg-credit');
  if (!chip) return;
  chip.title = text;
  const shown =
    state === 'unidentified'
      ? '?'
      : `${formatCredit(value)}${paint && tint ? beyondMark(paint, tint.bound).glyph : ''}`;
  // The row itself says when its number is an estimate or an agent's even spread (the text says how).
  const mark = tint ? kindMark(tint, seq) : null;
  chip.replaceChildren(
    ariaHidden(h('span', 'msg-swatch', state === 'unidentified' ? '?' : '')),
    ariaHidden(h('span', 'msg-credit-value', shown)),
    ...(mark ? [ariaHidden(h('span', `msg-credit-mark is-${mark.kind}`, mark.text))] : []),
    h('span', 'visually-hidden', text),
  );
}

/**
 * Marks the failed episode's first error (class `is-first-error`; a row's head gets a "first error"
 * badge with the glyph, its title saying where the error comes from), and unmarks any other message.
 */
function paintFirstError(el: HTMLElement, seq: number, tint: CreditTint | null): void {
  const error = tint?.firstError ?? null;
  const marked = error !== null && error.message === seq;
  el.classList.toggle('is-first-error', marked);
  const head = el.querySelector<HTMLElement>('.msg-head');
  const badge = head?.querySelector<HTMLElement>('.msg-first-error');
  if (!marked || !head) {
    badge?.remove();
    return;
  }
  const next = h(
    'span',
    'msg-first-error',
    ariaHidden(h('span', 'first-error-glyph', firstErrorGlyph)),
    ' first error',
  );
  next.title = firstErrorText(error);
  if (badge) badge.replaceWith(next);
  else head.insertBefore(next, head.querySelector('.msg-fill'));
}

function renderHead(message: MessageView, labels: readonly LabelView[], expanded: boolean): HTMLElement {
  const meta = [
    message.turn === null ? null : `turn ${formatInt(message.turn)}`,
    message.role,
    message.channel,
    message.tokenCount === null ? null : `${formatInt(message.tokenCount)} tokens`,
  ];
  const head = h(
    'div',
    'msg-head',
    h('span', 'msg-seq', `#${formatInt(message.seq)}`),
    h('span', 'msg-agent', message.agent),
    h('span', 'msg-meta', meta.filter((m) => m !== null).join(' · ')),
  );
  for (const label of labels) {
    const badge = h('span', 'msg-label', `${label.kind}${label.value ? `: ${label.value}` : ''}`);
    badge.title = `Label ${label.kind}${label.agent ? ` on ${label.agent}` : ''}${label.reason ? `: ${label.reason}` : ''}`;
    head.append(badge);
  }
  if (message.tokens) head.append(h('span', 'msg-tag', 'token heat'));
  const toggle = h('button', 'link-button msg-toggle', expanded ? 'Collapse' : 'Expand');
  toggle.type = 'button';
  toggle.tabIndex = -1;
  toggle.setAttribute('aria-expanded', String(expanded));
  toggle.title = expanded ? 'Collapse this message (Enter)' : 'Show the whole message (Enter)';
  head.append(h('span', 'msg-fill'), h('span', 'msg-credit'), toggle);
  return head;
}

function renderBody(message: MessageView, expanded: boolean, query: string): HTMLElement {
  const body = h('div', 'msg-body');
  const heat = tokenHeat(message);
  if (heat) {
    body.classList.add('has-tokens');
    let chars = 0;
    for (const token of heat.tokens) {
      if (!expanded && chars > previewChars) break;
      chars += token.text.length;
      const span = h('span', 'tok', token.text);
      if (token.color !== null && token.fill !== null) {
        span.style.setProperty('--heat', token.color);
        span.style.setProperty('--heat-fill', token.fill);
      }
      span.title = `Token attribution ${formatCredit(token.attribution)}`;
      body.append(span);
    }
    return body;
  }
  if (expanded && (message.toolCalls || message.toolResult !== undefined)) return renderTools(body, message, query);
  appendText(body, expanded ? message.content : message.content.slice(0, previewChars), query);
  return body;
}

/** Text with the find hits marked; `(empty message)` when there is none. */
function appendText(body: HTMLElement, text: string, query: string): void {
  if (text === '') body.append(h('span', 'msg-empty', '(empty message)'));
  for (const run of splitMatches(text, query)) body.append(run.match ? h('mark', 'find-hit', run.text) : run.text);
}

/**
 * An expanded tool message: the prose lines as text, each tool call as its name with its
 * arguments as keys and values, a JSON tool result as a tree (instead of one line of JSON).
 */
function renderTools(body: HTMLElement, message: MessageView, query: string): HTMLElement {
  body.classList.add('has-tools');
  if (message.toolResult !== undefined) {
    body.append(h('div', 'tool-result', h('span', 'tool-title', 'Result'), renderValue(message.toolResult)));
    return body;
  }
  const calls = message.toolCalls ?? [];
  const callLines = new Set(calls.map((c) => c.line));
  const prose = message.content
    .split('\n')
    .filter((line) => !callLines.has(line))
    .join('\n');
  if (prose.trim() !== '') appendText(body, prose, query);
  for (const call of calls)
    body.append(
      h(
        'div',
        'tool-call',
        h('span', 'tool-title', 'Call ', h('code', 'tool-name', call.name)),
        renderValue(call.args),
      ),
    );
  return body;
}

function ariaHidden<E extends HTMLElement>(element: E): E {
  element.setAttribute('aria-hidden', 'true');
  return element;
}
