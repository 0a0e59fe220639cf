// The socket adapter: node:http in, the engine's answer out, with Error bodies for what node cannot parse.
// Not on @hono/node-server: 2–3× the CPU (docs/benchmarks.md).
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Socket } from 'node:net';
import { fail, ok } from '../result.js';
import { allowsHost } from './cors.js';
import { isControlTarget, type MockEngine, type ReadBody } from './engine.js';
import { CORE_ERRORS, clip, type MockErrorSpec } from './errors.js';
import { requestPath } from './request-target.js';
import { type CoreRequest, type CoreResponse, errorResponse } from './responses.js';

const MAX_HEADER_BYTES = 16 * 1024; // beyond it: 431 with an Error body
const DRAIN_BYTES = 16 * 1024 * 1024; // the most of a refused body read and dropped before its 413

/** Every Error the mock on a port can answer with: errors.ts's (shared with MSW) and the socket's own. */
export const MOCK_ERRORS = {
  ...CORE_ERRORS,
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

type AdapterErrorName = keyof typeof MOCK_ERRORS;

const CLIENT_ERRORS: Readonly<Record<string, AdapterErrorName>> = {
  HPE_HEADER_OVERFLOW: 'headersTooLarge',
  ERR_HTTP_REQUEST_TIMEOUT: 'requestTimeout',
};

// Most answers come without a turn of the event loop.
function whenReady<T>(value: T | Promise<T>, use: (value: T) => void): void {
  if (value instanceof Promise) void value.then(use);
  else use(value);
}

/** Writes an answer with its length (keep-alive); a drop (D18) closes mid status line, or a browser retries. */
function writeResponse(res: ServerResponse, response: CoreResponse | undefined): void {
  if (res.destroyed) return;
  if (response === undefined || response.drop) {
    if (response) res.socket?.end('HTTP/1.1 ');
    else res.destroy();
    return;
  }
  const { body, headers } = response;
  if (response.close) {
    res.shouldKeepAlive = false;
    headers.connection = 'close';
  }
  if (body !== undefined) {
    headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  }
  res.writeHead(response.status, headers);
  res.end(body);
}

function nodeRequest(req: IncomingMessage): CoreRequest {
  return {
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    body: undefined,
    header(name) {
      const value = req.headers[name];
      if (name !== 'authorization' || value === undefined)
        return typeof value === 'string' ? value : value?.[0];
      // Joined as `Headers` joins them: two keys are a 401, not node's "first wins" (headersDistinct costs µs).
      const raw = req.rawHeaders;
      let joined: string | undefined;
      for (let i = 0; i < raw.length; i += 2) {
        if (raw[i]?.length !== name.length || raw[i]?.toLowerCase() !== name) continue;
        joined = joined === undefined ? raw[i + 1] : `${joined}, ${raw[i + 1]}`;
      }
      return joined;
    },
  };
}

/** A whole answer on a socket node no longer serves (unparsable, CONNECT); HEAD gets no body. */
function rawResponse({ status, headers, body = '' }: CoreResponse, head: boolean): string {
  const text = Buffer.from(body).toString('utf8');
  const fields = Object.entries(headers).map(([name, value]) =>
    name === 'connection' || name === 'content-length' ? '' : `${name}: ${value}\r\n`,
  );
  const framing = `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n`;
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${fields.join('')}${framing}${head ? '' : text}`;
}

/** The body of a node request up to the limit; the rest stays unread once it is passed. */
function nodeBody(req: IncomingMessage): ReadBody {
  return (limit) =>
    new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        chunks.push(chunk);
        if (size > limit) {
          req.off('data', onData);
          resolve(fail('too-large'));
        }
      };
      req.on('data', onData);
      req.on('end', () => resolve(ok(Buffer.concat(chunks, size))));
      req.on('error', () => resolve(fail('aborted')));
    });
}

/** Once the rest of the body is dropped: closed while the client sends, it sees EPIPE, not the 413 (RFC 9112 §9.6). */
function drained(req: IncomingMessage): Promise<void> {
  if (req.complete || req.headers.expect !== undefined) return Promise.resolve();
  let left = DRAIN_BYTES;
  return new Promise((done) => {
    req.on('data', (chunk: Buffer) => {
      left -= chunk.length;
      if (left < 0) done();
    });
    req.on('end', () => done()).on('error', () => done());
    req.resume();
  });
}

/** The node:http server over an engine, not yet listening. */
export function createHttpServer(engine: MockEngine, allowedHosts: readonly string[] = []): Server {
  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      requestTimeout: 30_000,
      headersTimeout: 20_000,
      keepAliveTimeout: 5_000,
      // Checked by protocolRefusal, so that a request without Host gets an Error body, not node's bare 400.
      requireHostHeader: false,
    },
    (req, res) => answer(req, res),
  );

  // Clients keep one Host: the last verdict is reused, not three regexes per request (profiled).
  let lastHost: string | undefined;
  let hostAllowed = true;

  const adapterError = (name: AdapterErrorName, origin: string | undefined, message?: string) => {
    const spec: MockErrorSpec = MOCK_ERRORS[name];
    return {
      ...errorResponse({ spec, message: message ?? spec.message }, undefined, engine.cors.headers(origin)),
      close: true,
    };
  };

  // What RFC 9112 forbids reading (no Host, a coding other than chunked: 400, never a 5xx), and DNS rebinding.
  const protocolRefusal = (req: IncomingMessage, origin: string | undefined): CoreResponse | undefined => {
    const host = req.headers.host;
    if (host === undefined && req.httpVersion === '1.1') return adapterError('hostRequired', origin);
    if (host !== lastHost) {
      lastHost = host;
      hostAllowed = allowsHost(host, allowedHosts);
    }
    if (!hostAllowed && isControlTarget(requestPath(req.url ?? '/')))
      return adapterError('hostNotAllowed', origin);
    const coding = req.headers['transfer-encoding'];
    if (coding === undefined || /^[ \t]*chunked[ \t]*$/i.test(coding)) return undefined;
    return adapterError(
      'unsupportedTransferCoding',
      origin,
      `Transfer-Encoding: ${clip(coding, 40)} is not supported; send the body as is with Content-Length, or chunked.`,
    );
  };

  const refuse = (res: ServerResponse, request: CoreRequest, response: CoreResponse) =>
    whenReady(engine.settle(request, response, Date.now(), performance.now()), (r) => writeResponse(res, r));

  function answer(req: IncomingMessage, res: ServerResponse) {
    const request = nodeRequest(req);
    const refused = protocolRefusal(req, request.header('origin'));
    if (refused) return refuse(res, request, refused);
    const hasBody =
      req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    whenReady(engine.answer(request, hasBody ? nodeBody(req) : undefined), (response) =>
      response?.status === 413
        ? void drained(req).then(() => writeResponse(res, response))
        : writeResponse(res, response),
    );
  }

  // `Expect: 100-continue` (RFC 9110 §10.1.1): the key and the declared size are checked before the body.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const request = nodeRequest(req);
    const refused = protocolRefusal(req, request.header('origin')) ?? engine.refusal(request);
    // The body never comes (or comes unasked for): close rather than read it as the next request.
    if (refused) return refuse(res, request, { ...refused, close: true });
    res.writeContinue();
    answer(req, res);
  });

  // Any other expectation cannot be met: 417 with an Error body, not node's bare one.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const request = nodeRequest(req);
    refuse(res, request, adapterError('expectationFailed', request.header('origin')));
  });

  // The mock is no proxy: CONNECT gets the engine's own answer (401, or 404 for no path), then the close.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    socket.on('error', () => socket.destroy());
    // Without a body reader the answer is never `undefined`.
    whenReady(engine.answer(nodeRequest(req)), (response) => {
      if (!socket.destroyed) socket.end(rawResponse(response as CoreResponse, false));
    });
  });

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const raw = (error as { rawPacket?: unknown }).rawPacket;
    const text = Buffer.isBuffer(raw) ? raw.toString('latin1') : '';
    // The Origin of what node could not parse, for the CORS headers (D14).
    const origin = /\r\norigin:[ \t]*([^\r\n]*?)[ \t]*\r\n/i.exec(text)?.[1];
    const name = CLIENT_ERRORS[error.code ?? ''] ?? 'invalidRequest';
    socket.end(rawResponse(adapterError(name, origin), text.startsWith('HEAD ')));
  });
  return server;
}
