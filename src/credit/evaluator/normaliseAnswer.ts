/**
 * Normalisation of extracted and gold answers (credit-methods.md §6.2, E15). Every flag defaults to
 * the lenient GSM8K convention; the evaluator's fingerprint records them, because each one changes
 * which answers count as equal and so changes the coalition game.
 */
export interface AnswerNormalisation {
  /** Strip thousands separators in numbers: "1,000" and LaTeX "1{,}000" → "1000". Default true. */
  readonly stripThousands?: boolean;
  /** Strip currency symbols ($ € £ ¥, LaTeX `\$`): "$18" → "18". Default true. */
  readonly stripCurrency?: boolean;
  /** Drop trailing fractional zeros: "72.0", "72.00" → "72", "2.50" → "2.5". Default true. */
  readonly stripTrailingZeros?: boolean;
  /** Lower-case non-numeric answers. Default false. */
  readonly foldCase?: boolean;
  /** Collapse whitespace runs in non-numeric answers to one space. Default true. */
  readonly foldWhitespace?: boolean;
}

/** {@link AnswerNormalisation} with every default applied. */
export type ResolvedNormalisation = Required<AnswerNormalisation>;

/** Applies the defaults of {@link AnswerNormalisation}. */
export function resolveNormalisation(options: AnswerNormalisation = {}): ResolvedNormalisation {
  const {
    stripThousands = true,
    stripCurrency = true,
    stripTrailingZeros = true,
    foldCase = false,
    foldWhitespace = true,
  } = options;
  return { stripThousands, stripCurrency, stripTrailingZeros, foldCase, foldWhitespace };
}

const numeric = /^([+-]?)(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d*))?$/;

/**
 * The canonical form of an answer, or undefined when it is empty after trimming. Numbers become a
 * canonical decimal string: Unicode minus `−` → `-`, `+` dropped, currency and thousands separators
 * stripped (per the flags), leading zeros dropped, trailing fractional zeros dropped, "-0" → "0"
 * ("−$1,234.50" → "-1234.5"). Anything else is text: trimmed, whitespace folded and case folded per
 * the flags; LaTeX such as `\frac{1}{2}` is kept as written (no symbolic equivalence).
 */
export function normaliseAnswer(answer: string, options: AnswerNormalisation = {}): string | undefined {
  const resolved = resolveNormalisation(options);
  const trimmed = answer.trim();
  if (trimmed === '') return undefined;
  const number = canonicalNumber(trimmed, resolved);
  if (number !== undefined) return number;
  let text = resolved.foldWhitespace ? trimmed.replace(/\s+/g, ' ') : trimmed;
  if (resolved.foldCase) text = text.toLowerCase();
  return text;
}

function canonicalNumber(text: string, options: ResolvedNormalisation): string | undefined {
  let s = text.replace(/\u2212/g, '-').replace(/\s+/g, '');
  if (options.stripCurrency) s = s.replace(/\\?\$|[€£¥]/g, '');
  if (options.stripThousands) s = s.replace(/\{,\}/g, ',');
  const match = numeric.exec(s);
  if (match === null) return undefined;
  const [, sign = '', whole = '', fraction = ''] = match;
  if (whole === '' && fraction === '') return undefined;
  if (whole.includes(',') && !options.stripThousands) return undefined;
  const integer = whole.replace(/,/g, '').replace(/^0+(?=\d)/, '') || '0';
  const decimals = options.stripTrailingZeros ? fraction.replace(/0+$/, '') : fraction;
  const magnitude = decimals === '' ? integer : `${integer}.${decimals}`;
  return sign === '-' && /[1-9]/.test(magnitude) ? `-${magnitude}` : magnitude;
}
