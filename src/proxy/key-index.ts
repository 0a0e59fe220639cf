/**
 * Whose traffic an exchange is, without showing the key: each API key is known by a SHA-256 digest
 * and shown only as its number in order of first use (`key #1`), so neither the key nor a digest that
 * could be checked against guesses appears anywhere. The last keys used are also held, in memory only,
 * because an upstream can echo a key into the answer to another request (a keyless one, say), and every
 * finding is redacted with each of them. A key is one sent in `Authorization` or as the value of a
 * credential-like query parameter (`?api_key=`, `?access_token=`: pages that cannot set a header send it
 * there).
 */
import { createHash } from 'node:crypto';
import { CREDENTIAL_PARAMETER, SHORT_KEY } from '../judge/redact.js';

/** The most keys numbered; later new keys share one label. */
export const MAX_KEYS = 10_000;
/**
 * The most keys held for redacting other requests' findings, the most recently used ones, in each of two
 * sets: keys the upstream accepted and keys it refused (401). Anyone can send keys that are refused, so
 * those never push out one that was accepted.
 */
export const MAX_HELD_KEYS = 32;
/** Longer values are not held for other requests: each held key costs every later finding a search. */
const MAX_HELD_KEY_CHARS = 4096;

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

/**
 * The values of credential-like query parameters in a request target, decoded (`+` as a space).
 *
 * @example querySecrets('/v1/store/orders?api_key=abc%2Fdef&x=1') // ['abc/def']
 */
export function querySecrets(target: string): string[] {
  const query = /\?([^#]*)/.exec(target)?.[1] ?? '';
  const decode = (text: string): string => {
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      return text;
    }
  };
  const secrets: string[] = [];
  for (const pair of query.split(/[&;]/)) {
    const eq = pair.indexOf('=');
    const value = decode(pair.slice(eq + 1));
    if (eq > 0 && value !== '' && CREDENTIAL_PARAMETER.test(decode(pair.slice(0, eq)))) secrets.push(value);
  }
  return secrets;
}

export class KeyIndex {
  private readonly numbers = new Map<string, number>();
  /** Insertion order is the order of last use. */
  private readonly accepted = new Set<string>();
  private readonly refused = new Set<string>();

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

  /**
   * Keys of other requests to redact besides a request's own. A key shorter than {@link SHORT_KEY} is
   * left out: it also occurs in ordinary words, and redacting it everywhere would blank every report (it
   * is still redacted in its own request's findings).
   */
  secrets(): readonly string[] {
    return [...this.accepted, ...this.refused];
  }

  /** Holds a key a request carried; `accepted` when the upstream's answer was not 401. */
  hold(secret: string, accepted: boolean): void {
    if (secret.length < SHORT_KEY || secret.length > MAX_HELD_KEY_CHARS) return;
    if (accepted) this.refused.delete(secret);
    else if (this.accepted.has(secret)) return;
    const held = accepted ? this.accepted : this.refused;
    held.delete(secret);
    held.add(secret);
    if (held.size > MAX_HELD_KEYS) {
      const oldest = held.values().next().value;
      if (oldest !== undefined) held.delete(oldest);
    }
  }

  get size(): number {
    return this.numbers.size;
  }
}
