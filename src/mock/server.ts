/**
 * The thin file that binds a port: node:http in, the core's response out. What it adds to the core: the
 * port, header-size and body-size limits, timeouts, and Error bodies for requests node itself cannot
 * parse (oversized headers, broken request lines), never a bare status line. It is the fast path: no
 * WHATWG Request is built; the core reads node's header object through {@link NodeRequest}, and the
 * response is written with one writeHead/end, so the list endpoint costs a route lookup, a key check and
 * a cached body.
 */
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Socket } from 'node:net';
import { type Core, respondSafely } from './core.js';
import type { Cors } from './cors.js';
import { clip, type MockErrorName, mockError } from './errors.js';
import type { CoreRequest } from './request.js';
import { type CoreResponse, errorResponse, MAX_BODY_BYTES, payloadTooLarge } from './responses.js';

/** Header bytes node accepts; beyond that the request is 431 with an Error body. */
export const MAX_HEADER_BYTES = 16 * 1024;

export interface ServeOptions {
  /** Where a bug in the mock is reported (the answer is then a 500 Error). */
  onBug: (message: string) => void;
  /** Called once per answered request. */
  observe: (request: CoreRequest, response: CoreResponse, startedAt: number, durationMs: number) => void;
}

/** Writes a core response; `content-length` is set here so keep-alive works for every response. */
function writeResponse(res: ServerResponse, response: CoreResponse): void {
  const { body, headers } = response;
  if (body !== undefined) {
    headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  }
  res.writeHead(response.status, headers);
  res.end(body);
}

/**
 * Every value of a header in arrival order, joined as WHATWG `Headers` joins them. node keeps only the
 * first `Authorization` of a request; read from the raw headers, a second one makes the value a list that
 * no key matches (401), as it does through `handle(Request)`, instead of "first wins".
 */
function joinedHeader(raw: readonly string[], name: string): string | undefined {
  let joined: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i] as string;
    if (key.length !== name.length || key.toLowerCase() !== name) continue;
    const value = raw[i + 1] as string;
    joined = joined === undefined ? value : `${joined}, ${value}`;
  }
  return joined;
}

/** A core request over node's own header object: no copy; a repeated header as node joins it. */
class NodeRequest implements CoreRequest {
  readonly method: string;
  readonly url: string;
  body: Uint8Array | undefined = undefined;
  readonly #headers: IncomingMessage['headers'];
  readonly #raw: readonly string[];

  constructor(req: IncomingMessage) {
    this.method = req.method ?? 'GET';
    this.url = req.url ?? '/';
    this.#headers = req.headers;
    this.#raw = req.rawHeaders;
  }

