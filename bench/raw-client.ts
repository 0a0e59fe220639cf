/**
 * The paced sender's HTTP client: keep-alive connections that send one fixed request, written once as
 * bytes, and read each answer just far enough to know its status and where it ends (Content-Length or
 * chunked). node:http's client costs the sender about twice the CPU per request; on a 2-core machine
 * that CPU is taken from the servers being measured, and the sender's own tail lands in every row.
 */
import { connect, type Socket } from 'node:net';

/** The status of an answer read to its end, or why there was none. */
export type Answer = { ok: true; status: number } | { ok: false; error: string };

const HEAD_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/**
 * Where the answer at the start of `buf` ends: its byte length and status, `null` while incomplete,
 * or an error when it is not an HTTP/1.1 answer this client can frame.
 *
 * @example frame(Buffer.from('HTTP/1.1 204 No Content\r\n\r\n')) // { ok: true, status: 204, length: 27 }
 */
export function frame(
  buf: Buffer,
): { ok: true; status: number; length: number } | { ok: false; error: string } | null {
  const headEnd = buf.indexOf(HEAD_END);
  if (headEnd < 0) return null;
  const head = buf.toString('latin1', 0, headEnd);
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(head);
  if (!status) return { ok: false, error: `not an HTTP/1.1 answer: ${JSON.stringify(head.slice(0, 40))}` };
  const code = Number(status[1]);
  let at = headEnd + HEAD_END.length;
  if (code === 204 || code === 304 || (code >= 100 && code < 200))
    return { ok: true, status: code, length: at };
  if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(head)) {
    for (;;) {
      const lineEnd = buf.indexOf(CRLF, at);
      if (lineEnd < 0) return null;
      const size = Number.parseInt(buf.toString('latin1', at, lineEnd), 16);
      if (!Number.isFinite(size)) return { ok: false, error: 'a chunk size that is not hexadecimal' };
      at = lineEnd + CRLF.length;
      if (size === 0) {
        // No trailers are sent here: the last chunk is followed by one empty line.
        return buf.length >= at + CRLF.length ? { ok: true, status: code, length: at + CRLF.length } : null;
      }
      at += size + CRLF.length;
      if (buf.length < at) return null;
    }
  }
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (!length) return { ok: false, error: 'an answer framed neither by Content-Length nor chunked' };
  at += Number(length[1]);
  return buf.length >= at ? { ok: true, status: code, length: at } : null;
}

/** One connection, one request at a time. */
class Connection {
  private readonly socket: Socket;
  private pending: Buffer | null = null;
  private waiting: ((answer: Answer) => void) | null = null;
  closed = false;

  constructor(port: number) {
    this.socket = connect({ port, host: '127.0.0.1', noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', () => undefined);
    this.socket.on('close', () => {
      this.closed = true;
      this.settle({ ok: false, error: 'the connection closed before the answer ended' });
    });
  }

  get busy(): boolean {
    return this.waiting !== null;
  }

  send(request: Buffer, done: (answer: Answer) => void): void {
    this.waiting = done;
    this.socket.write(request);
  }

  close(): void {
    this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    this.pending = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    const framed = frame(this.pending);
    if (framed === null) return;
    if (!framed.ok) {
      this.settle(framed);
      this.socket.destroy();
      return;
    }
    this.pending = framed.length < this.pending.length ? this.pending.subarray(framed.length) : null;
    this.settle({ ok: true, status: framed.status });
  }

  private settle(answer: Answer): void {
    const done = this.waiting;
    this.waiting = null;
    done?.(answer);
  }
}

/**
 * Keep-alive connections to 127.0.0.1:`port` that send `GET path` with `headers`: a free one when there
 * is one, a new one otherwise (an open-loop sender never waits for a connection).
 *
 * @example const pool = new FixedRequestPool(4010, '/v1/store/orders', {}); await pool.send(); pool.close();
 */
export class FixedRequestPool {
  private readonly request: Buffer;
  private connections: Connection[] = [];

  constructor(
    private readonly port: number,
    path: string,
    headers: Record<string, string>,
  ) {
    const lines = [`GET ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    this.request = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  }

  send(): Promise<Answer> {
    return new Promise((resolve) => {
      let connection = this.connections.find((c) => !c.busy && !c.closed);
      if (!connection) {
        this.connections = this.connections.filter((c) => !c.closed);
        connection = new Connection(this.port);
        this.connections.push(connection);
      }
      connection.send(this.request, resolve);
    });
  }

  close(): void {
    for (const connection of this.connections) connection.close();
    this.connections = [];
  }
}
