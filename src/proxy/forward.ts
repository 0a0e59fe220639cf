/** Streams a request upstream as sent and its answer back byte for byte, a bounded copy teed off to judge. */
// Not undici: it loses the status text and header order, and refuses `Expect` (measured, issue 23).
import { type Agent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type ProxyErrorName, type ProxyErrorResponse, proxyError, writeAnswer } from './proxy-errors.js';
import type { Upstream } from './upstream.js';

/** RFC 9110 §7.6.1: the proxy's own sockets set these. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Methods whose requests have no body in this API, or in HTTP at all (RFC 9110 §9.3). */
const BODILESS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE']);
/** Sent again when a kept-alive connection fails under them (RFC 9110 §9.2.2); never a cancel (D20). */
const SAFE: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

const FAULT_ERRORS = {
  refused: 'upstreamUnreachable',
  unresolved: 'upstreamUnreachable',
  timeout: 'upstreamTimeout',
  reset: 'upstreamFailed',
  other: 'upstreamFailed',
  'client-stalled': 'requestTimeout',
  overloaded: 'overloaded',
} as const satisfies Record<string, ProxyErrorName>;

/** Why no usable answer came from the upstream (`afterHeaders`: after its status line), or none was asked for. */
export interface UpstreamFault {
  kind: keyof typeof FAULT_ERRORS;
  message: string;
  afterHeaders: boolean;
}

/** A body as far as it was copied for judging; `total` bytes passed through. */
export interface BodyCopy {
  bytes: Buffer;
  total: number;
  truncated: boolean;
}

type Captured = CapturedExchange['response'];

export interface CapturedExchange {
  method: string;
  /** As the client sent it: `/v1/store/orders/7?x=1`. */
  target: string;
  /** Lower-case names; repeated headers joined with `, `. */
  requestHeaders: Record<string, string>;
  requestBody: BodyCopy;
  response: { status: number; headers: Record<string, string>; body: BodyCopy } | null;
  fault: UpstreamFault | null;
  startedAt: number;
  durationMs: number;
}

export interface ForwardOptions {
  upstream: Upstream;
  agent: Agent;
  timeoutMs: number;
  captureBytes: number;
  /** Hold each answer until judged (up to `captureBytes`), so that the judge can replace it. */
  hold: boolean;
  /** Added to each forwarded request, to know a loop. */
  via: string;
  /** Called once per exchange when it is over; under `hold`, a returned response replaces the answer. */
  judge(exchange: CapturedExchange): ProxyErrorResponse | null;
}

function headerRecord(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  }
  return out;
}

// Set by the proxy on a request; never dropped by `Connection: content-length` (request smuggling).
const HOST_AND_FRAMING: ReadonlySet<string> = new Set(['host', 'content-length']);

/** Raw headers minus the hop-by-hop ones and those `Connection` names, casing and order kept. */
function endToEnd(raw: readonly string[], drop?: ReadonlySet<string>): string[] {
  let named: Set<string> | null = null;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if ((raw[i] as string).toLowerCase() === 'connection') {
      named ??= new Set();
      for (const token of (raw[i + 1] as string).split(',')) {
        const name = token.trim().toLowerCase();
        if (!HOST_AND_FRAMING.has(name)) named.add(name);
      }
    }
  }
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (HOP_BY_HOP.has(name) || named?.has(name) || drop?.has(name)) continue;
    out.push(raw[i] as string, raw[i + 1] as string);
  }
  return out;
}

/** Collects the start of a stream, up to a bound, without holding it up. */
class Copier {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  total = 0;
  constructor(private readonly limit: number) {}
  add(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.kept >= this.limit) return;
    const part = this.kept + chunk.length > this.limit ? chunk.subarray(0, this.limit - this.kept) : chunk;
    this.chunks.push(part);
    this.kept += part.length;
  }
  copy(): BodyCopy {
    return {
      bytes: this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.kept),
      total: this.total,
      truncated: this.total > this.kept,
    };
  }
}

/** Errors of the proxy's own host, not of the upstream. */
const OWN_ERRORS: ReadonlySet<unknown> = new Set(['EMFILE', 'ENFILE', 'ENOBUFS', 'ENOMEM', 'EADDRNOTAVAIL']);

