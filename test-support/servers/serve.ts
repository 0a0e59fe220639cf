/**
 * Binds a test target to a free port on 127.0.0.1. Tests await `listen`, never sleep, and `close` ends
 * every open connection, hanging ones included.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export type RawHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface RunningTarget {
  /** `http://127.0.0.1:PORT/v1` (`https://` when served with TLS) */
  baseUrl: string;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** Serve https with this key and certificate (`selfSignedCertificate()` in self-signed.ts). */
  tls?: { key: string; cert: string };
}

/** @example const target = await serve(handler); ...; await target.close(); */
export async function serve(handler: RawHandler, options: ServeOptions = {}): Promise<RunningTarget> {
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    // A client that aborts (time-out, body cap) must not crash the target with EPIPE.
    res.on('error', () => undefined);
    req.on('error', () => undefined);
    Promise.resolve(handler(req, res)).catch(() => {
      if (!res.headersSent) res.writeHead(599);
      res.end();
    });
  };
  const server = options.tls ? createHttpsServer(options.tls, listener) : createServer(listener);
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port that was free a moment ago and is closed now: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
