import { err, ok, type Result } from '../../../../core/result';
import { isRecord } from '../common/rlFields';

// A tiny JSONPath subset for declarative mappings (docs/mapping.md §3): `$` is the value the path
// is applied to; `.name` and `["name"]` read a property; `[0]` and `[-1]` an array element; `[*]`
// and `.*` every element or property value. No filters, no recursion, no script: a path is parsed
// into steps once and evaluated by walking them, so nothing from the mapping file is ever executed
// or compiled into a regular expression.

/** One step of a parsed path. */
export type PathStep =
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'all' };

/** A value a path can start from instead of `$` (docs/mapping.md §3.1). */
export type PathVariable = 'key' | 'keys' | 'file' | 'fileStem';

/** A parsed path: its text (for messages) and steps; `multi` when a wildcard can select several values. */
export interface JsonPath {
  readonly text: string;
  readonly steps: readonly PathStep[];
  readonly multi: boolean;
  /** `^…`: applied to the enclosing scope (a message's or roster entry's episode, an episode's record). */
  readonly parent?: boolean;
  /** `$key`, `$keys`, `$file`, `$fileStem`: starts from that value instead of the scope's value. */
  readonly variable?: PathVariable;
}

/** An object key or array index under which a wildcard found a value. */
export type EntryKey = string | number;

/** What a path is applied to: a value, the keys its wildcards found it under, the file, the enclosing scope. */
export interface PathScope {
  readonly value: unknown;
  readonly keys: readonly EntryKey[];
  readonly file?: string;
  readonly parent?: PathScope;
}

/** A selected value and the keys of the wildcard steps that reached it. */
export interface PathEntry {
  readonly value: unknown;
  readonly keys: readonly EntryKey[];
}

// Longest first, so `$keys` is not read as `$key` followed by "s".
const variables: readonly (readonly [string, PathVariable])[] = [
  ['$keys', 'keys'],
  ['$key', 'key'],
  ['$fileStem', 'fileStem'],
  ['$file', 'file'],
];

const maxPathLength = 500;

/**
 * Parses a path such as `$.turns[*].text`, `$["odd key"][0]` or `$.outputs.*`. Errors say what was
 * expected, e.g. `expected a path like "$.id", got "uid"`.
 */
export function parsePath(text: string): Result<JsonPath> {
  const parent = text.startsWith('^');
  // `^.answer` is short for `^$.answer`: the enclosing scope's property.
  const bare = parent && !text.startsWith('^$');
  const body = parent ? `${bare ? '$' : ''}${text.slice(1)}` : text;
  if (!body.startsWith('$')) return err(`expected a path like "$.id", got ${JSON.stringify(text)}`);
  if (text.length > maxPathLength) return err(`a path is at most ${maxPathLength} characters`);
  if (bare && text.length > 1 && !'.['.includes(text.charAt(1)))
    return err(`expected "^.name", "^[0]" or "^$key" after "^", got ${JSON.stringify(text)}`);
  const variable = variables.find(
    ([name]) => body.startsWith(name) && (body.length === name.length || '.['.includes(body.charAt(name.length))),
  );
  const steps: PathStep[] = [];
  let i = (parent ? 1 : 0) + (bare ? 0 : variable ? variable[0].length : 1);
  while (i < text.length) {
    const step = text[i] === '.' ? dotStep(text, i + 1) : text[i] === '[' ? bracketStep(text, i + 1) : undefined;
    if (!step)
      return err(
        `${JSON.stringify(text)}: unexpected ${JSON.stringify(text[i])} at position ${i}; expected ".name", "[0]", "[*]" or "[\\"name\\"]"`,
      );
    if (!step.ok) return err(`${JSON.stringify(text)}: ${step.error}`);
    steps.push(step.value.step);
    i = step.value.next;
  }
  return ok({
    text,
    steps,
    multi: steps.some((s) => s.kind === 'all'),
    ...(parent ? { parent } : {}),
    ...(variable ? { variable: variable[1] } : {}),
  });
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
  return selectEntries(path, { value: root, keys: [] }).map((e) => e.value);
}

/** The first value `path` selects in `root`, or undefined. */
export function selectOne(path: JsonPath, root: unknown): unknown {
  return selectAll(path, root)[0];
}

/** The first value `path` selects in `scope` (its value, keys, file or enclosing scope), or undefined. */
export function selectIn(path: JsonPath, scope: PathScope): unknown {
  return selectEntries(path, scope)[0]?.value;
}

/**
 * Every value `path` selects in `scope`, with the keys its wildcards found it under
 * (`$.*.*` on `{a: {t0: 1}}` gives `{value: 1, keys: ["a", "t0"]}`). Only wildcards add
 * keys; a wildcard over text or a number selects nothing, so `"answer": "42"` beside the agents of
 * `{agent: {...}, answer: "42"}` is skipped by `$.*.*`.
 */
export function selectEntries(path: JsonPath, scope: PathScope): PathEntry[] {
  const base = path.parent ? scope.parent : scope;
  if (base === undefined) return [];
  const start = path.variable ? variableOf(path.variable, base) : base.value;
  if (start === undefined) return [];
  let current: PathEntry[] = [{ value: start, keys: [] }];
  for (const step of path.steps) current = current.flatMap((entry) => applyStep(step, entry));
  return current;
}

function variableOf(variable: PathVariable, scope: PathScope): unknown {
  switch (variable) {
    case 'key':
      return scope.keys[scope.keys.length - 1];
    case 'keys':
      return [...scope.keys];
    case 'file':
      return scope.file;
    case 'fileStem':
      return scope.file === undefined ? undefined : stemOf(scope.file);
  }
}

/** The base name without its last extension: `runs/step_10.json` → `step_10`. */
export function stemOf(file: string): string {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

function applyStep(step: PathStep, entry: PathEntry): PathEntry[] {
  const { value, keys } = entry;
  switch (step.kind) {
    case 'key':
      // Own properties only: a mapping cannot reach `__proto__` or `constructor`.
      return isRecord(value) && Object.hasOwn(value, step.key) ? [{ value: value[step.key], keys }] : [];
    case 'index': {
      if (!Array.isArray(value)) return [];
      const index = step.index < 0 ? value.length + step.index : step.index;
      return index >= 0 && index < value.length ? [{ value: value[index] as unknown, keys }] : [];
    }
    case 'all':
      if (Array.isArray(value)) return (value as unknown[]).map((v, i) => ({ value: v, keys: [...keys, i] }));
      return isRecord(value) ? Object.entries(value).map(([k, v]) => ({ value: v, keys: [...keys, k] })) : [];
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
