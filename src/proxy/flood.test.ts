/**
 * The proxy under a pipelined flood, and an upload refused early (issue 25, items 2 and 9): a client that
 * pipelines thousands of requests and goes away costs the upstream a handful of requests and nobody else
 * their answers, and an upstream's early 413 reaches a client still sending its body.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, request } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createProxy, MAX_PIPELINED, MAX_UPSTREAM_CONNECTIONS, type ProxyFinding } from './index.js';

const KEY = 'flood-test-key-0123';
const running: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of running.splice(0).reverse()) await close();
});

/**
 * A correct upstream that lists no orders, counting the requests it gets and its most connections open at
 * once; `hold` keeps answers back until `release()`.
 */
async function setUp(hold = false) {
  const seen: IncomingMessage[] = [];
  const held: Array<() => void> = [];
  const upstream = createServer((req, res) => {
    seen.push(req);
    const answer = () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' });
      res.end('[]');
    };
    if (hold) held.push(answer);
    else answer();
  });
  const connections = { open: 0, most: 0 };
  upstream.on('connection', (socket) => {
    connections.open += 1;
    connections.most = Math.max(connections.most, connections.open);
    socket.on('close', () => {
      connections.open -= 1;
    });
  });
  const release = () => {
    hold = false;
    for (const answer of held.splice(0)) answer();
  };
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', () => done()));
  running.push(
    () =>
      new Promise((done) => {
        upstream.closeAllConnections();
        upstream.close(done);
      }),
  );
  const findings: ProxyFinding[] = [];
  const proxy = createProxy({
    upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`,
    onFinding: (f) => findings.push(f),
  });
  const info = await proxy.listen({ port: 0 });
  running.push(() => proxy.close());
  return { proxy, info, seen, findings, held, release, connections };
}

const GET = `GET /v1/store/orders HTTP/1.1\r\nHost: proxy\r\nAuthorization: Bearer ${KEY}\r\n\r\n`;

/** Opens a connection, writes `bytes` and, once they are written, closes it without reading an answer. */
function writeAndGo(port: number, bytes: string): Promise<void> {
  return new Promise((done) => {
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write(bytes, () => socket.destroy()));
    socket.on('close', () => done());
    socket.on('error', () => undefined);
  });
}

describe('a pipelined flood', () => {
  it('is not forwarded once its client has gone, and a new client still gets its answer', async () => {
    const { proxy, info, seen, findings } = await setUp();
    await Promise.all(Array.from({ length: 10 }, () => writeAndGo(info.port, GET.repeat(2_000))));
    const answer = await fetch(`${info.baseUrl}/store/orders`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('[]');
    await proxy.close();
    // 20,000 were sent; at most one in flight and MAX_PIPELINED waiting on each connection.
    expect(seen.length).toBeLessThanOrEqual(10 * (MAX_PIPELINED + 1) + 1);
    expect(findings.filter((f) => f.party === 'server')).toEqual([]);
  }, 30_000);

  it('sends a pipelined request upstream only once the one before it is answered, and none after the client left', async () => {
    const { proxy, info, seen } = await setUp(true);
    const socket = connect(info.port, '127.0.0.1', () => socket.write(GET.repeat(3)));
    socket.on('error', () => undefined);
    // The first request reaches the upstream, which holds its answer; the client then goes away.
    await expect.poll(() => seen.length).toBe(1);
    const aborted = new Promise((done) => seen[0]?.socket.once('close', done));
    socket.destroy();
    await aborted;
    await proxy.close();
    expect(seen).toHaveLength(1);
  });

  it('opens at most MAX_UPSTREAM_CONNECTIONS to the upstream, whatever the number of clients', async () => {
    const { info, held, release, connections } = await setUp(true);
    const answers = Array.from({ length: MAX_UPSTREAM_CONNECTIONS + 16 }, () =>
      fetch(`${info.baseUrl}/store/orders`, { headers: { authorization: `Bearer ${KEY}` } }).then(
        (r) => r.status,
      ),
    );
    await expect.poll(() => held.length, { timeout: 10_000 }).toBe(MAX_UPSTREAM_CONNECTIONS);
    release();
    expect(await Promise.all(answers)).toEqual(Array(MAX_UPSTREAM_CONNECTIONS + 16).fill(200));
    expect(connections.most).toBe(MAX_UPSTREAM_CONNECTIONS);
  });

  it('answers pipelined requests in order while the client stays', async () => {
    const { info, seen } = await setUp();
    const text = await new Promise<string>((resolve, reject) => {
      let received = '';
      const socket = connect(info.port, '127.0.0.1', () =>
        socket.write(`${GET.repeat(4)}${GET.replace('HTTP/1.1\r\n', 'HTTP/1.1\r\nConnection: close\r\n')}`),
      );
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
      });
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    expect(text.match(/HTTP\/1\.1 200 /g)).toHaveLength(5);
    expect(seen).toHaveLength(5);
  });
});

/** Our mock in a process of its own (a refusal races the client's body only across processes). */
async function mockProcess(): Promise<string> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['bin/petstore.js', 'mock', '--port', '0', '--quiet', '--api-key', KEY],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  running.push(async () => {
    child.kill();
    await new Promise((done) => child.once('exit', done));
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/\S+\/v1)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', () => reject(new Error(`the mock did not start: ${out}`)));
  });
}

/** POSTs 3 MB in 64 KB writes, as a browser or curl does, and returns the status (or the error code). */
function upload(baseUrl: string): Promise<string> {
  return new Promise((resolve) => {
    const url = new URL(`${baseUrl}/store/orders`);
    const body = Buffer.alloc(3 * 1024 * 1024, 'x');
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: url.pathname,
        agent: false,
        headers: {
          authorization: `Bearer ${KEY}`,
          'content-type': 'application/json',
          'content-length': body.length,
        },
      },
      (res) => {
        res.resume();
        resolve(String(res.statusCode));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    let offset = 0;
    const pump = () => {
      while (offset < body.length) {
        const more = req.write(body.subarray(offset, offset + 65_536));
        offset += 65_536;
        if (!more) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

describe('an upload the upstream refuses early with 413', () => {
  it('reaches a client still sending its body as the 413, 20 times of 20, directly and through the proxy', async () => {
    const mockUrl = await mockProcess();
    const findings: ProxyFinding[] = [];
    const proxy = createProxy({ upstream: mockUrl, onFinding: (f) => findings.push(f) });
    const { baseUrl } = await proxy.listen({ port: 0 });
    running.push(() => proxy.close());
    const direct: string[] = [];
    const proxied: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      direct.push(await upload(mockUrl));
      proxied.push(await upload(baseUrl));
    }
    expect(direct).toEqual(Array(20).fill('413'));
    expect(proxied).toEqual(Array(20).fill('413'));
    await proxy.close();
    expect(findings.filter((f) => f.party === 'server')).toEqual([]);
  }, 60_000);
});
