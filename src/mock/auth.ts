/**
 * Authentication (§5, D6, D7): `Authorization: Bearer <API_KEY>` with a key the mock accepts. The scheme
 * name is case-insensitive (RFC 9110 §11.1); any other scheme, an empty token or a bare key is 401.
 * Keys are compared in constant time: both sides are hashed to fixed-length digests first, so neither the
 * key's length nor its first differing byte shows in the timing, and every key is compared every time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { fail, type MockError, mockError, ok, type Result } from './errors.js';

/** RFC 6750 §2.1: `Bearer` 1*SP b64token. */
const TOKEN = '[A-Za-z0-9._~+/-]+=*';
const BEARER = new RegExp(`^bearer +(${TOKEN})$`, 'i');
const API_KEY = new RegExp(`^${TOKEN}$`);

const UNAUTHORIZED = mockError('unauthorized', {
  headers: { 'www-authenticate': 'Bearer realm="petstore"' },
});

/** Whether a key can be sent as a bearer token at all (RFC 6750 b64token). */
export function isValidApiKey(key: string): boolean {
  return API_KEY.test(key) && key.length <= 512;
}

/**
 * The message for a key that can never be sent as a bearer token, naming where it came from; `undefined`
 * for a good key.
 *
 * @example apiKeyProblem('bad key', '--api-key') // '--api-key "bad key" cannot be sent as a bearer token; …'
 */
export function apiKeyProblem(key: string, from: string): string | undefined {
  if (isValidApiKey(key)) return undefined;
  return `${from} ${JSON.stringify(key.slice(0, 40))} cannot be sent as a bearer token; use letters, digits and . _ ~ + / -`;
}

export type Authenticator = (authorization: string | undefined) => Result<void, MockError>;

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Builds the check for a set of keys.
 *
 * @example createAuthenticator(['petstore-dev-key'])('Bearer petstore-dev-key').ok // true
 */
export function createAuthenticator(keys: readonly string[]): Authenticator {
  if (keys.length === 0) throw new Error('createAuthenticator needs at least one key');
  const digests = keys.map(digest);
  return (authorization) => {
    const token = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
    if (token === undefined) return fail(UNAUTHORIZED);
    const candidate = digest(token);
    let match = false;
    for (const known of digests) match = timingSafeEqual(candidate, known) || match;
    return match ? ok(undefined) : fail(UNAUTHORIZED);
  };
}
