/**
 * Authentication (§5, D6, D7): `Authorization: Bearer <API_KEY>` with a key the mock accepts. The scheme
 * name is case-insensitive (RFC 9110 §11.1); any other scheme, an empty token or a bare key is 401.
 *
 * Keys are compared in constant time without hashing: every key and the candidate are laid into buffers
 * of one fixed size ({@link MAX_API_KEY_LENGTH} bytes, zero-padded) and XOR-compared word by word, the
 * lengths folded in. The work is the same whatever the key, so neither a configured key's length nor the
 * first differing byte shows in the timing, and every key is compared every time. Web-standard only: it
 * runs unchanged in a browser.
 */
import { fail, ok, type Result } from '../result.js';
import { type MockError, mockError } from './errors.js';

/** The longest key the mock accepts; also the fixed width of every comparison. */
export const MAX_API_KEY_LENGTH = 512;

/**
 * The bearer token grammar, RFC 6750 §2.1 b64token. The one copy: `fixtures/fixtures.schema.json`'s
 * `apiKeys` pattern is held equal to it by src/mock/auth.test.ts.
 */
export const BEARER_TOKEN_PATTERN = '^[A-Za-z0-9._~+/-]+=*$';
/** `Bearer` 1*SP b64token. */
const BEARER = new RegExp(`^bearer +(${BEARER_TOKEN_PATTERN.slice(1, -1)})$`, 'i');
const API_KEY = new RegExp(BEARER_TOKEN_PATTERN);

const UNAUTHORIZED = mockError('unauthorized', {
  headers: { 'www-authenticate': 'Bearer realm="petstore"' },
});

/** Whether a key can be sent as a bearer token at all (RFC 6750 b64token), and is not too long. */
export function isValidApiKey(key: string): boolean {
  return API_KEY.test(key) && key.length <= MAX_API_KEY_LENGTH;
}

/**
 * The message for a key that can never be sent as a bearer token, naming where it came from; `undefined`
 * for a good key.
 *
 * @example apiKeyProblem('bad key', '--api-key') // '--api-key "bad key" cannot be sent as a bearer token; …'
 */
export function apiKeyProblem(key: string, from: string): string | undefined {
  if (isValidApiKey(key)) return undefined;
  if (API_KEY.test(key)) {
    return `${from} ${JSON.stringify(key.slice(0, 40))}… is longer than ${MAX_API_KEY_LENGTH} characters`;
  }
  return `${from} ${JSON.stringify(key.slice(0, 40))} cannot be sent as a bearer token; use letters, digits and . _ ~ + / -`;
}

export type Authenticator = (authorization: string | undefined) => Result<void, MockError>;

/** A zero-padded fixed-width buffer, written as bytes and compared as 32-bit words. */
interface Slot {
  bytes: Uint8Array;
  words: Uint32Array;
}

function slot(): Slot {
  const bytes = new Uint8Array(MAX_API_KEY_LENGTH);
  return { bytes, words: new Uint32Array(bytes.buffer) };
}

/** Lays a token into a slot; tokens are ASCII (the grammar), so a character is a byte. */
function fill(target: Slot, token: string): void {
  const { bytes } = target;
  for (let i = 0; i < token.length; i++) bytes[i] = token.charCodeAt(i);
  bytes.fill(0, token.length);
}

/**
 * Builds the check for a set of keys.
 *
 * @example createAuthenticator(['petstore-dev-key'])('Bearer petstore-dev-key').ok // true
 */
export function createAuthenticator(keys: readonly string[]): Authenticator {
  if (keys.length === 0) throw new Error('createAuthenticator needs at least one key');
  const width = MAX_API_KEY_LENGTH / 4;
  const known = keys.map((key) => {
    if (!isValidApiKey(key)) throw new Error(apiKeyProblem(key, 'API key'));
    const stored = slot();
    fill(stored, key);
    return { words: stored.words, length: key.length };
  });
  // One scratch buffer for the candidate: the core answers one request at a time.
  const candidate = slot();
  const words = candidate.words;
  return (authorization) => {
    const token = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
    // A longer token cannot equal any key; refusing it depends only on what the client sent.
    if (token === undefined || token.length > MAX_API_KEY_LENGTH) return fail(UNAUTHORIZED);
    fill(candidate, token);
    let matched = 0;
    for (const key of known) {
      let diff = key.length ^ token.length;
      for (let i = 0; i < width; i++) diff |= (words[i] as number) ^ (key.words[i] as number);
      matched |= diff === 0 ? 1 : 0;
    }
    return matched === 1 ? ok(undefined) : fail(UNAUTHORIZED);
  };
}
