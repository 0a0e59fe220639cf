/**
 * The one shape of an expected outcome in the project: a value, or the reason there is none. Throw only
 * for programmer errors and bugs; everything a user or a peer can get wrong comes back as a `Result`.
 * A leaf module (it imports nothing), so every part of the toolkit can adopt it without an import cycle.
 */

export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

/**
 * A success.
 *
 * @example ok(1) // { ok: true, value: 1 }
 */
export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/**
 * A failure with its reason.
 *
 * @example fail('no such file') // { ok: false, error: 'no such file' }
 */
export function fail<E>(error: E): { ok: false; error: E } {
  return { ok: false, error };
}
