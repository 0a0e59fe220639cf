/** An expected outcome: a value, or the reason there is none. Throw only for bugs. */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

/** @example ok(1) // { ok: true, value: 1 } */
export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** @example fail('no such file') // { ok: false, error: 'no such file' } */
export function fail<E>(error: E): { ok: false; error: E } {
  return { ok: false, error };
}
