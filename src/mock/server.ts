/**
 * The thin file that binds a port: node:http in, the engine's answer out. Every request takes the
 * engine's one path ({@link MockEngine.answer}: body limit, core, delay, request log), as `handle` and MSW
 * do. What this file adds: the port, the header-size limit, timeouts, streaming the body to the engine,
 * and Error bodies for requests node itself cannot parse (oversized headers, broken request lines),
 * never a bare status line. No WHATWG Request is built: the core reads node's header object through
 * {@link NodeRequest}.
 */
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Socket } from 'node:net';
import { fail, ok } from '../result.js';
import { isControlTarget } from './core.js';
import { allowsHost, type Cors } from './cors.js';
import type { MockEngine, ReadBody } from './engine.js';
import { CORE_ERRORS, clip, type MockError, type MockErrorSpec } from './errors.js';
import type { CoreRequest } from './request.js';
import { requestPath } from './request-target.js';
import { type CoreResponse, errorResponse } from './responses.js';

/** Header bytes node accepts; beyond that the request is 431 with an Error body. */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Writes an answer; `content-length` is set here so keep-alive works for every response. A simulated
 * dropped connection (D18) closes the socket partway through the status line: closing before any byte
 * is not enough, since a browser silently retries a request whose kept-alive connection closed empty
 * (Chromium does), and the page would never see the failure.
 */
function writeResponse(res: ServerResponse, response: CoreResponse | undefined): void {
  if (res.destroyed) return;
  if (response === undefined) {
    res.destroy();
    return;
  }
  if (response.drop) {
    res.socket?.end('HTTP/1.1 ');
    return;
  }
  const { body, headers } = response;
  if (response.close) {
    // The body was left unread: it must not be read as the next request.
    res.shouldKeepAlive = false;
    headers.connection = 'close';
  }
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
  readonly body: Uint8Array | undefined = undefined;
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

/** The errors only a socket can give: the rest of the table is errors.ts's, shared with MSW. */
export const SOCKET_ERRORS = {
  headersTooLarge: {
    status: 431,
    code: 'request_header_fields_too_large',
    message: 'The request headers are too large for the mock.',
  },
  requestTimeout: {
    status: 408,
    code: 'request_timeout',
    message: 'The request did not arrive in time; send it again.',
  },
  hostRequired: {
    status: 400,
    code: 'invalid_request',
    message: 'An HTTP/1.1 request needs a Host header (RFC 9112 §3.2).',
  },
  expectationFailed: {
    status: 417,
    code: 'expectation_failed',
    message: 'The mock meets only "Expect: 100-continue"; send the request without this Expect header.',
  },
  hostNotAllowed: {
    status: 403,
    code: 'host_not_allowed',
    message:
      "The mock's control endpoints answer only to a local Host (localhost, 127.0.0.0/8, [::1]) or one named with --allowed-host: a page that reaches the mock by another name may be a DNS rebinding attack.",
  },
  unsupportedTransferCoding: {
    status: 400,
    code: 'invalid_request',
    message:
      'The mock reads a body sent as is (Content-Length) or chunked, and no other Transfer-Encoding (RFC 9112 §6.1).',
  },
} as const satisfies Record<string, MockErrorSpec>;

/** Every Error the mock on a port can answer with, by name: each one's status, `code` and default message. */
export const MOCK_ERRORS = { ...CORE_ERRORS, ...SOCKET_ERRORS } as const;

type AdapterErrorName = keyof typeof MOCK_ERRORS;

/** An Error that the adapter answers itself, before or instead of the core, closing after it. */
function adapterError(
  cors: Cors,
  name: AdapterErrorName,
  origin: string | undefined,
  message?: string,
): CoreResponse {
  const spec: MockErrorSpec = MOCK_ERRORS[name];
  const error: MockError = { spec, message: message ?? spec.message };
  return { ...errorResponse(error, undefined, { ...cors.headers(origin) }), close: true };
}

/**
 * What the socket refuses before the core sees a request, because HTTP/1.1 itself forbids reading it
 * (RFC 9112): no `Host` on an HTTP/1.1 request (§3.2), a transfer coding other than chunked (§6.1; a
 * 400 rather than the RFC's 501, since bad input never gets a 5xx here, and never the body read as if
 * it were plain).
 */
function protocolRefusal(
  cors: Cors,
  req: IncomingMessage,
  origin: string | undefined,
  allowedHosts: readonly string[],
): CoreResponse | undefined {
  if (req.headers.host === undefined && req.httpVersion === '1.1')
    return adapterError(cors, 'hostRequired', origin);
  // A page whose DNS name was rebound to 127.0.0.1 reaches the mock from its own origin; only its Host
  // tells. The API itself answers to any name (a phone on the LAN); the control endpoints do not.
  if (!allowsHost(req.headers.host, allowedHosts) && isControlTarget(requestPath(req.url ?? '/')))
    return adapterError(cors, 'hostNotAllowed', origin);
  const coding = req.headers['transfer-encoding'];
  if (coding !== undefined && !/^[ \t]*chunked[ \t]*$/i.test(coding)) {
    return adapterError(
      cors,
      'unsupportedTransferCoding',
      origin,
      `Transfer-Encoding: ${clip(coding, 40)} is not supported; send the body as is with Content-Length, or chunked.`,
    );
  }
  return undefined;
}

const CLIENT_ERRORS: Readonly<Record<string, AdapterErrorName>> = {
  HPE_HEADER_OVERFLOW: 'headersTooLarge',
  ERR_HTTP_REQUEST_TIMEOUT: 'requestTimeout',
};

/** The body of a node request, streamed up to the limit; the rest stays unread once it is passed. */
function nodeBody(req: IncomingMessage): ReadBody {
  return (limit) =>
    new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          req.off('data', onData);
          resolve(fail('too-large'));
        } else {
          chunks.push(chunk);
        }
      };
      req.on('data', onData);
      req.on('end', () => resolve(ok(Buffer.concat(chunks, size))));
      req.on('error', () => resolve(fail('aborted')));
    });
}

