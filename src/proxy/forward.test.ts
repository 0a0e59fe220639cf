import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createProxy, type ProxyFinding, type ValidatingProxy } from './index.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const running: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of running.splice(0).reverse()) await close();
});

/** An upstream on a free port, and a proxy in front of it. */
async function setUp(handler: Handler, captureBytes?: number) {
  const upstream = createServer(handler);
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', () => done()));
  running.push(
    () =>
      new Promise((done) => {
        upstream.closeAllConnections();
        upstream.close(done);
      }),
  );
  const { port } = upstream.address() as AddressInfo;
  const findings: ProxyFinding[] = [];
  const proxy: ValidatingProxy = createProxy({
    upstream: `http://127.0.0.1:${port}/v1`,
    onFinding: (f) => findings.push(f),
    ...(captureBytes ? { captureBytes } : {}),
  });
  const info = await proxy.listen({ port: 0 });
  running.push(() => proxy.close());
  return { proxy, info, findings, upstreamPort: port };
}

/** One raw request (node:http, so nothing is normalised on the way) returning the exact bytes. */
function raw(
  port: number,
  options: { method: string; path: string; headers?: Record<string, string> | string[]; body?: Buffer },
): Promise<{ status: number; message: string; rawHeaders: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method,
        path: options.path,
        headers: options.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            message: res.statusMessage ?? '',
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const EXACT_LIST = Buffer.from('[ {"id":9007199254740993, "petId" :10,"quantity":1,\n  "complete":false} ]');

describe('the proxy is transparent', () => {
  it('forwards method, path, query, headers (Authorization included) and body as sent', async () => {
    let seen: { method?: string; url?: string; rawHeaders?: string[]; body?: string } = {};
    const { info, upstreamPort } = await setUp((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen = {
          method: req.method,
          url: req.url,
          rawHeaders: req.rawHeaders,
          body: Buffer.concat(chunks).toString(),
        };
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"code":"not_found","message":"No.","status":404}');
      });
    });
    const answer = await raw(info.port, {
      method: 'PATCH',
      path: '/v1/store/orders/7?x=1&y=%20z',
      // An array of raw headers keeps the repeated one; node then adds no Host of its own.
      headers: [
        'Host',
        `127.0.0.1:${info.port}`,
        'Authorization',
        'Bearer some-key-123456',
        'X-Custom',
        'a',
        'X-Custom',
        'b',
        'Content-Type',
        'text/plain',
      ],
      body: Buffer.from('hello'),
    });
    expect(answer.body.toString()).toContain('No.');
    expect(seen.method).toBe('PATCH');
    expect(seen.url).toBe('/v1/store/orders/7?x=1&y=%20z');
    expect(seen.body).toBe('hello');
    const pairs = [];
    for (let i = 0; i < (seen.rawHeaders?.length ?? 0); i += 2)
      pairs.push(`${seen.rawHeaders?.[i]}: ${seen.rawHeaders?.[i + 1]}`);
    expect(pairs).toEqual(
      expect.arrayContaining([
        'Authorization: Bearer some-key-123456',
        'X-Custom: a',
        'X-Custom: b',
        'Content-Type: text/plain',
        `Host: 127.0.0.1:${upstreamPort}`,
      ]),
    );
  });

  /** Raw header pairs, a repeated Set-Cookie among them, that must come back unchanged and in order. */
  const UPSTREAM_HEADERS = [
    'Content-Type',
    'application/json',
    'X-Upstream',
    'yes',
    'Set-Cookie',
    'a=1',
    'Set-Cookie',
    'b=2',
  ];

  it('returns the answer byte for byte: an id above 2^53, the spacing, the headers, the status text', async () => {
    const { info, findings } = await setUp((_req, res) => {
      res.writeHead(200, 'Fine Thanks', UPSTREAM_HEADERS);
      res.end(EXACT_LIST);
    });
    const answer = await raw(info.port, {
      method: 'GET',
      path: '/v1/store/orders',
      headers: { authorization: 'Bearer k-1234567890' },
    });
    expect(answer.status).toBe(200);
    expect(answer.message).toBe('Fine Thanks');
    expect(answer.body.equals(EXACT_LIST)).toBe(true);
    expect(answer.rawHeaders).toEqual(expect.arrayContaining(UPSTREAM_HEADERS));
    expect(findings).toEqual([]);
  });

  it('streams the answer: the client has the first part before the upstream sends the rest', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((done) => {
      release = done;
    });
    const { info } = await setUp((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[{"id":1}');
      void released.then(() => res.end(',{"id":2}]'));
    });
    const text = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: info.port,
          path: '/v1/store/orders',
          headers: { authorization: 'Bearer k-1234567890' },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => {
            body += chunk.toString();
            // Only once the first part has arrived does the upstream send the rest: a buffering proxy hangs here.
            if (body === '[{"id":1}') release();
          });
          res.on('end', () => resolve(body));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(text).toBe('[{"id":1},{"id":2}]');
  });

  it('streams the request body: the upstream has the first part before the client sends the rest', async () => {
    let firstSeen: () => void = () => undefined;
    const seen = new Promise<void>((done) => {
      firstSeen = done;
    });
    const { info } = await setUp((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
        firstSeen();
      });
      req.on('end', () => {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 'not_found', message: body, status: 404 }));
      });
    });
    const answer = new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: info.port,
          method: 'POST',
          path: '/v1/upload',
          headers: { 'transfer-encoding': 'chunked' },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.write('part one;');
      void seen.then(() => req.end('part two'));
    });
    expect(JSON.parse(await answer).message).toBe('part one;part two');
  });

  it('passes a body larger than the copy bound through intact, and says it was not judged', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 0x61);
    const { info, proxy } = await setUp((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(big);
    }, 64 * 1024);
    const answer = await raw(info.port, {
      method: 'GET',
      path: '/v1/store/orders',
      headers: { authorization: 'Bearer k-1234567890' },
    });
    const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(digest(answer.body)).toBe(digest(big));
    const { result } = await proxy.close();
    expect(result.checks.find((c) => c.id === 'exchange.body')?.notes.join()).toMatch(
      /1 answer\(s\) passed through with their body unjudged/,
    );
  });

  it('answers HEAD with the upstream headers and no body', async () => {
    const { info } = await setUp((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' });
      res.end();
    });
    const answer = await raw(info.port, {
      method: 'HEAD',
      path: '/v1/store/orders',
      headers: { authorization: 'Bearer k-1234567890' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBe(0);
    expect(answer.rawHeaders).toEqual(expect.arrayContaining(['content-length', '2']));
  });

  it('serves its findings as JSON, and its own 404 under /__proxy/', async () => {
    const { info } = await setUp((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('[]');
    });
    await raw(info.port, {
      method: 'GET',
      path: '/v1/store/orders',
      headers: { authorization: 'Bearer k-1234567890' },
    });
    await new Promise((done) => setImmediate(done));
    const listing = await fetch(`${info.url}/__proxy/findings`);
    expect(listing.headers.get('content-type')).toBe('application/json');
    const body = (await listing.json()) as { summary: unknown; findings: unknown[] };
    expect(body.summary).toMatchObject({ failures: 1, warnings: 0, client: 0 });
    expect(body.findings[0]).toMatchObject({
      rule: 'body',
      level: 'failure',
      party: 'server',
      method: 'GET',
      path: '/store/orders',
      status: 200,
      scope: 'key #1',
    });
    expect(JSON.stringify(body)).not.toContain('k-1234567890');
    const later = (await (await fetch(`${info.url}/__proxy/findings?since=1`)).json()) as {
      findings: unknown[];
    };
    expect(later.findings).toEqual([]);
    const other = await fetch(`${info.url}/__proxy/nothing`);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ code: 'proxy_not_found', status: 404 });
  });

  it('answers a request that is not HTTP with its own 400 Error, and forwards nothing', async () => {
    let reached = false;
    const { info } = await setUp(() => {
      reached = true;
    });
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(info.port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(reply).toContain('x-petstore-proxy: badRequest');
    const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ code: 'proxy_bad_request', status: 400 });
    expect(reached).toBe(false);
  });
});
