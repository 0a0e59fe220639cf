import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedRequestPool, frame } from './raw-client.js';

const FRAMES: Array<[string, string, ReturnType<typeof frame>]> = [
  [
    'an answer framed by Content-Length',
    'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n[]',
    { ok: true, status: 200, length: 40 },
  ],
  ['a Content-Length body not yet complete', 'HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\n[]', null],
  ['a head not yet complete', 'HTTP/1.1 200 OK\r\ncontent-le', null],
  ['a 204 without a body', 'HTTP/1.1 204 No Content\r\n\r\n', { ok: true, status: 204, length: 27 }],
  [
    'a chunked answer, followed by the start of the next',
    'HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{"a\r\n2\r\n":\r\n0\r\n\r\nHTTP/1.1 2',
    { ok: true, status: 404, length: 74 },
  ],
  [
    'a chunked answer without its last chunk',
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n',
    null,
  ],
  [
    'something that is not HTTP',
    'SSH-2.0-OpenSSH\r\n\r\n',
    { ok: false, error: 'not an HTTP/1.1 answer: "SSH-2.0-OpenSSH"' },
  ],
  [
    'an answer with no framing',
    'HTTP/1.1 200 OK\r\n\r\n[]',
    { ok: false, error: 'an answer framed neither by Content-Length nor chunked' },
  ],
];

describe('framing an answer', () => {
  it.each(FRAMES)('%s', (_name, raw, want) => {
    expect(frame(Buffer.from(raw, 'latin1'))).toEqual(want);
  });
});

describe('the fixed-request pool over a real socket', () => {
  let server: Server;
  let port: number;
  const seen: Array<{ path?: string; key?: string }> = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ path: req.url, key: req.headers.authorization });
      if (req.url === '/chunked') {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.write('[1,');
        setTimeout(() => res.end('2]'), 5);
        return;
      }
      res.writeHead(200, { 'content-length': '2' });
      res.end('[]');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('sends the request as given and reads each answer to its end, on one connection or more', async () => {
    const pool = new FixedRequestPool(port, '/list', { authorization: 'Bearer k' });
    const answers = await Promise.all([pool.send(), pool.send(), pool.send()]);
    expect(await pool.send()).toEqual({ ok: true, status: 200 });
    pool.close();
    expect(answers).toEqual([
      { ok: true, status: 200 },
      { ok: true, status: 200 },
      { ok: true, status: 200 },
    ]);
    expect(seen.slice(-4)).toEqual(Array(4).fill({ path: '/list', key: 'Bearer k' }));
  });

  it('waits for the last chunk of a chunked answer that arrives in parts', async () => {
    const pool = new FixedRequestPool(port, '/chunked', {});
    expect(await pool.send()).toEqual({ ok: true, status: 201 });
    pool.close();
  });

  it('fails a request whose connection is refused instead of hanging', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const free = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    const pool = new FixedRequestPool(free, '/', {});
    expect(await pool.send()).toEqual({ ok: false, error: 'the connection closed before the answer ended' });
  });
});
