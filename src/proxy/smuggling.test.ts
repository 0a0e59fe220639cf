import { createServer, request } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createProxy } from './index.js';

const running: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of running.splice(0).reverse()) await close();
});

/**
 * An upstream that records every request it parses and answers each with what it saw (method, target and
 * `X-Mock-Session`), keeping its connections alive as a real server does; a proxy in front of it.
 */
async function setUp() {
  const seen: string[] = [];
  // The attacker's hidden request is answered only once the next request arrives: the worst timing
  // for a proxy that reuses the connection, made certain instead of left to chance.
  let held: (() => void) | null = null;
  const upstream = createServer((req, res) => {
    const line = `${req.method} ${req.url} ${req.headers['x-mock-session'] ?? '-'}`;
    seen.push(line);
    const release = held;
    held = null;
    release?.();
    req.resume();
    req.on('end', () => {
      const body = JSON.stringify({ seen: line });
      const answer = () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      };
      if (req.headers['x-mock-session'] === 'evil') held = answer;
      else answer();
    });
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', () => done()));
  running.push(
    () =>
      new Promise((done) => {
        upstream.closeAllConnections();
        upstream.close(done);
      }),
  );
  const { port } = upstream.address() as AddressInfo;
  const proxy = createProxy({ upstream: `http://127.0.0.1:${port}/v1` });
  const info = await proxy.listen({ port: 0 });
  running.push(() => proxy.close());
  return { proxy, info, seen };
}

/** Writes bytes on a fresh connection and returns all the proxy sends back until it closes. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
  });
}

/** An ordinary client's list read, on a connection of its own. */
function ordinaryRead(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/v1/store/orders',
        agent: false,
        headers: { authorization: 'Bearer k' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString()));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const HIDDEN = 'DELETE /v1/store/orders/3 HTTP/1.1\r\nHost: upstream\r\nX-Mock-Session: evil\r\n\r\n';

function chunked(body: string): string {
  return `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
}

/** Requests whose body hides a second request, if it went upstream unframed. */
const SMUGGLERS: Array<{ name: string; given: string }> = [
  {
    name: 'a GET with Transfer-Encoding: chunked',
    given: `GET /v1/store/orders HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(HIDDEN)}`,
  },
  {
    name: 'a HEAD with Transfer-Encoding: chunked',
    given: `HEAD /v1/store/orders HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(HIDDEN)}`,
  },
  {
    name: 'a DELETE with Transfer-Encoding: chunked',
    given: `DELETE /v1/store/orders/1 HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(HIDDEN)}`,
  },
  {
    name: 'an OPTIONS with Transfer-Encoding: chunked',
    given: `OPTIONS /v1/store/orders HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(HIDDEN)}`,
  },
  {
    name: 'a GET whose Connection header names Content-Length',
    given: `GET /v1/store/orders HTTP/1.1\r\nHost: proxy\r\nConnection: close, content-length\r\nContent-Length: ${Buffer.byteLength(HIDDEN)}\r\n\r\n${HIDDEN}`,
  },
  {
    name: 'a GET whose Connection header names Transfer-Encoding',
    given: `GET /v1/store/orders HTTP/1.1\r\nHost: proxy\r\nConnection: close, transfer-encoding\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(HIDDEN)}`,
  },
  {
    name: 'a POST whose Connection header names Content-Length',
    given: `POST /v1/store/orders HTTP/1.1\r\nHost: proxy\r\nConnection: close, Content-Length\r\nContent-Length: ${Buffer.byteLength(HIDDEN)}\r\n\r\n${HIDDEN}`,
  },
];

describe('a request hidden in a body never reaches the upstream unjudged', () => {
  for (const { name, given } of SMUGGLERS) {
    it(`frames the body of ${name}`, async () => {
      const { proxy, info, seen } = await setUp();
      const answer = await rawExchange(info.port, given);
      expect(answer).toMatch(/^HTTP\/1\.1 (200|400) /);
      // Whatever the upstream saw was one judged exchange; the hidden DELETE never ran on its own.
      await proxy.close();
      expect(seen.some((line) => line.startsWith('DELETE /v1/store/orders/3'))).toBe(false);
      expect(seen.length).toBe(proxy.result().summary.requests);
    });
  }
});

describe("one client's answer never reaches another", () => {
  it("gives an ordinary client its own answer after each of 5 smuggling attempts, never the attacker's", async () => {
    const { info } = await setUp();
    const hidden = 'GET /v1/store/orders HTTP/1.1\r\nHost: upstream\r\nX-Mock-Session: evil\r\n\r\n';
    const attack = `GET /v1/store/orders HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(hidden)}`;
    const answers: string[] = [];
    for (let round = 0; round < 5; round += 1) {
      await rawExchange(info.port, attack);
      answers.push(await ordinaryRead(info.port));
    }
    expect(answers).toEqual(Array(5).fill(JSON.stringify({ seen: 'GET /v1/store/orders -' })));
  });
});
