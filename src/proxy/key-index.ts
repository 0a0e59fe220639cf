/** A key shows as `key #N`, never a digest to test guesses on; the last ones are held to redact echoes. */
import { createHash } from 'node:crypto';
import { CREDENTIAL_PARAMETER, SHORT_KEY } from '../judge/redact.js';
import { decodeLoosely } from '../mock/router.js';

/** The most keys numbered; later new keys share one label. */
export const MAX_KEYS = 10_000;
/** The latest keys held for redaction, accepted and refused apart: a refused one never pushes out another. */
export const MAX_HELD_KEYS = 32;
/** Each held key costs every later finding a search. */
const MAX_HELD_KEY_CHARS = 4096;

/** The token after an Authorization scheme, or the whole value: `secretOf('Bearer abc ')` is `abc`. */
export function secretOf(authorization: string | undefined): string {
  const value = (authorization ?? '').trim();
  const match = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*\s+(.*)$/.exec(value);
  if (match) return (match[1] ?? '').trim();
  return SCHEMES.has(value.toLowerCase()) ? '' : value;
}

/** `Bearer ` with an empty token arrives trimmed to the scheme alone. */
const SCHEMES = new Set(['bearer', 'basic', 'token', 'digest', 'negotiate', 'apikey']);

/** Credential-like query values, decoded: `querySecrets('/o?api_key=a%2Fb&x=1')` is `['a/b']`. */
export function querySecrets(target: string): string[] {
  const query = /\?([^#]*)/.exec(target)?.[1] ?? '';
  const decode = (text: string): string => decodeLoosely(text.replace(/\+/g, ' '));
  return query.split(/[&;]/).flatMap((pair) => {
    const eq = pair.indexOf('=');
    const value = decode(pair.slice(eq + 1));
    return eq > 0 && value !== '' && CREDENTIAL_PARAMETER.test(decode(pair.slice(0, eq))) ? [value] : [];
  });
}

export class KeyIndex {
  private readonly numbers = new Map<string, number>();
  /** In order of last use. */
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

  /** Keys of other requests to redact; shorter than {@link SHORT_KEY} they would blank every report. */
  secrets(): readonly string[] {
    return [...this.accepted, ...this.refused];
  }

  /** `accepted` when the upstream's answer was not 401. */
  hold(secret: string, accepted: boolean): void {
    if (secret.length < SHORT_KEY || secret.length > MAX_HELD_KEY_CHARS) return;
    if (accepted) this.refused.delete(secret);
    else if (this.accepted.has(secret)) return;
    const held = accepted ? this.accepted : this.refused;
    held.delete(secret);
    held.add(secret);
    if (held.size > MAX_HELD_KEYS) held.delete(held.values().next().value as string);
  }
}