class UpstreamTimeout extends Error {}
class ConnectionWait extends Error {}

function classify(error: unknown, timeoutMs: number, afterHeaders: boolean): UpstreamFault {
  const code = (error as { code?: unknown }).code;
  const text = error instanceof Error ? error.message : String(error);
  const fault = (kind: UpstreamFault['kind'], message: string) => ({ kind, message, afterHeaders });
  if (error instanceof UpstreamTimeout) {
    const waited = afterHeaders ? 'stopped sending its body for' : 'sent no answer within';
    return fault('timeout', `the upstream ${waited} ${timeoutMs} ms (time-out)`);
  }
  const own =
    error instanceof ConnectionWait
      ? `had no free upstream connection within ${timeoutMs} ms`
      : OWN_ERRORS.has(code)
        ? `is out of resources (${code})`
        : null;
  if (own !== null) return fault('overloaded', `the proxy ${own}; the upstream was not asked`);
  if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return fault('refused', `the upstream could not be reached (${code})`);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return fault('unresolved', `the upstream's host name did not resolve (${code})`);
  if (typeof code === 'string' && code.startsWith('HPE_')) {
    return fault('other', `the upstream's answer is not valid HTTP (${code})`);
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED' || text === 'aborted') {
    return fault(
      'reset',
      afterHeaders
        ? 'the upstream closed the connection in the middle of its body'
        : `the upstream closed the connection without an answer (${typeof code === 'string' ? code : 'closed'})`,
    );
  }
  return fault('other', `the request to the upstream failed: ${text}`);
}

