/** Test helpers for talking to a listening mock over a real socket. */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * One request with node:http (any method, any header), failing after `timeoutMs` instead of hanging.
 */
export function send(
  url: string,
  options: {
    method: string;
    path: string;
    headers?: Record<string, string>;
    body?: Buffer | string;
    timeoutMs?: number;
  },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: options.method,
        path: options.path,
        // node's client sends a GET or DELETE body without any length unless told, which reads as a
        // second, garbled request; a real client states the length.
        headers:
          options.body === undefined || options.headers?.['transfer-encoding']
            ? options.headers
            : { 'content-length': String(Buffer.byteLength(options.body)), ...options.headers },
        agent: false,
        timeout: options.timeoutMs ?? 5000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs ?? 5000} ms`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Writes raw bytes to the port and collects whatever comes back until the server closes or `timeoutMs`. */
export function sendRaw(
  port: number,
  bytes: Buffer | string,
  timeoutMs = 3000,
): Promise<{ text: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('latin1'), timedOut: true });
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // One complete answer is enough; the connection may stay open for keep-alive.
      const text = Buffer.concat(chunks).toString('latin1');
      const head = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      if (head !== -1 && length !== undefined && text.length >= head + 4 + Number(length)) {
        clearTimeout(timer);
        socket.destroy();
        resolve({ text, timedOut: false });
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString('latin1'), timedOut: false });
    });
    socket.write(bytes);
  });
}

/** Deterministic pseudo-random numbers (mulberry32), so a failing fuzz case can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
