import { err, ok, type Result } from '../../../../core/result';
import { isRecord } from '../common/rlFields';

// A tiny JSONPath subset for declarative mappings (docs/mapping.md §3): `$` is the value the path
// is applied to; `.name` and `["name"]` read a property; `[0]` and `[-1]` an array element; `[*]`
// and `.*` every element or property value. No filters, no recursion, no script: a path is parsed
// into steps once and evaluated by walking them, so nothing from the mapping file is ever executed
// or compiled into a regular expression.

/** One step of a parsed path. */
export type PathStep = { readonly kind: 'key'; readonly key: string } | { readonly kind: 'index'; readonly index: number } | { readonly kind: 'all' };

/** A parsed path: its text (for messages) and steps; `multi` when a wildcard can select several values. */
export interface JsonPath {
  readonly text: string;
  readonly steps: readonly PathStep[];
  readonly multi: boolean;
}

const maxPathLength = 500;

/**
 * Parses a path such as `$.turns[*].text`, `$["odd key"][0]` or `$.outputs.*`. Errors say what was
 * expected, e.g. `expected a path like "$.id", got "uid"`.
 */
export function parsePath(text: string): Result<JsonPath> {
  if (!text.startsWith('$')) return err(`expected a path like "$.id", got ${JSON.stringify(text)}`);
  if (text.length > maxPathLength) return err(`a path is at most ${maxPathLength} characters`);
  const steps: PathStep[] = [];
  let i = 1;
  while (i < text.length) {
    const step = text[i] === '.' ? dotStep(text, i + 1) : text[i] === '[' ? bracketStep(text, i + 1) : undefined;
    if (!step) return err(`${JSON.stringify(text)}: unexpected ${JSON.stringify(text[i])} at position ${i}; expected ".name", "[0]", "[*]" or "[\\"name\\"]"`);
    if (!step.ok) return err(`${JSON.stringify(text)}: ${step.error}`);
    steps.push(step.value.step);
    i = step.value.next;
  }
  return ok({ text, steps, multi: steps.some((s) => s.kind === 'all') });
}

type Parsed = Result<{ readonly step: PathStep; readonly next: number }>;

function dotStep(text: string, start: number): Parsed {
  let end = start;
  while (end < text.length && text[end] !== '.' && text[end] !== '[') end++;
  const name = text.slice(start, end);
  if (name === '') return err(`empty property name at position ${start}`);
  return ok({ step: name === '*' ? { kind: 'all' } : { kind: 'key', key: name }, next: end });
}

function bracketStep(text: string, start: number): Parsed {
  const quote = text[start];
  if (quote === '"' || quote === "'") return quotedStep(text, start + 1, quote);
  const close = text.indexOf(']', start);
  if (close < 0) return err(`unclosed "[" at position ${start - 1}`);
  const inner = text.slice(start, close);
  if (inner === '*') return ok({ step: { kind: 'all' }, next: close + 1 });
  if (/^-?\d{1,9}$/.test(inner)) return ok({ step: { kind: 'index', index: Number(inner) }, next: close + 1 });
  return err(`"[${inner}]" is not an index, "*" or a quoted name`);
}

function quotedStep(text: string, start: number, quote: string): Parsed {
  let key = '';
  for (let i = start; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '\\' && i + 1 < text.length) key += text.charAt(++i);
    else if (c === quote) {
      if (text[i + 1] !== ']') return err(`expected "]" after the quoted name at position ${i + 1}`);
      return ok({ step: { kind: 'key', key }, next: i + 2 });
    } else key += c;
  }
  return err(`unclosed quoted name at position ${start - 1}`);
}

/** Every value `path` selects in `root`, in document order; [] when nothing matches. */
export function selectAll(path: JsonPath, root: unknown): unknown[] {
  let current: unknown[] = [root];
  for (const step of path.steps) current = current.flatMap((value) => applyStep(step, value));
  return current;
}

/** The first value `path` selects in `root`, or undefined. */
export function selectOne(path: JsonPath, root: unknown): unknown {
  return selectAll(path, root)[0];
}

function applyStep(step: PathStep, value: unknown): unknown[] {
  switch (step.kind) {
    case 'key':
      // Own properties only: a mapping cannot reach `__proto__` or `constructor`.
      return isRecord(value) && Object.hasOwn(value, step.key) ? [value[step.key]] : [];
    case 'index': {
      if (!Array.isArray(value)) return [];
      const index = step.index < 0 ? value.length + step.index : step.index;
      return index >= 0 && index < value.length ? [value[index] as unknown] : [];
    }
    case 'all':
      if (Array.isArray(value)) return value as unknown[];
      return isRecord(value) ? Object.values(value) : [];
  }
}

/**
 * True when `name` matches the glob `pattern`: `*` is any run of characters, `?` one character,
 * everything else literal (compared directly, never compiled into a regular expression).
 */
export function globMatches(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (pattern[p] === '*') {
      star = p++;
      resume = n;
    } else if (p < pattern.length && (pattern[p] === '?' || pattern[p] === name[n])) {
      p++;
      n++;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}
