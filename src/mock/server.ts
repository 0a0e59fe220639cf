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
import { errorJson, MOCK_ERRORS, type MockErrorName, mockError } from './errors.js';
import type { CoreRequest } from './request.js';
import { type CoreResponse, MAX_BODY_BYTES, payloadTooLarge } from './responses.js';

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

/** A core request over node's own header object: no copy, the first value of a repeated header. */
class NodeRequest implements CoreRequest {
  readonly method: string;
  readonly url: string;
  body: Uint8Array | undefined = undefined;
  readonly #headers: IncomingMessage['headers'];

  constructor(req: IncomingMessage) {
    this.method = req.method ?? 'GET';
    this.url = req.url ?? '/';
    this.#headers = req.headers;
  }

  header(name: string): string | undefined {
    const value = this.#headers[name];
    return typeof value === 'string' ? value : value?.[0];
  }
}

/** A whole response written straight to the socket; the answer to HEAD carries the length, not the body. */
function rawErrorResponse(name: MockErrorName, head: boolean): string {
  const body = errorJson(mockError(name));
  const status = MOCK_ERRORS[name].status;
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\naccess-control-allow-origin: *\r\nconnection: close\r\n\r\n${head ? '' : body}`;
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
    if (delayMs > 0) setTimeout(send, delayMs);
    else send();
  };

  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      requestTimeout: 30_000,
      headersTimeout: 20_000,
      keepAliveTimeout: 5_000,
    },
    (req: IncomingMessage, res: ServerResponse) => {
      const startedAt = Date.now();
      const t0 = performance.now();
      const request = new NodeRequest(req);
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
          payloadTooLarge(request.header('origin'), { connection: 'close' }),
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
    },
  );

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const raw = (error as { rawPacket?: unknown }).rawPacket;
    const head = Buffer.isBuffer(raw) && raw.subarray(0, 5).toString('latin1') === 'HEAD ';
    socket.end(rawErrorResponse(CLIENT_ERRORS[error.code ?? ''] ?? 'invalidRequest', head));
  });
  return server;
}
