import { describe, expect, it } from 'vitest';
import { closedPort, serve } from '../../test-support/servers/serve.js';
import { send } from './http-client.js';

const options = { timeoutMs: 200, maxBodyBytes: 1024, fetch: globalThis.fetch };

describe('send: every way a request can go wrong is a value, never a throw', () => {
  it.each([
    ['times out on a target that never answers', () => undefined, 'timeout', /within 200 ms/],
    [
      'stops reading a body over the cap',
      (_req: unknown, res: import('node:http').ServerResponse) => res.end('x'.repeat(5000)),
      'too-large',
      /exceeded 1024 bytes/,
    ],
    [
      'reports a reset connection',
      (req: import('node:http').IncomingMessage) => void req.socket.destroy(),
      'reset',
      /closed or reset/,
    ],
    [
      'times out on a body that never ends',
      (_req: unknown, res: import('node:http').ServerResponse) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('[');
      },
      'timeout',
      /time-out/,
    ],
  ] as const)('%s', async (_label, handler, kind, message) => {
    const target = await serve(handler as Parameters<typeof serve>[0]);
    try {
      // Only the time-out cases race the clock: the others get time to spare on a loaded machine.
      const timeoutMs = kind === 'timeout' ? options.timeoutMs : 30_000;
      const request = { method: 'GET', url: `${target.baseUrl}/x`, headers: {} };
      const outcome = await send(request, { ...options, timeoutMs });
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) {
        expect(outcome.error.kind).toBe(kind);
        expect(outcome.error.message).toMatch(message);
      }
    } finally {
      await target.close();
    }
  });

  it('returns a redirect as it is, without following it', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(301, { location: 'http://127.0.0.1:9/elsewhere' });
      res.end();
    });
    try {
      const outcome = await send({ method: 'GET', url: `${target.baseUrl}/x`, headers: {} }, options);
      expect(outcome.ok && outcome.value.status).toBe(301);
      expect(outcome.ok && outcome.value.headers.location).toBe('http://127.0.0.1:9/elsewhere');
    } finally {
      await target.close();
    }
  });

  it('calls a refused connection refused', async () => {
    const port = await closedPort();
    const outcome = await send({ method: 'GET', url: `http://127.0.0.1:${port}/`, headers: {} }, options);
    expect(!outcome.ok && outcome.error.kind).toBe('refused');
  });

  it('ends even when a custom fetch ignores the abort signal', async () => {
    const never: typeof fetch = () => new Promise<Response>(() => undefined);
    const outcome = await send(
      { method: 'GET', url: 'http://x.invalid/', headers: {} },
      { ...options, fetch: never },
    );
    expect(!outcome.ok && outcome.error.kind).toBe('timeout');
  });

  it('reads a body up to the cap exactly', async () => {
    const target = await serve((_req, res) => {
      res.end('y'.repeat(1024));
    });
    try {
      const outcome = await send({ method: 'GET', url: `${target.baseUrl}/x`, headers: {} }, options);
      expect(outcome.ok && outcome.value.bytes).toBe(1024);
    } finally {
      await target.close();
    }
  });
});

describe('send: https:// to a plain http server is a TLS mismatch, not a server fault', () => {
  it.each([
    ['one that answers the ClientHello with a 400 (Node, nginx)', 'default'],
    ['one that drops the connection', 'drops'],
  ] as const)('%s', async (_label, style) => {
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => res.end('plain'));
    if (style === 'drops') server.on('clientError', (_error, socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as import('node:net').AddressInfo;
    try {
      const outcome = await send(
        { method: 'GET', url: `https://127.0.0.1:${port}/v1/store/orders`, headers: {} },
        { ...options, timeoutMs: 5_000 },
      );
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) {
        expect(outcome.error.kind).toBe('tls');
        expect(outcome.error.message).toMatch(/TLS handshake .*is it plain http\?/);
      }
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
