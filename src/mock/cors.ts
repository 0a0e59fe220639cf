// CORS for local front-end development (D14, `x-petstore-cors`): the default key is public, so only local
// origins and those named with `--cors-origin` get CORS headers. `null` (file: pages) is not local.
import { documentedResponseHeaders } from '../contract/document-schemas.js';
import { fail, ok, type Result } from '../result.js';
import type { CoreRequest } from './responses.js';

type HeaderMap = Record<string, string>;

/** A serialised origin (RFC 6454 §6.2): `scheme://host[:port]`, or `null`. */
const ORIGIN =
  /^(?:null|[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~%!$&'()*+,;=-]+)(?::\d{1,5})?)$/;
/** A method or header name is a token (RFC 9110 §5.6.2); anything else is never echoed. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** The headers the mock reads, allowed when a preflight lists none. */
const READ_HEADERS = 'Authorization, Content-Type, Prefer, X-Mock-Session';
const PREFLIGHT_VARY =
  'Origin, Access-Control-Request-Method, Access-Control-Request-Headers, Access-Control-Request-Private-Network';

/** Whether a value can be echoed as `Access-Control-Allow-Origin`. */
export function isOrigin(value: string): boolean {
  return value.length <= 256 && ORIGIN.test(value);
}

/** Reads one `--cors-origin` value: `*`, `null`, or an origin, lower-cased as browsers send it. */
export function parseCorsOrigin(value: string, flag = '--cors-origin'): Result<string, string> {
  const trimmed = value.trim();
  if (trimmed === '*') return ok('*');
  const bare = trimmed.replace(/\/+$/, '');
  if (isOrigin(bare)) return ok(bare.toLowerCase());
  return fail(
    `${flag}: "${value.slice(0, 80)}" is not an origin; give scheme, host and port only, such as http://app.test:3000, or * for any origin`,
  );
}

/** Local by name alone (`localhost`, `127.0.0.0/8`, `[::1]`): a DNS name rebound to 127.0.0.1 is not. */
function isLocalOrigin(origin: string): boolean {
  const host = /^https?:\/\/(\[[^\]]*\]|[^:/]+)(?::\d{1,5})?$/i.exec(origin)?.[1]?.toLowerCase();
  if (host === undefined || !isOrigin(origin)) return false;
  const ipv4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return (
    host === 'localhost' || host === '[::1]' || (ipv4?.slice(1).every((part) => Number(part) <= 255) ?? false)
  );
}

/** Reads one `--allowed-host` value: a host name or IP address, without scheme or port, lower-cased. */
export function parseAllowedHost(value: string, flag = '--allowed-host'): Result<string, string> {
  const name = value.trim().toLowerCase();
  if (/^(?:\[[0-9a-f:.]+\]|[a-z0-9._-]{1,253})$/.test(name)) return ok(name);
  return fail(
    `${flag}: "${value.slice(0, 80)}" is not a host name; give the name only, such as mock.lan or 192.168.1.20`,
  );
}

/** Whether a `Host` is local or `named`: a page rebound to 127.0.0.1 sends its own name; MSW sends none. */
export function allowsHost(host: string | undefined, named: readonly string[]): boolean {
  if (host === undefined || isLocalOrigin(`http://${host}`)) return true;
  const name = /^(\[[^\]]*\]|[^:]*)(?::\d{1,5})?$/.exec(host)?.[1]?.toLowerCase();
  return name !== undefined && named.some((allowed) => allowed.toLowerCase() === name);
}

/** The names in `Access-Control-Request-Headers`, if it is a bounded list of tokens, for echoing. */
function requestedHeaders(value: string | undefined): string | undefined {
  if (value === undefined || value.length > 1024) return undefined;
  const names = value.split(',').flatMap((name) => name.trim() || []);
  return names.length > 0 && names.every((name) => TOKEN.test(name)) ? names.join(', ') : undefined;
}

/** The CORS answers of the document's `x-petstore-cors` for the local origins and `origins`. */
export function compileCors(document: Readonly<Record<string, unknown>>, origins: readonly string[] = []) {
  const names = (document['x-petstore-cors'] as { exposeHeaders?: unknown } | undefined)?.exposeHeaders;
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string' && TOKEN.test(name))) {
    throw new Error('x-petstore-cors.exposeHeaders must be a list of header names');
  }
  // D14: a page may read every header the contract documents (a draft's `X-Total-Count`).
  const documented = [...documentedResponseHeaders(document).values()].flatMap((byStatus) =>
    [...byStatus.values()].flat().map((header) => header.shownAs),
  );
  const byName = new Map([...names, ...documented].map((name) => [name.toLowerCase(), name]));
  const exposeHeaders = [...byName.values()].filter((name) => TOKEN.test(name)).join(', ');
  const anyAllowed = origins.includes('*');
  const named = new Set(origins.map((origin) => origin.toLowerCase()));
  // Most answers go to clients without Origin (curl, tests): one frozen object for all of them.
  const anyOrigin: HeaderMap = Object.freeze({
    'access-control-allow-origin': '*',
    'access-control-expose-headers': exposeHeaders,
    vary: 'Origin',
  }) as HeaderMap;
  const refused: HeaderMap = Object.freeze({ vary: 'Origin' }) as HeaderMap;

  const allows = (origin: string | undefined): boolean =>
    origin === undefined ||
    (isOrigin(origin) && (anyAllowed || isLocalOrigin(origin) || named.has(origin.toLowerCase())));

  // An allowed origin is reflected with credentials (a wildcard cannot carry them).
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

  // The method asked about is allowed even if undocumented, so the page then reads the 405 Error.
  const preflight = ({ header }: Pick<CoreRequest, 'header'>, methods: readonly string[]): HeaderMap => {
    const allow: HeaderMap = methods.length > 0 ? { allow: methods.join(', ') } : {};
    const origin = header('origin');
    if (!allows(origin)) return { vary: PREFLIGHT_VARY, ...allow };
    const asked = header('access-control-request-method');
    const echo = asked !== undefined && asked.length <= 32 && TOKEN.test(asked) && !methods.includes(asked);
    return {
      ...headers(origin),
      'access-control-allow-methods': (echo ? [...methods, asked] : methods).join(', '),
      // Reflected, not `*`: a wildcard does not work with credentials and never covers Authorization.
      'access-control-allow-headers':
        requestedHeaders(header('access-control-request-headers')) ?? READ_HEADERS,
      'access-control-max-age': '600',
      ...(header('access-control-request-private-network')?.toLowerCase() === 'true'
        ? { 'access-control-allow-private-network': 'true' }
        : {}),
      vary: PREFLIGHT_VARY,
      ...allow,
    };
  };

  return { allows, headers, preflight };
}