/** The most bytes of a refused body read and dropped before its 413. */
const DRAIN_BYTES = 16 * 1024 * 1024;

/**
 * Calls `then` once the rest of the body has been read and dropped (up to DRAIN_BYTES). A 413 closes the
 * connection, and closed while the client still sends its body, the connection is reset by the bytes left
 * unread: the client sees EPIPE instead of the 413 (RFC 9112 §9.6; issue 25).
 */
function afterBody(req: IncomingMessage, then: () => void): void {
  if (req.complete || req.headers.expect !== undefined) {
    then();
    return;
  }
  let left = DRAIN_BYTES;
  let called = false;
  const done = () => {
    if (!called) then();
    called = true;
  };
  req.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) done();
  });
  req.on('end', done);
  req.on('error', done);
  req.resume();
}

/**
 * Creates the node:http server over an engine (not yet listening).
 *
 * @example createHttpServer(engine).listen(4010, '127.0.0.1')
 */
export function createHttpServer(engine: MockEngine, allowedHosts: readonly string[] = []): Server {
  const { cors } = engine.core;
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

  /** Settles and writes an answer this adapter decided itself. */
  const refuse = (res: ServerResponse, request: CoreRequest, response: CoreResponse) => {
    void engine.settle(request, response, Date.now(), performance.now()).then((settled) => {
      writeResponse(res, settled);
    });
  };

  /** Answers a request whose head node has parsed (after `100 Continue`, when the client asked for it). */
  function answer(req: IncomingMessage, res: ServerResponse): void {
    const request = new NodeRequest(req);
    const refused = protocolRefusal(cors, req, request.header('origin'), allowedHosts);
    if (refused) {
      refuse(res, request, refused);
      return;
    }
    const hasBody =
      req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    const answered = engine.answer(request, hasBody ? nodeBody(req) : undefined);
    const write = (response: CoreResponse | undefined) =>
      response?.status === 413
        ? afterBody(req, () => writeResponse(res, response))
        : writeResponse(res, response);
    if (answered instanceof Promise) void answered.then(write);
    else write(answered);
  }

  // `Expect: 100-continue` (RFC 9110 §10.1.1): the client waits before sending the body, so the key and
  // the declared size are checked first; only a request that passes both is told to go on.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const request = new NodeRequest(req);
    const refused =
      protocolRefusal(cors, req, request.header('origin'), allowedHosts) ?? engine.refusal(request);
    if (refused) {
      // The body never comes (or comes unasked for): close rather than read it as the next request.
      refuse(res, request, { ...refused, close: true });
      return;
    }
    res.writeContinue();
    answer(req, res);
  });

  // Any other expectation cannot be met (RFC 9110 §10.1.1): 417 with an Error body, not node's bare one.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const request = new NodeRequest(req);
    refuse(res, request, adapterError(cors, 'expectationFailed', request.header('origin')));
  });

  // The mock is no proxy: CONNECT gets the core's own answer (401 without a key, 404 for a target that
  // names no path) and the connection closes, where node would close it without a word.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    socket.on('error', () => socket.destroy());
    void Promise.resolve(engine.answer(new NodeRequest(req))).then((response) => {
      if (socket.destroyed) return;
      if (response === undefined) socket.destroy();
      else socket.end(rawResponse(response, false));
    });
  });

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const raw = (error as { rawPacket?: unknown }).rawPacket;
    const head = Buffer.isBuffer(raw) && raw.subarray(0, 5).toString('latin1') === 'HEAD ';
    const name = CLIENT_ERRORS[error.code ?? ''] ?? 'invalidRequest';
    socket.end(rawResponse(adapterError(cors, name, rawOrigin(raw)), head));
  });
  return server;
}
