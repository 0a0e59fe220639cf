// The proxy serves under the upstream's base path: a client switches by changing only host and port.
import { fail, ok, type Result } from '../result.js';

export interface Upstream {
  protocol: 'http:' | 'https:';
  hostname: string;
  port: number;
  /** The value of the Host header sent upstream: `127.0.0.1:4010`. */
  host: string;
  /** The base path without a trailing slash, `''` for the root: `/v1`. */
  basePath: string;
  /** For reports and curl lines: `http://127.0.0.1:4010/v1`. */
  baseUrl: string;
}

/** Reads `--upstream`; refuses another scheme, credentials (they would reach reports), query or fragment. */
export function parseUpstream(raw: string): Result<Upstream, string> {
  const url = URL.canParse(raw) ? new URL(raw) : null;
  const problem =
    url === null
      ? `must be an absolute http:// or https:// URL, got ${JSON.stringify(raw)}`
      : url.protocol !== 'http:' && url.protocol !== 'https:'
        ? `must use http:// or https://, not ${url.protocol}//`
        : url.username !== '' || url.password !== ''
          ? 'must not contain credentials (user:password@); clients send their own Authorization'
          : url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#')
            ? 'must not have a query or a fragment: give the base URL, e.g. http://127.0.0.1:4010/v1'
            : null;
  if (url === null || problem !== null) return fail(`--upstream ${problem}`);
  const protocol = url.protocol as Upstream['protocol'];
  const basePath = url.pathname.replace(/\/+$/, '');
  const port = url.port === '' ? (protocol === 'https:' ? 443 : 80) : Number(url.port);
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const baseUrl = `${protocol}//${url.host}${basePath}`;
  return ok({ protocol, hostname, port, host: url.host, basePath, baseUrl });
}

/** `/v1/orders?x=1` below `/v1` is `/orders?x=1`; `null` outside the base (judged unknown, D10). */
export function pathBelowBase(requestPath: string, basePath: string): string | null {
  if (basePath === '') return requestPath;
  const next = requestPath.charAt(basePath.length);
  const below = requestPath.startsWith(basePath) && (next === '/' || next === '?' || next === '');
  return below ? requestPath.slice(basePath.length) : null;
}
