// Authentication (§5, D6, D7). Keys are compared zero-padded to one width, word by word, so neither a key's
// length nor its first differing byte shows in the timing. Web-standard only: it runs in a browser.
import { BEARER_TOKEN_PATTERN } from '../contract/index.js';
import { fail, ok } from '../result.js';
import { errorJson, mockError } from './errors.js';

/** The longest key the mock accepts, and the width of every comparison. */
export const MAX_API_KEY_LENGTH = 512;

const API_KEY = new RegExp(BEARER_TOKEN_PATTERN);
// The scheme in any case (D7) and a b64token in one match: bearerToken's reading plus a second regex cost 0.3 µs.
const BEARER = new RegExp(`^bearer +(${BEARER_TOKEN_PATTERN.slice(1, -1)})$`, 'i');
// Built once, body included: a refused request allocates nothing here or for its body.
const UNAUTHORIZED = mockError('unauthorized', {
  headers: { 'www-authenticate': 'Bearer realm="petstore"' },
});
const REFUSED = fail({ ...UNAUTHORIZED, json: errorJson(UNAUTHORIZED) });
const ACCEPTED = ok(undefined);

/** Why a key cannot be sent as a bearer token (RFC 6750 b64token) or is too long; `undefined` for a good key. */
export function apiKeyProblem(key: string, from: string): string | undefined {
  if (!API_KEY.test(key)) {
    return `${from} ${JSON.stringify(key.slice(0, 40))} cannot be sent as a bearer token; use letters, digits and . _ ~ + / -`;
  }
  if (key.length > MAX_API_KEY_LENGTH) {
    return `${from} ${JSON.stringify(key.slice(0, 40))}… is longer than ${MAX_API_KEY_LENGTH} characters`;
  }
}

/** A token zero-padded to the fixed width; tokens are ASCII (the grammar), so a character is a byte. */
function pad(token: string, bytes = new Uint8Array(MAX_API_KEY_LENGTH)): Uint8Array {
  for (let i = 0; i < token.length; i++) bytes[i] = token.charCodeAt(i);
  bytes.fill(0, token.length);
  return bytes;
}

/** The check for a set of keys; throws on a key that can never be sent. */
export function createAuthenticator(keys: readonly string[]) {
  if (keys.length === 0) throw new Error('createAuthenticator needs at least one key');
  const known = keys.map((key) => {
    const problem = apiKeyProblem(key, 'API key');
    if (problem) throw new Error(problem);
    return { words: new Uint32Array(pad(key).buffer), length: key.length };
  });
  // One scratch buffer for the candidate: the engine answers one request at a time.
  const candidate = new Uint8Array(MAX_API_KEY_LENGTH);
  const words = new Uint32Array(candidate.buffer);
  const width = words.length; // a local bound: `words.length` in the loop made the check twice as slow
  return (authorization: string | undefined) => {
    const token = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
    // Refusing a token that no key can equal depends only on what the client sent.
    if (token === undefined || token.length > MAX_API_KEY_LENGTH) return REFUSED;
    pad(token, candidate);
    let matched = 0;
    for (const key of known) {
      let diff = key.length ^ token.length;
      for (let i = 0; i < width; i++) diff |= (words[i] as number) ^ (key.words[i] as number);
      matched |= diff === 0 ? 1 : 0;
    }
    return matched === 1 ? ACCEPTED : REFUSED;
  };
}
