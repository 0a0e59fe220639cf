/**
 * CORS for local front-end development (D14, the document's `x-petstore-cors`), the way browser apps use
 * it: a page that sends a tracing header (`X-Request-Id`) or uses `credentials: 'include'` must work.
 *
 * - Which pages may use the mock: loopback and `localhost` origins (`localhost`, `127.0.0.0/8`, `[::1]`,
 *   any port, http or https), plus the origins named with `--cors-origin` (`*` for any). The default key
 *   is public, so a page from anywhere else must not read or steer a developer's mock: it gets no CORS
 *   headers at all (its script cannot read an answer, and a preflight fails so nothing with a key is
 *   sent), and the core refuses it the control endpoints outright (`origin_not_allowed`).
 * - An allowed page's answer reflects its `Origin` with `Access-Control-Allow-Credentials: true` and
 *   `Vary: Origin`: a wildcard cannot carry credentials (Fetch standard, CORS check). Without an `Origin`
 *   (curl, a server) the answer says `*`, which no browser needs credentials for.
 * - A preflight reflects the method and the headers the page asks for, so a page never meets an opaque CORS
 *   failure; the real request then gets the mock's own answer (401, 404, 405 Error), which it can read.
 *
 * `null` (a file: page, and any sandboxed frame of any site) is not local: name it with
 * `--cors-origin null` to allow it. The headers a page's script may read come from the document
 * (`exposeHeaders`), so the docs and the mock cannot disagree.
 */
import { fail, ok, type Result } from '../result.js';

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
   * Whether a request with this `Origin` may use the mock from a page; a request without one (curl, a
   * server, a test) always may.
   *
   * @example compileCors().allows('http://evil.test') // false
   */
  allows(origin: string | undefined): boolean;
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

/** The `--cors-origin` value that allows a page from any origin (what the mock did before D14 was narrowed). */
export const ANY_ORIGIN = '*';

/**
 * Reads one `--cors-origin` value: `*`, `null`, or a serialised origin (scheme, host, optional port),
 * lower-cased as browsers send it.
 *
 * @example parseCorsOrigin('http://App.test:3000') // { ok: true, value: 'http://app.test:3000' }
 */
export function parseCorsOrigin(value: string): Result<string, string> {
  const trimmed = value.trim();
  if (trimmed === ANY_ORIGIN) return ok(ANY_ORIGIN);
  const bare = trimmed.replace(/\/+$/, '');
  if (!isOrigin(bare)) {
    return fail(
      `"${value.slice(0, 80)}" is not an origin; give scheme, host and port only, such as http://app.test:3000, or * for any origin`,
    );
  }
  return ok(bare.toLowerCase());
}

const IPV4_LOOPBACK = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * Whether an origin is on this machine by its name alone: http(s) on `localhost`, `127.0.0.0/8` or
 * `[::1]`, any port. No name lookup: a DNS name that resolves to 127.0.0.1 (rebinding) is not local.
 *
 * @example isLocalOrigin('http://127.0.0.1:5173') // true
 */
export function isLocalOrigin(origin: string): boolean {
  const match = /^https?:\/\/(\[[^\]]*\]|[^:/]+)(?::\d{1,5})?$/i.exec(origin);
  if (!match || !isOrigin(origin)) return false;
  const host = (match[1] as string).toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  const ipv4 = IPV4_LOOPBACK.exec(host);
  return ipv4?.slice(1).every((part) => Number(part) <= 255) === true;
}

/**
 * Reads one `--allowed-host` value: a host name or IP address, without scheme or port, lower-cased.
 *
 * @example parseAllowedHost('Mock.LAN') // { ok: true, value: 'mock.lan' }
 */
export function parseAllowedHost(value: string): Result<string, string> {
  const name = value.trim().toLowerCase();
  if (/^(?:\[[0-9a-f:.]+\]|[a-z0-9._-]{1,253})$/.test(name)) return ok(name);
  return fail(
    `"${value.slice(0, 80)}" is not a host name; give the name only, such as mock.lan or 192.168.1.20`,
  );
}

/**
 * Whether a `Host` header names this machine (`localhost`, `127.0.0.0/8`, `[::1]`, any port) or one of
 * `named` (values of {@link parseAllowedHost}). A page whose DNS name was rebound to 127.0.0.1 still sends
 * its own name, so it is refused, as Vite's `server.allowedHosts` does. No `Host` (MSW in a page, where
 * there is no socket) has nothing to check.
 *
 * @example allowsHost('evil.test:4010', []) // false
 */
export function allowsHost(host: string | undefined, named: readonly string[]): boolean {
  if (host === undefined || isLocalOrigin(`http://${host}`)) return true;
  const name = /^(\[[^\]]*\]|[^:]*)(?::\d{1,5})?$/.exec(host)?.[1]?.toLowerCase();
  return name !== undefined && named.some((allowed) => allowed.toLowerCase() === name);
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
 * Builds the CORS answers from the document's `x-petstore-cors`, for the local origins plus `origins`
 * (values of {@link parseCorsOrigin}; `*` allows any).
 *
 * @example compileCors(defaultContract().document, ['https://app.test']).allows('https://app.test') // true
 */
export function compileCors(
  document: Readonly<Record<string, unknown>>,
  origins: readonly string[] = [],
): Cors {
  const exposeHeaders = readExposeHeaders(document);
  const anyAllowed = origins.includes(ANY_ORIGIN);
  const named = new Set(origins.map((origin) => origin.toLowerCase()));
  // Most answers go to clients without Origin (curl, tests, servers): one frozen object for all of them.
  const anyOrigin: HeaderMap = Object.freeze({
    'access-control-allow-origin': '*',
    'access-control-expose-headers': exposeHeaders,
    vary: 'Origin',
  }) as HeaderMap;
  // A refused page gets no CORS header; Vary still tells a cache that the answer depends on Origin.
  const refused: HeaderMap = Object.freeze({ vary: 'Origin' }) as HeaderMap;

  const allows = (origin: string | undefined): boolean =>
    origin === undefined ||
    (isOrigin(origin) && (anyAllowed || isLocalOrigin(origin) || named.has(origin.toLowerCase())));

  const headers = (origin: string | undefined): HeaderMap => {
    if (origin === undefined) return anyOrigin;
    if (!allows(origin)) return refused;
    return {
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': exposeHeaders,
      vary: 'Origin',
    };
  };

  const preflight = (request: CorsRequest, methods: readonly string[]): HeaderMap => {
    const allow: HeaderMap = methods.length > 0 ? { allow: methods.join(', ') } : {};
    if (request.origin !== undefined && !allows(request.origin)) return { vary: PREFLIGHT_VARY, ...allow };
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
      ...allow,
    };
  };

  return { allows, headers, preflight, exposeHeaders };
}
