/** A value or an error, for operations whose failure is expected (bad input), not exceptional. */
export type Result<T, E = string> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

/** Wraps a success value. */
export function ok<T>(value: T): Result<T, never> {
  return { ok: true, value };
}

/** Wraps an error. */
export function err<E>(error: E): Result<never, E> {
  return { ok: false, error };
}