  header(name: string): string | undefined {
    const value = this.#headers[name];
    if (name === 'authorization' && value !== undefined) return joinedHeader(this.#raw, name);
    return typeof value === 'string' ? value : value?.[0];
  }
}

/**
 * A whole response written straight to a socket that node no longer serves (a request it cannot parse,
 * `CONNECT`); the connection closes after it. The answer to HEAD carries the length, not the body.
 */
function rawResponse(response: CoreResponse, head: boolean): string {
  const { body } = response;
  const text = body === undefined ? '' : typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`];
  for (const [name, value] of Object.entries(response.headers)) {
    if (name !== 'connection' && name !== 'content-length') lines.push(`${name}: ${value}`);
  }
  lines.push(`content-length: ${Buffer.byteLength(text)}`, 'connection: close');
  return `${lines.join('\r\n')}\r\n\r\n${head ? '' : text}`;
}

/** The `Origin` of a request node could not parse, read from its raw bytes, for the CORS headers (D14). */
function rawOrigin(raw: unknown): string | undefined {
  if (!Buffer.isBuffer(raw)) return undefined;
  return /\r\norigin:[ \t]*([^\r\n]*?)[ \t]*\r\n/i.exec(raw.toString('latin1'))?.[1];
}

/** An Error of the table that the adapter answers itself, before or instead of the core, closing after it. */
function adapterError(
  name: MockErrorName,
  cors: Cors,
  origin: string | undefined,
  message?: string,
): CoreResponse {
  const error = message === undefined ? mockError(name) : mockError(name, { message });
  return errorResponse(error, undefined, { ...cors.headers(origin), connection: 'close' });
}

/**
 * What the socket refuses before the core sees a request, because HTTP/1.1 itself forbids reading it
 * (RFC 9112): no `Host` on an HTTP/1.1 request (§3.2), a transfer coding other than chunked (§6.1; a
 * 400 rather than the RFC's 501, since bad input never gets a 5xx here, and never the body read as if
 * it were plain).
 */
function protocolRefusal(
  req: IncomingMessage,
  cors: Cors,
  origin: string | undefined,
): CoreResponse | undefined {
  if (req.headers.host === undefined && req.httpVersion === '1.1')
    return adapterError('hostRequired', cors, origin);
  const coding = req.headers['transfer-encoding'];
  if (coding !== undefined && !/^[ \t]*chunked[ \t]*$/i.test(coding)) {
    return adapterError(
      'unsupportedTransferCoding',
      cors,
      origin,
      `Transfer-Encoding: ${clip(coding, 40)} is not supported; send the body as is with Content-Length, or chunked.`,
    );
  }
  return undefined;
}

const CLIENT_ERRORS: Readonly<Record<string, MockErrorName>> = {
  HPE_HEADER_OVERFLOW: 'headersTooLarge',
  ERR_HTTP_REQUEST_TIMEOUT: 'requestTimeout',
};

/**
 * Creates the node:http server over a core (not yet listening).
 *
 * @example createHttpServer(core, { observe: () => {}, onBug: () => {} }).listen(4010, '127.0.0.1')
 */
export function createHttpServer(core: Core, options: ServeOptions): Server {
  const { observe, onBug } = options;

  const finish = (
    res: ServerResponse,
    request: CoreRequest,
    response: CoreResponse,
    startedAt: number,
    t0: number,
  ) => {
    const send = () => {
      if (res.destroyed) return;
      if (response.drop) {
        // A simulated dropped connection (D18): the socket closes partway through the status line. Closing
        // before any byte is not enough: a browser silently retries a request whose kept-alive
        // connection closed empty (Chromium does), and the page would never see the failure.
        res.socket?.end('HTTP/1.1 ');
      } else {
        writeResponse(res, response);
      }
      observe(request, response, startedAt, performance.now() - t0);
    };
    const delayMs = response.delayMs ?? 0;
    // Unref'd: a delayed answer must not keep a stopped mock alive (SIGTERM ends `petstore mock` at once).
    if (delayMs > 0) setTimeout(send, delayMs).unref();
    else send();
  };

  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      requestTimeout: 30_000,
      headersTimeout: 20_000,
      keepAliveTimeout: 5_000,
      // Checked below, so that a request without Host gets an Error body rather than node's bare 400.
      requireHostHeader: false,
    },
    (req: IncomingMessage, res: ServerResponse) => answer(req, res),
  );

  /** Answers a request whose head node has parsed (after `100 Continue`, when the client asked for it). */
  function answer(req: IncomingMessage, res: ServerResponse): void {
    const startedAt = Date.now();
    const t0 = performance.now();
    const request = new NodeRequest(req);
    const refused = protocolRefusal(req, core.cors, request.header('origin'));
    if (refused) {
      res.shouldKeepAlive = false;
      finish(res, request, refused, startedAt, t0);
      return;
    }
    const length = req.headers['content-length'];
    // The fast path: no body (every API request), answer at once.
    if (length === undefined && req.headers['transfer-encoding'] === undefined) {
      finish(res, request, respondSafely(core, request, onBug), startedAt, t0);
      return;
    }
    const tooLarge = () => {
      res.shouldKeepAlive = false;
      finish(
        res,
        request,
        payloadTooLarge(core.cors.headers(request.header('origin')), { connection: 'close' }),
        startedAt,
        t0,
      );
    };
    if (length !== undefined && !(Number(length) <= MAX_BODY_BYTES)) {
      tooLarge();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let rejected = false;
    req.on('data', (chunk: Buffer) => {
      if (rejected) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        rejected = true;
        tooLarge();
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => {
      if (rejected) return;
      request.body = Buffer.concat(chunks, size);
      finish(res, request, respondSafely(core, request, onBug), startedAt, t0);
    });
    req.on('error', () => res.destroy());
  }

  // `Expect: 100-continue` (RFC 9110 §10.1.1): the client waits before sending the body, so the key and
  // the declared size are checked first; only a request that passes both is told to go on.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const request = new NodeRequest(req);
    const origin = request.header('origin');
    const length = req.headers['content-length'];
    const refused =
      protocolRefusal(req, core.cors, origin) ??
      (length !== undefined && !(Number(length) <= MAX_BODY_BYTES)
        ? payloadTooLarge(core.cors.headers(origin), { connection: 'close' })
        : core.refusal(request));
    if (refused) {
      // The body never comes (or comes unasked for): close rather than read it as the next request.
      res.shouldKeepAlive = false;
      refused.headers.connection = 'close';
      finish(res, request, refused, Date.now(), performance.now());
      return;
    }
    res.writeContinue();
    answer(req, res);
  });

  // Any other expectation cannot be met (RFC 9110 §10.1.1): 417 with an Error body, not node's bare one.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const request = new NodeRequest(req);
    res.shouldKeepAlive = false;
    finish(
      res,
      request,
      adapterError('expectationFailed', core.cors, request.header('origin')),
      Date.now(),
      performance.now(),
    );
  });

  // The mock is no proxy: CONNECT gets the core's own answer (401 without a key, 404 for a target that
  // names no path) and the connection closes, where node would close it without a word.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    socket.on('error', () => socket.destroy());
    const request = new NodeRequest(req);
    const startedAt = Date.now();
    const t0 = performance.now();
    const response = respondSafely(core, request, onBug);
    const send = () => {
      if (socket.destroyed) return;
      socket.end(rawResponse(response, false));
      observe(request, response, startedAt, performance.now() - t0);
    };
    const delayMs = response.delayMs ?? 0;
    if (delayMs > 0) setTimeout(send, delayMs).unref();
    else send();
  });

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const raw = (error as { rawPacket?: unknown }).rawPacket;
    const head = Buffer.isBuffer(raw) && raw.subarray(0, 5).toString('latin1') === 'HEAD ';
    const name = CLIENT_ERRORS[error.code ?? ''] ?? 'invalidRequest';
    socket.end(rawResponse(adapterError(name, core.cors, rawOrigin(raw)), head));
  });
  return server;
}
