/**
 * CORS for local front-end development (D14, `x-petstore-cors`): every response may be read by any
 * origin, and a preflight `OPTIONS` is answered without a key. Keys travel in the Authorization header,
 * not cookies, so `*` is safe here and no credentials mode is offered.
 */

/** Headers added to every response. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Allow, Deprecation, Sunset, Preference-Applied, WWW-Authenticate',
};

/** The answer to a preflight for a path whose methods are `methods`. */
export function preflightHeaders(methods: readonly string[]): Record<string, string> {
  return {
    ...CORS_HEADERS,
    'access-control-allow-methods': methods.join(', '),
    // A wildcard would not cover Authorization (Fetch standard), so the headers are named.
    'access-control-allow-headers': 'Authorization, Content-Type, Prefer, X-Mock-Session',
    'access-control-max-age': '600',
    allow: methods.join(', '),
  };
}
