import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort } from '../../test-support/servers/serve.js';
import { createProxy, type ProxyFinding } from './index.js';

const AUTH = { authorization: 'Bearer fault-test-key-0123' };
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** An upstream that answers `/v1/ok` correctly and misbehaves on every other path. */
async function upstream(misbehave: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
  const server = createHttpServer((req, res) => {
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    if (req.url === '/v1/store/orders') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
      return;
    }
    misbehave(req, res);
  });
  return served(server);
}

/** Listens on a free local port, closed (connections too) after each test. */
async function served(server: HttpServer): Promise<number> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  closers.push(
    () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(done);
      }),
  );
  return (server.address() as AddressInfo).port;
}

/** A TCP server that answers every connection with bytes that are not HTTP. */
async function garbageUpstream(): Promise<number> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\nnot http at all\r\n'));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  closers.push(
    () =>
      new Promise((done) => {
        for (const s of sockets) s.destroy();
        server.close(done);
      }),
  );
  return (server.address() as AddressInfo).port;
}

async function proxyFor(port: number) {
  const findings: ProxyFinding[] = [];
  const lines: string[] = [];
  const proxy = createProxy({
    upstream: `http://127.0.0.1:${port}/v1`,
    timeoutMs: 300,
    onFinding: (f, line) => {
      findings.push(f);
      lines.push(line);
    },
  });
  const info = await proxy.listen({ port: 0 });
  closers.push(() => proxy.close());
  return { info, findings, lines };
}

const FAULTS: Array<{
  name: string;
  port: () => Promise<number>;
  status: number;
  code: string;
  message: RegExp;
}> = [
  {
    name: 'is down',
    port: closedPort,
    status: 502,
    code: 'proxy_upstream_unreachable',
    message: /could not be reached \(ECONNREFUSED\)/,
  },
  {
    name: 'hangs',
    port: () => upstream(() => undefined),
    status: 504,
    code: 'proxy_upstream_timeout',
    message: /sent no answer within 300 ms/,
  },
  {
    name: 'resets the connection',
    port: () => upstream((req) => req.socket.destroy()),
    status: 502,
    code: 'proxy_upstream_failed',
    message: /closed the connection without an answer/,
  },
  {
    name: 'sends garbage instead of HTTP',
    port: garbageUpstream,
    status: 502,
    code: 'proxy_upstream_failed',
    message: /not valid HTTP \(HPE_/,
  },
];

describe('when the upstream fails, the proxy answers with its own Error and reports the fault', () => {
  it.each(FAULTS.map((f) => [f.name, f] as const))('the upstream %s', async (_name, fault) => {
    const { info, findings, lines } = await proxyFor(await fault.port());
    const answer = await fetch(`${info.baseUrl}/store/orders/3`, { method: 'DELETE', headers: AUTH });
    expect(answer.status).toBe(fault.status);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('x-petstore-proxy')).not.toBeNull();
    const body = (await answer.json()) as { code: string; message: string; status: number };
    expect(body).toMatchObject({ code: fault.code, status: fault.status });
    expect(body.message).toMatch(/^petstore proxy: /);
    expect(body.message).toMatch(fault.message);
    expect(findings.map((f) => [f.rule, f.level, f.party, f.status])).toEqual([
      ['status', 'failure', 'server', null],
    ]);
    expect(lines[0]).toMatch(/^FAIL DELETE \/store\/orders\/3 → no answer: /);
    expect(lines[0]).toMatch(fault.message);
  });

  it('keeps serving other requests while one hangs', async () => {
    const { info } = await proxyFor(await upstream(() => undefined));
    const hanging = fetch(`${info.baseUrl}/store/orders/3`, { method: 'DELETE', headers: AUTH });
    const meanwhile = await fetch(`${info.baseUrl}/store/orders`, { headers: AUTH });
    expect(meanwhile.status).toBe(200);
    expect(await meanwhile.text()).toBe('[]');
    expect((await hanging).status).toBe(504);
  });

  it('cuts the connection when the upstream dies in the middle of its body, and reports it', async () => {
    const { info, lines } = await proxyFor(
      await upstream((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('[{"id":1,', () => res.socket?.destroy());
      }),
    );
    const answer = await fetch(`${info.baseUrl}/store/orders/3`, { method: 'DELETE', headers: AUTH });
    expect(answer.status).toBe(200);
    await expect(answer.text()).rejects.toThrow();
    // The fault is judged before the client's connection is cut, so the line is there already.
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^FAIL DELETE \/store\/orders\/3 → 200: .*closed the connection in the middle of its body/,
    );
    const after = await fetch(`${info.baseUrl}/store/orders`, { headers: AUTH });
    expect(after.status).toBe(200);
  });

  it('keeps serving after every kind of fault', async () => {
    const { info } = await proxyFor(await upstream((req) => req.socket.destroy()));
    for (let i = 0; i < 3; i++) {
      expect(
        (await fetch(`${info.baseUrl}/store/orders/3`, { method: 'DELETE', headers: AUTH })).status,
      ).toBe(502);
      expect((await fetch(`${info.baseUrl}/store/orders`, { headers: AUTH })).status).toBe(200);
    }
  });
});

describe('a kept-alive upstream connection closed as a request goes out on it', () => {
  /**
   * Answers the first request on each connection; a later one on the same connection is cut unanswered.
   * The first `together` requests are answered once all have come, so that they hold as many connections.
   */
  async function closingIdleUpstream(seen: string[], together = 0): Promise<number> {
    const held: Array<() => void> = [];
    const server = createHttpServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const count = (requestsOn.get(req.socket) ?? 0) + 1;
      requestsOn.set(req.socket, count);
      if (count > 1) return void req.socket.destroy();
      held.push(() => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
      if (requestsOn.size >= together) for (const answer of held.splice(0)) answer();
    });
    const requestsOn = new Map<Socket, number>();
    return served(server);
  }

  it('sends a GET again on a new connection instead of answering 502', async () => {
    const seen: string[] = [];
    const { info, findings } = await proxyFor(await closingIdleUpstream(seen));
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(`${info.baseUrl}/store/orders`, { headers: AUTH });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe('[]');
    }
    expect(findings).toEqual([]);
    // The first on a new connection, the second cut and sent again on one of its own (not kept), the third new.
    expect(seen).toEqual(Array(4).fill('GET /v1/store/orders'));
  });

  it('sends a GET again once only, on a connection of its own, however many kept-alive ones are cut', async () => {
    const seen: string[] = [];
    const { info } = await proxyFor(await closingIdleUpstream(seen, 4));
    const four = Array.from({ length: 4 }, () => fetch(`${info.baseUrl}/store/orders`, { headers: AUTH }));
    for (const answer of await Promise.all(four)) expect(await answer.text()).toBe('[]');
    seen.length = 0;
    const answer = await fetch(`${info.baseUrl}/store/orders?again`, { headers: AUTH });
    expect(answer.status).toBe(200);
    expect(seen).toEqual(Array(2).fill('GET /v1/store/orders?again'));
  });

  it('never sends a cancel twice: the DELETE gets the 502', async () => {
    const seen: string[] = [];
    const { info } = await proxyFor(await closingIdleUpstream(seen));
    expect((await fetch(`${info.baseUrl}/store/orders`, { headers: AUTH })).status).toBe(200);
    const cancel = await fetch(`${info.baseUrl}/store/orders/3`, { method: 'DELETE', headers: AUTH });
    expect(cancel.status).toBe(502);
    expect(seen).toEqual(['GET /v1/store/orders', 'DELETE /v1/store/orders/3']);
  });
});
