import type { BindParams, BindValue, Db, Statement } from './database';

/** The parameters a statement's SQL declares: its named ones (without the `:`/`@`/`$`) and how many positional `?`. */
export interface SqlParameters {
  readonly named: ReadonlySet<string>;
  readonly positional: number;
}

/**
 * The parameters of `sql`, found as SQLite's tokenizer would: outside string literals, quoted
 * identifiers and comments. `?NNN` counts as positional parameter NNN (so `?2` alone means two).
 */
export function sqlParameters(sql: string): SqlParameters {
  const named = new Set<string>();
  let positional = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql.charAt(i);
    const next = sql.charAt(i + 1);
    if (c === "'" || c === '"' || c === '`') i = afterQuoted(sql, i, c);
    else if (c === '[') i = after(sql, ']', i + 1);
    else if (c === '-' && next === '-') i = after(sql, '\n', i + 2);
    else if (c === '/' && next === '*') i = after(sql, '*/', i + 2);
    else if (c === '?') {
      const digits = /\d*/y;
      digits.lastIndex = i + 1;
      const number = digits.exec(sql)?.[0] ?? '';
      positional = number === '' ? positional + 1 : Math.max(positional, Number(number));
      i += 1 + number.length;
    } else if ((c === ':' || c === '@' || c === '$') && identifierPart.test(next)) {
      const name = /[\p{L}\p{N}_]+/uy;
      name.lastIndex = i + 1;
      const found = name.exec(sql)?.[0] ?? '';
      named.add(found);
      i += 1 + found.length;
    } else i++;
  }
  return { named, positional };
}

const identifierPart = /^[\p{L}\p{N}_]$/u;

/**
 * The values of `values` that `sql` names, for binding one row (an episode's sort key, a filter)
 * to several statements that each use part of it. A name `sql` uses but `values` lacks stays
 * missing, so the binding check still reports it.
 */
export function valuesFor(sql: string, values: Readonly<Record<string, BindValue>>): Record<string, BindValue> {
  const picked: Record<string, BindValue> = {};
  for (const name of sqlParameters(sql).named) {
    const value = values[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

function after(sql: string, end: string, from: number): number {
  const at = sql.indexOf(end, from);
  return at < 0 ? sql.length : at + end.length;
}

/** The index after the quoted token opening at `start` (a doubled quote is an escaped one). */
function afterQuoted(sql: string, start: number, quote: string): number {
  let from = start + 1;
  for (;;) {
    const at = sql.indexOf(quote, from);
    if (at < 0) return sql.length;
    if (sql.charAt(at + 1) !== quote) return at + 1;
    from = at + 2;
  }
}

/**
 * `db` with every statement's binding checked against its SQL before the driver sees it: named
 * values must be exactly the statement's named parameters, positional values exactly as many as
 * its `?`. The drivers disagree here — better-sqlite3 ignores an unused named value, node:sqlite
 * throws "Unknown named parameter", and node:sqlite binds NULL for a missing one — so both drivers
 * are wrapped, and a statement bound wrongly fails under every runtime, tests on Node 20 included.
 */
export function withCheckedBinding(db: Db): Db {
  return {
    prepare: <Row>(sql: string) => checkedStatement(db.prepare<Row>(sql), sql),
    exec: (sql) => {
      db.exec(sql);
    },
    transaction: (fn) => db.transaction(fn),
    pragma: (source) => db.pragma(source),
    get inTransaction() {
      return db.inTransaction;
    },
    close: () => {
      db.close();
    },
    ...(db.unsafeMode ? { unsafeMode: (on: boolean) => db.unsafeMode?.(on) } : {}),
  };
}

function checkedStatement<Row>(statement: Statement<Row>, sql: string): Statement<Row> {
  const parameters = sqlParameters(sql);
  if (parameters.named.size > 0 && parameters.positional > 0)
    throw new Error(`statement mixes named and positional parameters: ${excerpt(sql)}`);
  const check = (params: BindParams): BindParams => {
    checkBinding(parameters, params, sql);
    return params;
  };
  return {
    run: (...params) => statement.run(...check(params)),
    get: (...params) => statement.get(...check(params)),
    all: (...params) => statement.all(...check(params)),
    iterate: (...params) => statement.iterate(...check(params)),
    allValues: (...params) => valuesOf(statement, check(params)),
  };
}

/**
 * {@link Statement.allValues} of a driver's statement: the node:sqlite adapter has its own;
 * better-sqlite3's native statement (which the driver hands over as it is) answers arrays in raw mode,
 * switched on for this one call.
 */
function valuesOf<Row>(statement: Statement<Row>, params: BindParams): BindValue[][] {
  if (typeof (statement as Partial<Statement<Row>>).allValues === 'function') return statement.allValues(...params);
  const native = statement as unknown as { raw(on: boolean): unknown; all(...p: BindParams): BindValue[][] };
  native.raw(true);
  try {
    return native.all(...params);
  } finally {
    native.raw(false);
  }
}

/** Throws a RangeError naming the first value bound without a parameter, or parameter left without a value. */
export function checkBinding(parameters: SqlParameters, params: BindParams, sql: string): void {
  const values = namedValues(params);
  if (values) {
    const keys = Object.keys(values);
    for (const key of keys) {
      if (!parameters.named.has(key)) throw new RangeError(`Unknown named parameter '${key}' in ${excerpt(sql)}`);
    }
    if (keys.length === parameters.named.size) return; // every key is a parameter, so every parameter has a key
    for (const name of parameters.named) {
      if (values[name] === undefined) throw new RangeError(`Missing named parameter '${name}' in ${excerpt(sql)}`);
    }
  } else if (parameters.named.size > 0) {
    throw new RangeError(`${String(params.length)} positional value(s) bound to named parameters in ${excerpt(sql)}`);
  } else if (params.length !== parameters.positional) {
    throw new RangeError(
      `${String(params.length)} value(s) bound to ${String(parameters.positional)} parameter(s) in ${excerpt(sql)}`,
    );
  }
}

function namedValues(params: BindParams): Readonly<Record<string, BindValue>> | undefined {
  if (params.length !== 1) return undefined;
  const only: unknown = params[0];
  if (typeof only !== 'object' || only === null || only instanceof Uint8Array) return undefined;
  return only as Readonly<Record<string, BindValue>>;
}

function excerpt(sql: string): string {
  const text = sql.replace(/\s+/g, ' ').trim();
  return `"${text.length > 80 ? `${text.slice(0, 77)}...` : text}"`;
}
