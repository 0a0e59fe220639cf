/**
 * What can stand between the suite and a server (D22): a rate limiter that throttles some requests, a load
 * balancer with no server behind it during a deploy, a firewall that refuses the runner. Each is a real
 * socket; the server behind the rate limiter is a correct one, so any failure is the suite's.
 */
import { type Behaviour, createStore, type Store, targetHandler } from './reference-server.js';
import { type RunningTarget, serve } from './serve.js';

export interface Throttled extends RunningTarget {
  /** How many requests the limiter answered 429. */
  throttled(): number;
}

/**
 * A correct server behind a rate limiter that answers every `every`-th request with 429 and `Retry-After`,
 * without passing it on, starting with the first (the suite's first request is throttled too).
 *
 * @example const target = await behindRateLimiter(CORRECT_SERVERS[0].behaviour, { every: 4, retryAfter: '0' })
 */
export async function behindRateLimiter(
  b: Behaviour,
  limiter: { every: number; retryAfter: string },
  store: Store = createStore(),
): Promise<Throttled> {
  const handler = targetHandler(b, store);
  let seen = 0;
  let refused = 0;
  const target = await serve((req, res) => {
    seen += 1;
    if ((seen - 1) % limiter.every !== 0) return handler(req, res);
    refused += 1;
    res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': limiter.retryAfter });
    res.end('Too Many Requests');
  });
  return { ...target, throttled: () => refused };
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A gateway that gives every request the same answer: the API behind it is never reached. */
export function gatewayAnswering(answer: Answer): Promise<RunningTarget> {
  return serve((_req, res) => {
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
}

/** A load balancer during a deploy: no server to forward to. */
export const NO_UPSTREAM: Answer = {
  status: 503,
  headers: { 'content-type': 'text/html', 'retry-after': '0' },
  body: '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>',
};

/** A web application firewall that refuses the runner's address or its key, with its own page. */
export const FIREWALL_PAGE: Answer = {
  status: 403,
  headers: { 'content-type': 'text/html' },
  body: '<html><head><title>403 Forbidden</title></head><body><h1>Request blocked</h1><p>Reference #18.2f</p></body></html>',
};
