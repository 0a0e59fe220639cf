import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, createServer as createTcpServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { proxyCommand } from './cli.js';
import { createProxy, type ProxyFinding } from './index.js';

const running: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of running.splice(0).reverse()) await close();
});

async function upstreamOf(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
  const upstream = createServer(handler);
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', () => done()));
  running.push(
    () =>
      new Promise((done) => {
        upstream.closeAllConnections();
        upstream.close(done);
      }),
  );
  return (upstream.address() as AddressInfo).port;
}

/** Writes bytes on a fresh connection and returns what comes back until the proxy closes it. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
  });
}

async function freePort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', () => done()));
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
}

describe('a proxy pointed at itself', () => {
  it('refuses at start with one line and exit 2 when --upstream is its own address', async () => {
    const port = await freePort();
    let stderr = '';
    const code = await proxyCommand(['--upstream', `http://localhost:${port}/v1`, '--port', String(port)], {
      stdout: { write: () => true },
      stderr: { write: (t: string) => (stderr += t) },
      env: {},
      stop: Promise.resolve(),
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^petstore proxy: --upstream http:\/\/localhost:\d+\/v1 is the proxy's own address/,
    );
  });

  it('answers a request that came back through it with 508 proxy_loop, once, instead of forwarding forever', async () => {
    const port = await freePort();
    // Listening on every address, with an upstream that is one of them by another name.
    const findings: ProxyFinding[] = [];
    const proxy = createProxy({
      upstream: `http://127.0.0.2:${port}/v1`,
      onFinding: (f) => findings.push(f),
    });
    await proxy.listen({ port, host: '0.0.0.0' });
    running.push(() => proxy.close());
    const answer = await fetch(`http://127.0.0.1:${port}/v1/store/orders`, {
      headers: { authorization: 'Bearer k' },
    });
    const body = (await answer.json()) as { code: string };
    expect(answer.status).toBe(508);
    expect(body.code).toBe('proxy_loop');
    expect(proxy.result().summary.requests).toBe(1);
  });
});

describe('blame', () => {
  it('answers a client that stalls its own body 408, as a finding of the client, not the server', async () => {
    const port = await upstreamOf((req, res) => {
      req.resume();
      req.on('end', () => res.end());
    });
    const findings: ProxyFinding[] = [];
    const proxy = createProxy({
      upstream: `http://127.0.0.1:${port}/v1`,
      timeoutMs: 200,
      onFinding: (f) => findings.push(f),
    });
    const info = await proxy.listen({ port: 0 });
    running.push(() => proxy.close());
    const answer = await rawExchange(
      info.port,
      'DELETE /v1/store/orders/1 HTTP/1.1\r\nHost: proxy\r\nAuthorization: Bearer k\r\nContent-Length: 100\r\n\r\nonly ten b',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"code":"proxy_request_timeout"');
    await proxy.close();
    expect(findings.map((f) => `${f.party} ${f.rule}`)).toEqual(['client client.stalled']);
  });

  it("passes an upstream's early 413 through to a client still sending its body, 5 times of 5", async () => {
    const port = await upstreamOf((_req, res) => {
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
      res.end('{"code":"too_large","message":"Too large.","status":413}');
    });
    const proxy = createProxy({ upstream: `http://127.0.0.1:${port}/v1` });
    const info = await proxy.listen({ port: 0 });
    running.push(() => proxy.close());
    const statuses: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      statuses.push(
        await new Promise<number>((resolve, reject) => {
          const req = request(
            { host: '127.0.0.1', port: info.port, method: 'POST', path: '/v1/store/orders', agent: false },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on('error', reject);
          req.end(Buffer.alloc(8 * 1024 * 1024, 'x'));
        }),
      );
    }
    expect(statuses).toEqual([413, 413, 413, 413, 413]);
  });

  it('answers CONNECT with a 400 proxy_bad_request Error instead of closing the connection', async () => {
    const port = await upstreamOf((_req, res) => res.end());
    const proxy = createProxy({ upstream: `http://127.0.0.1:${port}/v1` });
    const info = await proxy.listen({ port: 0 });
    running.push(() => proxy.close());
    const answer = await rawExchange(
      info.port,
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toContain('"code":"proxy_bad_request"');
  });
});
