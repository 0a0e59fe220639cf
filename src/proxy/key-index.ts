/**
 * Whose traffic an exchange is, without keeping the key: each API key is known by a SHA-256 digest
 * and shown only as its number in order of first use (`key #1`), so neither the key nor a digest that
 * could be checked against guesses appears anywhere.
 */
import { createHash } from 'node:crypto';

/** The most keys numbered; later new keys share one label. */
export const MAX_KEYS = 10_000;

/**
 * The secret an Authorization value carries: the token after the scheme (`Bearer`, `Basic`, …), or the
 * whole value when it has no scheme (a bare key). Empty when there is none.
 *
 * @example secretOf('Bearer abc ') // 'abc'
 */
export function secretOf(authorization: string | undefined): string {
  const value = (authorization ?? '').trim();
  const match = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*\s+(.*)$/.exec(value);
  if (match) return (match[1] ?? '').trim();
  // `Bearer ` with an empty token arrives trimmed to the scheme name alone: no secret in it.
  return SCHEMES.has(value.toLowerCase()) ? '' : value;
}

/** Scheme names that, alone, carry no token. */
const SCHEMES = new Set(['bearer', 'basic', 'token', 'digest', 'negotiate', 'apikey']);

export class KeyIndex {
  private readonly numbers = new Map<string, number>();

  /** `key #N` for a key, `no key` for none. */
  label(secret: string): string {
    if (secret === '') return 'no key';
    const digest = createHash('sha256').update(secret).digest('base64');
    let n = this.numbers.get(digest);
    if (n === undefined) {
      if (this.numbers.size >= MAX_KEYS) return `key #${MAX_KEYS}+`;
      n = this.numbers.size + 1;
      this.numbers.set(digest, n);
    }
    return `key #${n}`;
  }

  get size(): number {
    return this.numbers.size;
  }
}