/** Streams one request upstream and its answer back. Never throws: a fault is the proxy's own Error. */
export function forward(req: IncomingMessage, res: ServerResponse, options: ForwardOptions): void {
  const { upstream, timeoutMs } = options;
  const startedAt = Date.now();
  const t0 = performance.now();
  const requestCopy = new Copier(options.captureBytes);
  const method = req.method ?? 'GET';
  let finished = false;

  const exchange = (response: Captured, fault: UpstreamFault | null): CapturedExchange => ({
    method,
    target: req.url ?? '/',
    requestHeaders: headerRecord(req.rawHeaders),
    requestBody: requestCopy.copy(),
    response,
    fault,
    startedAt,
    durationMs: performance.now() - t0,
  });

  // The framing is the proxy's own, as node's parser read it. A body on a bodiless method also closes the
  // upstream connection: a server that ignores such a body would read it as the next request.
  const chunked = req.headers['transfer-encoding'] !== undefined;
  const length = req.headers['content-length'];
  const hasBody = chunked || (length !== undefined && length !== '0');
  const framing = chunked
    ? ['Transfer-Encoding', 'chunked']
    : length !== undefined
      ? ['Content-Length', length]
      : [];
  const doubtful = hasBody && BODILESS.has(method);
  const headers = [
    'Host',
    upstream.host,
    ...endToEnd(req.rawHeaders, HOST_AND_FRAMING),
    ...framing,
    'Via',
    options.via,
    ...(doubtful ? ['Connection', 'close'] : []),
  ];
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  const { hostname, port } = upstream;
  const asked = { hostname, port, method, path: req.url, headers, setHost: false, agent: options.agent };
  let upReq = send(asked);

  // One timer: between the client's body chunks (a stall is its 408), then until the upstream's status
  // line, then between the upstream's body chunks.
  let answer: IncomingMessage | null = null;
  const timer = setTimeout(() => {
    if (answer === null && !req.complete) clientStalled();
    else if (!upReq.socket) {
      fail(new ConnectionWait());
      upReq.destroy();
    } else (answer ?? upReq).destroy(new UpstreamTimeout());
  }, timeoutMs);
  /** Ends the exchange once: `false` when it was already over. */
  const end = (): boolean => {
    if (finished) return false;
    finished = true;
    clearTimeout(timer);
    return true;
  };
  let captured: () => Captured = () => null;

  const fail = (error: unknown) => {
    if (!end()) return;
    const fault = classify(error, timeoutMs, answer !== null);
    const own = proxyError(FAULT_ERRORS[fault.kind], `${fault.message}; upstream ${upstream.baseUrl}`);
    writeAnswer(res, own);
    // Issue 25: the proxy's own overload is no finding of the server's.
    if (fault.kind !== 'overloaded') options.judge(exchange(captured(), fault));
  };

  const clientStalled = () => {
    if (!end()) return;
    upReq.destroy();
    const own = proxyError(
      'requestTimeout',
      `the client sent no more of its request body for ${timeoutMs} ms (time-out); nothing was answered upstream`,
    );
    writeAnswer(res, { ...own, headers: { ...own.headers, connection: 'close' } });
    const message = `the client stopped sending its body for ${timeoutMs} ms`;
    options.judge(exchange(null, { kind: 'client-stalled', message, afterHeaders: false }));
  };

  // Once answered, failing to write the rest of the body (an early 413 that closes) is no fault. A
  // kept-alive connection the upstream closed as this request went out gets a safe one again, on another.
  let retried = false;
  const failed = (error: NodeJS.ErrnoException) => {
    if (answer !== null) return;
    const closed = error.code === 'ECONNRESET' || error.code === 'EPIPE';
    if (closed && upReq.reusedSocket && !retried && !hasBody && SAFE.has(method) && !finished) {
      retried = true;
      // Once, on a connection of its own: an upstream cutting every reused one must not get it many times.
      upReq = send({ ...asked, agent: false });
      upReq.on('error', failed).on('response', answered).end();
    } else fail(error);
  };
  upReq.on('error', failed);

  res.on('close', () => {
    if (!res.writableFinished) {
      end();
      upReq.destroy();
    }
  });

  if (!hasBody) {
    upReq.end();
  } else {
    // Each chunk is written after this turn's reads: an early 413 that closes is read before the write
    // fails, so its answer reaches the client instead of a 502.
    req.on('data', (chunk: Buffer) => {
      requestCopy.add(chunk);
      if (answer === null) timer.refresh();
      req.pause();
      setImmediate(() => {
        if (upReq.destroyed || finished) return;
        if (upReq.write(chunk)) req.resume();
        else upReq.once('drain', () => req.resume());
      });
    });
    req.on('end', () => {
      if (answer === null) timer.refresh();
      setImmediate(() => {
        if (!upReq.destroyed) upReq.end();
      });
    });
    req.on('error', () => upReq.destroy());
  }

  function answered(upRes: IncomingMessage): void {
    answer = upRes;
    timer.refresh();
    const status = upRes.statusCode ?? 502;
    const responseHeaders = headerRecord(upRes.rawHeaders);
    const bodyCopy = new Copier(options.captureBytes);
    captured = () => ({ status, headers: responseHeaders, body: bodyCopy.copy() });
    const outHeaders = endToEnd(upRes.rawHeaders);
    const sendHead = () => {
      res.sendDate = false;
      res.writeHead(status, upRes.statusMessage, outHeaders);
    };
    upRes.on('error', fail);
    upRes.on('aborted', () => fail(new Error('aborted')));

    // Streamed as it comes; under --errors held until its end, or streamed unjudged once over the copy's bound.
    const held: Buffer[] = [];
    let streaming = false;
    const stream = () => {
      streaming = true;
      sendHead();
      for (const part of held) res.write(part);
      held.length = 0;
      upRes.pipe(res);
    };
    if (!options.hold) stream();
    upRes.on('data', (chunk: Buffer) => {
      timer.refresh();
      bodyCopy.add(chunk);
      if (streaming) return;
      held.push(chunk);
      if (bodyCopy.total > options.captureBytes) stream();
    });
    upRes.on('end', () => {
      if (!end()) return;
      // Answered before the whole body: where the next request starts on this connection is in doubt.
      if (!upReq.writableFinished) upReq.destroy();
      const done = exchange(captured(), null);
      if (streaming) {
        setImmediate(() => options.judge(done));
        return;
      }
      const replacement = options.judge(done);
      if (replacement) writeAnswer(res, replacement);
      else {
        sendHead();
        res.end(held.length === 1 ? held[0] : Buffer.concat(held));
      }
    });
  }
  upReq.on('response', answered);
}
