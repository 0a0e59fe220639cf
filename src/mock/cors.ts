/**
 * CORS for local front-end development (D14, the document's `x-petstore-cors`), the way browser apps use
 * it: a page that sends a tracing header (`X-Request-Id`) or uses `credentials: 'include'` must work.
 *
 * - Every answer reflects the request's `Origin` with `Access-Control-Allow-Credentials: true` and
 *   `Vary: Origin`: a wildcard cannot carry credentials (Fetch standard, CORS check). Without an `Origin`
 *   (curl, a server) the answer says `*`, which no browser needs credentials for.
 * - A preflight reflects the method and the headers the page asks for, so a page never meets an opaque CORS
 *   failure; the real request then gets the mock's own answer (401, 404, 405 Error), which it can read.
 *
 * Allowing any origin with credentials is safe here: the key travels in `Authorization`, never in a cookie,
 * so a page gains nothing it could not already send. The headers a page's script may read come from the
 * document (`exposeHeaders`), so the docs and the mock cannot disagree.
 */

export type HeaderMap = Record<string, string>;

/** A serialised origin (RFC 6454 §6.2): `scheme://host[:port]`, or `null` (file:, sandboxed frames). */
const ORIGIN =
  /^(?:null|[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~%!$&'()*+,;=-]+)(?::\d{1,5})?)$/;
/** An HTTP method or header name is a token (RFC 9110 §5.6.2); anything else is never echoed. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const MAX_ORIGIN = 256;
const MAX_METHOD = 32;
/** Access-Control-Request-Headers longer than this is not reflected (a page sends a handful of names). */
const MAX_REQUEST_HEADERS = 1024;
/** The headers the mock itself reads, allowed even when a preflight lists none. */
const READ_HEADERS = 'Authorization, Content-Type, Prefer, X-Mock-Session';
const PREFLIGHT_VARY =
  'Origin, Access-Control-Request-Method, Access-Control-Request-Headers, Access-Control-Request-Private-Network';

/** What the browser sent that CORS answers depend on. */
export interface CorsRequest {
  origin: string | undefined;
  /** `Access-Control-Request-Method` of a preflight. */
  method?: string | undefined;
  /** `Access-Control-Request-Headers` of a preflight. */
  headers?: string | undefined;
  /** `Access-Control-Request-Private-Network` of a preflight (Chromium's Private Network Access). */
  privateNetwork?: string | undefined;
}

export interface Cors {
  /**
   * The CORS headers of an answer to a request with this `Origin`.
   *
   * @example cors.headers('http://localhost:5173')['access-control-allow-origin'] // 'http://localhost:5173'
   */
  headers(origin: string | undefined): HeaderMap;
  /**
   * The CORS headers of a preflight's answer, for a path whose documented methods are `methods` (empty for
   * an unknown path). The method asked about is allowed even when the path does not document it: the real
   * request then gets the 405 Error with `Allow`, which the page can read, rather than a CORS failure.
   *
   * @example cors.preflight({ origin: 'http://a.test', method: 'DELETE', headers: 'x-request-id' }, ['DELETE', 'OPTIONS'])
   */
  preflight(request: CorsRequest, methods: readonly string[]): HeaderMap;
  /** The `Access-Control-Expose-Headers` value, read from the document. */
  readonly exposeHeaders: string;
}

/** Whether a value can be echoed as `Access-Control-Allow-Origin`. */
export function isOrigin(value: string): boolean {
  return value.length <= MAX_ORIGIN && ORIGIN.test(value);
}

/** The header names of an `Access-Control-Request-Headers` value, or `undefined` when it is not a list of tokens. */
function requestedHeaders(value: string | undefined): string[] | undefined {
  if (value === undefined || value.length > MAX_REQUEST_HEADERS) return undefined;
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.every((name) => TOKEN.test(name)) ? names : undefined;
}

function readExposeHeaders(document: Readonly<Record<string, unknown>>): string {
  const extension = document['x-petstore-cors'] as { exposeHeaders?: unknown } | undefined;
  const names = extension?.exposeHeaders;
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string' && TOKEN.test(name))) {
    throw new Error('x-petstore-cors.exposeHeaders must be a list of header names');
  }
  return names.join(', ');
}

/**
 * Builds the CORS answers from the document's `x-petstore-cors`.
 *
 * @example compileCors(defaultContract().document).headers(undefined)['access-control-allow-origin'] // '*'
 */
export function compileCors(document: Readonly<Record<string, unknown>>): Cors {
  const exposeHeaders = readExposeHeaders(document);
  // Most answers go to clients without Origin (curl, tests, servers): one frozen object for all of them.
  const anyOrigin: HeaderMap = Object.freeze({
    'access-control-allow-origin': '*',
    'access-control-expose-headers': exposeHeaders,
    vary: 'Origin',
  }) as HeaderMap;

  const headers = (origin: string | undefined): HeaderMap =>
    origin === undefined || !isOrigin(origin)
      ? anyOrigin
      : {
          'access-control-allow-origin': origin,
          'access-control-allow-credentials': 'true',
          'access-control-expose-headers': exposeHeaders,
          vary: 'Origin',
        };

  const preflight = (request: CorsRequest, methods: readonly string[]): HeaderMap => {
    const asked = request.method;
    const echo =
      asked !== undefined && asked.length <= MAX_METHOD && TOKEN.test(asked) && !methods.includes(asked);
    const allowed = echo ? [...methods, asked] : methods;
    const names = requestedHeaders(request.headers);
    return {
      ...headers(request.origin),
      'access-control-allow-methods': allowed.join(', '),
      // Reflected, not `*`: a wildcard does not work with credentials and never covers Authorization.
      'access-control-allow-headers': names && names.length > 0 ? names.join(', ') : READ_HEADERS,
      'access-control-max-age': '600',
      ...(request.privateNetwork?.toLowerCase() === 'true'
        ? { 'access-control-allow-private-network': 'true' }
        : {}),
      vary: PREFLIGHT_VARY,
      ...(methods.length > 0 ? { allow: methods.join(', ') } : {}),
    };
  };

  return { headers, preflight, exposeHeaders };
}
