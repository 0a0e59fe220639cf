/** An expected outcome: a value, or the reason there is none. Throw only for bugs. */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T) => ({ ok: true as const, value });

export const fail = <E>(error: E) => ({ ok: false as const, error });
