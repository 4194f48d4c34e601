// SQLite has no boolean type: a 0/1 column or EXISTS reads back as an integer. These are the only
// conversions a row needs between SQL (column aliases give the domain's names) and the domain types.

/** A 0/1 column as a boolean (any non-zero value is true, as in SQL). */
export function sqlBoolean(value: number): boolean {
  return value !== 0;
}

/** A nullable 0/1 column as a boolean, null kept (the trace does not say). */
export function sqlNullableBoolean(value: number | null): boolean | null {
  return value === null ? null : value !== 0;
}
