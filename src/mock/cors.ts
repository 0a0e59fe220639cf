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

/** An HTTP method is a token (RFC 9110 §9.1); anything else is never echoed into a header. */
const METHOD_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/;

/**
 * The answer to a preflight for a path whose documented methods are `methods`. The method the browser asks
 * about is allowed even when the path does not document it: the real request then gets the mock's 405
 * Error with `Allow`, which the page can read, rather than a CORS failure it cannot.
 */
export function preflightHeaders(methods: readonly string[], requested?: string): Record<string, string> {
  const echo = requested !== undefined && METHOD_TOKEN.test(requested) && !methods.includes(requested);
  const allowed = echo ? [...methods, requested] : methods;
  return {
    ...CORS_HEADERS,
    'access-control-allow-methods': allowed.join(', '),
    // A wildcard would not cover Authorization (Fetch standard), so the headers are named.
    'access-control-allow-headers': 'Authorization, Content-Type, Prefer, X-Mock-Session',
    'access-control-max-age': '600',
    ...(methods.length > 0 ? { allow: methods.join(', ') } : {}),
  };
}
