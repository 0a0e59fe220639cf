/** The proxy's own answers: Errors (§7, D5) coded `proxy_…`, saying "petstore proxy: …" (D20). */
import { type ServerResponse, STATUS_CODES } from 'node:http';

export const PROXY_ERRORS = {
  upstreamUnreachable: { status: 502, code: 'proxy_upstream_unreachable' },
  upstreamFailed: { status: 502, code: 'proxy_upstream_failed' },
  upstreamTimeout: { status: 504, code: 'proxy_upstream_timeout' },
  contractViolation: { status: 502, code: 'proxy_contract_violation' },
  notFound: { status: 404, code: 'proxy_not_found' },
  badRequest: { status: 400, code: 'proxy_bad_request' },
  forbidden: { status: 403, code: 'proxy_forbidden' },
  hostNotAllowed: { status: 403, code: 'proxy_host_not_allowed' },
  requestTimeout: { status: 408, code: 'proxy_request_timeout' },
  loop: { status: 508, code: 'proxy_loop' },
  overloaded: { status: 503, code: 'proxy_overloaded' },
} as const satisfies Record<string, { status: number; code: string }>;

export type ProxyErrorName = keyof typeof PROXY_ERRORS;

/** An answer of the proxy's own: its Errors, and the live page's files. */
export interface ProxyErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** An answer of the proxy's own, marked `x-petstore-proxy: name`. */
export function ownAnswer(
  status: number,
  type: string,
  body: string,
  name: string,
  headers: Record<string, string> = {},
): ProxyErrorResponse {
  const length = String(Buffer.byteLength(body));
  return {
    status,
    headers: { 'content-type': type, 'content-length': length, ...headers, 'x-petstore-proxy': name },
    body,
  };
}

/** An Error response of the proxy's own: `proxyError('upstreamTimeout', 'no answer').status` is 504. */
export function proxyError(name: ProxyErrorName, detail: string): ProxyErrorResponse {
  const { status, code } = PROXY_ERRORS[name];
  const body = JSON.stringify({ code, message: `petstore proxy: ${detail}`, status });
  return ownAnswer(status, 'application/json', body, name);
}

/** Writes an answer of the proxy's own; a response already begun is cut instead. */
export function writeAnswer(res: ServerResponse, answer: ProxyErrorResponse): void {
  if (res.headersSent || res.destroyed) res.destroy();
  else res.writeHead(answer.status, answer.headers).end(answer.body);
}

/** A 400 written straight to a socket, which it closes. */
export function rawBadRequest(detail: string): string {
  const own = proxyError('badRequest', detail);
  const head = Object.entries({ ...own.headers, connection: 'close' })
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  return `HTTP/1.1 ${own.status} ${STATUS_CODES[own.status] ?? ''}\r\n${head}\r\n\r\n${own.body}`;
}
