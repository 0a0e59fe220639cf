/**
 * The upstream the proxy forwards to, read from `--upstream`. The proxy serves under the same base path
 * as the upstream (`--upstream http://127.0.0.1:4010/v1` → clients use `http://127.0.0.1:4020/v1`), so a
 * client switches to the proxy by changing only the host and port, and every path goes upstream as sent.
 */
import type { Result } from '../result.js';

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

/** An upstream to forward to, or why the URL cannot be one. */
export type UpstreamResult = Result<Upstream, string>;

/**
 * Reads an upstream base URL. Refuses what cannot be forwarded faithfully: another scheme, credentials
 * (they would end up in reports), a query or a fragment.
 *
 * @example parseUpstream('http://127.0.0.1:4010/v1') // { ok: true, value: { basePath: '/v1', … } }
 */
export function parseUpstream(raw: string): UpstreamResult {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return {
      ok: false,
      error: `--upstream must be an absolute http:// or https:// URL, got ${JSON.stringify(raw)}`,
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, error: `--upstream must use http:// or https://, not ${url.protocol}//` };
  }
  if (url.username !== '' || url.password !== '') {
    return {
      ok: false,
      error: '--upstream must not contain credentials (user:password@); clients send their own Authorization',
    };
  }
  if (url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#')) {
    return {
      ok: false,
      error:
        '--upstream must not have a query or a fragment: give the base URL, e.g. http://127.0.0.1:4010/v1',
    };
  }
  const basePath = url.pathname.replace(/\/+$/, '');
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return {
    ok: true,
    value: {
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port,
      host: url.host,
      basePath,
      baseUrl: `${url.protocol}//${url.host}${basePath}`,
    },
  };
}

/**
 * The path below the base, query included, that the document's paths are matched against; `null` for a
 * request outside the base path (forwarded all the same, and judged as an unknown path, D10).
 *
 * @example pathBelowBase('/v1/store/orders?x=1', '/v1') // '/store/orders?x=1'
 */
export function pathBelowBase(requestPath: string, basePath: string): string | null {
  if (basePath === '') return requestPath;
  if (requestPath === basePath) return '';
  const next = requestPath.charAt(basePath.length);
  if (requestPath.startsWith(basePath) && (next === '/' || next === '?')) {
    return requestPath.slice(basePath.length);
  }
  return null;
}
