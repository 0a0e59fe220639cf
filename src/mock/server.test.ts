/** The mock over a real socket: the node:http binding, its limits, and concurrency. */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExactJson } from '../contract/index.js';
import { createMock, type ListenInfo, type Mock } from './index.js';
import { AUTH, expectConforms, KEY } from './test-support/document-check.js';
import { send, sendRaw } from './test-support/http.js';

let mock: Mock;
let info: ListenInfo;
beforeAll(async () => {
  mock = await createMock();
  info = await mock.listen({ port: 0 });
});
afterAll(() => mock.close());

async function call(
  method: string,
  path: string,
  headers: Record<string, string> = AUTH,
  body?: Buffer | string,
) {
  const answer = await send(info.url, { method, path, headers, ...(body === undefined ? {} : { body }) });
  const parsed = expectConforms(method, path, {
    status: answer.status,
    contentType: (answer.headers['content-type'] as string | undefined) ?? null,
    text: answer.text,
  });
  return { ...answer, body: parsed };
}

describe('listening', () => {
  it('reports the URL, the /v1 base URL and the chosen port', () => {
    expect(info.port).toBeGreaterThan(0);
    expect(info.url).toBe(`http://127.0.0.1:${info.port}`);
    expect(info.baseUrl).toBe(`${info.url}/v1`);
  });

  it('serves the order list with a content length over keep-alive', async () => {
    const first = await fetch(`${info.baseUrl}/store/orders`, { headers: AUTH });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-length')).toBe(String(Buffer.byteLength(await first.text())));
    const second = await fetch(`${info.baseUrl}/store/orders`, { headers: AUTH });
    expect(second.status).toBe(200);
  });

  it('refuses to listen twice', async () => {
    await expect(mock.listen({ port: 0 })).rejects.toThrow(/already listening/);
  });

  it('rejects with EADDRINUSE on a busy port', async () => {
    const other = await createMock();
    await expect(other.listen({ port: info.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

describe('the request target', () => {
  it.each(['/v1/store/./orders', '/v1/pets/../store/orders', '/v1/store/%2e/orders'])(
    'reads %s over the socket as handle(Request) does',
    async (path) => {
      const overSocket = await call('GET', path);
      const inProcess = await mock.handle(new Request(`http://mock${path}`, { headers: AUTH }));
      expect(overSocket.status).toBe(200);
      expect(inProcess.status).toBe(overSocket.status);
      expect(await inProcess.text()).toBe(overSocket.text);
    },
  );
});

describe('concurrency', () => {
  it('answers exactly one of many simultaneous cancels of a pending order with 204', async () => {
    const headers = { ...AUTH, 'x-mock-session': 'race' };
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => call('DELETE', '/v1/store/orders/3', headers)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 204)).toHaveLength(1);
    expect(statuses.filter((status) => status === 404)).toHaveLength(39);
  });
});

describe('limits: never 5xx, always an Error body', () => {
  it('answers oversized headers with 431 and keeps serving', async () => {
    const answer = await call('GET', '/v1/store/orders', { ...AUTH, 'x-padding': 'x'.repeat(20_000) });
    expect(answer.status).toBe(431);
    expect(answer.body).toMatchObject({ code: 'request_header_fields_too_large', status: 431 });
    expect((await call('GET', '/v1/store/orders')).status).toBe(200);
  });

  it('answers an oversized body with 413 and keeps serving', async () => {
    const answer = await call('PUT', '/__mock/orders/1', AUTH, Buffer.alloc(200_000, 'a'));
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ code: 'payload_too_large' });
    expect((await call('GET', '/v1/store/orders')).status).toBe(200);
  });

  it('answers an oversized chunked body with 413', async () => {
    const answer = await call(
      'PUT',
      '/__mock/orders/1',
      { ...AUTH, 'transfer-encoding': 'chunked' },
      Buffer.alloc(100_000, 'b'),
    );
    expect(answer.status).toBe(413);
  });

  it.each([
    { name: 'a broken request line', bytes: 'GARBAGE\r\n\r\n' },
    {
      name: 'a request line with spaces in the path',
      bytes: 'GET /v1/store orders HTTP/1.1\r\nHost: x\r\n\r\n',
    },
    { name: 'a bad header line', bytes: 'GET /v1/store/orders HTTP/1.1\r\nno colon here\r\n\r\n' },
    { name: 'an unknown method', bytes: 'BREW /v1/store/orders HTTP/1.1\r\nHost: x\r\n\r\n' },
    {
      name: 'a conflicting body length',
      bytes: 'GET / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n',
    },
  ])('answers $name with a 400 Error', async ({ bytes }) => {
    const { text, timedOut } = await sendRaw(info.port, bytes);
    expect(timedOut).toBe(false);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toMatch(/content-type: application\/json/i);
    expect(text).toContain('"status":400');
  });

  it('reads a body sent in pieces', async () => {
    const answer = await call(
      'PUT',
      '/__mock/orders/900',
      { ...AUTH, 'x-mock-session': 'chunks', 'transfer-encoding': 'chunked' },
      '{"state":"pending"}',
    );
    expect(answer.status).toBe(201);
  });
});

describe('delay', () => {
  it('waits --delay milliseconds before answering', async () => {
    const slow = await createMock({ delayMs: 60 });
    const { url } = await slow.listen({ port: 0 });
    const started = performance.now();
    const answer = await send(url, { method: 'GET', path: '/v1/store/orders', headers: AUTH });
    expect(answer.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    await slow.close();
  });
});

describe('closing', () => {
  it('stops answering after close()', async () => {
    const short = await createMock();
    const { baseUrl } = await short.listen({ port: 0 });
    expect((await fetch(`${baseUrl}/store/orders`, { headers: AUTH })).status).toBe(200);
    await short.close();
    await expect(fetch(`${baseUrl}/store/orders`, { headers: AUTH })).rejects.toThrow();
  });
});

/** A raw answer split into status, headers and the parsed Error body. */
function parseRaw(text: string): { status: number; headers: string; body: unknown } {
  const end = text.indexOf('\r\n\r\n');
  const head = end === -1 ? text : text.slice(0, end);
  const rest = end === -1 ? '' : text.slice(end + 4);
  const parsed = parseExactJson(rest);
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
    headers: head,
    body: parsed.ok ? parsed.value : rest,
  };
}

const RAW_KEY = `Authorization: Bearer ${KEY}\r\n`;

describe('protocol edges: every answer is an Error body, never a bare status or a silent close', () => {
  it.each([
    {
      name: 'an HTTP/1.1 request without Host is 400 (RFC 9112 §3.2)',
      bytes: `GET /v1/store/orders HTTP/1.1\r\n${RAW_KEY}\r\n`,
      want: { status: 400, code: 'invalid_request', message: /needs a Host header/ },
    },
    {
      name: 'an expectation other than 100-continue is 417',
      bytes: `GET /v1/store/orders HTTP/1.1\r\nHost: x\r\n${RAW_KEY}Expect: foo\r\n\r\n`,
      want: { status: 417, code: 'expectation_failed', message: /Expect: 100-continue/ },
    },
    {
      name: 'CONNECT without a key is 401, answered before the connection closes',
      bytes: 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      want: { status: 401, code: 'unauthorized', message: /API key/ },
    },
    {
      name: 'CONNECT with a key names no path: 404',
      bytes: `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n${RAW_KEY}\r\n`,
      want: { status: 404, code: 'not_found', message: /No such path/ },
    },
    {
      name: 'a transfer coding other than chunked is 400, not read as plain JSON (RFC 9112 §6.1)',
      bytes: `PUT /__mock/orders/77 HTTP/1.1\r\nHost: localhost\r\n${RAW_KEY}Transfer-Encoding: gzip, chunked\r\n\r\n13\r\n{"state":"pending"}\r\n0\r\n\r\n`,
      want: {
        status: 400,
        code: 'invalid_request',
        message: /Transfer-Encoding: gzip, chunked is not supported/,
      },
    },
    {
      name: 'a second Authorization header is 401, not "first wins"',
      bytes: `GET /v1/store/orders HTTP/1.1\r\nHost: x\r\n${RAW_KEY}Authorization: Bearer other\r\n\r\n`,
      want: { status: 401, code: 'unauthorized', message: /API key/ },
    },
    {
      name: 'the same key twice is still two headers: 401',
      bytes: `GET /v1/store/orders HTTP/1.1\r\nHost: x\r\n${RAW_KEY}${RAW_KEY}\r\n`,
      want: { status: 401, code: 'unauthorized', message: /API key/ },
    },
  ])('$name', async ({ bytes, want }) => {
    const { text, timedOut } = await sendRaw(info.port, bytes);
    expect(timedOut).toBe(false);
    const answer = parseRaw(text);
    expect(answer.status, text.slice(0, 200)).toBe(want.status);
    expect(answer.headers).toMatch(/\r\ncontent-type: application\/json/i);
    expect(answer.headers).toMatch(/\r\naccess-control-allow-origin: \*/i);
    expect(answer.body).toMatchObject({
      code: want.code,
      status: want.status,
      message: expect.stringMatching(want.message),
    });
    if (bytes.includes('gzip')) expect((await call('GET', '/__mock/state')).text).not.toContain('"id":77,');
  });

  it('keeps serving HTTP/1.0 without Host, which that version allows', async () => {
    const { text } = await sendRaw(info.port, `GET /v1/store/orders HTTP/1.0\r\n${RAW_KEY}\r\n`);
    expect(parseRaw(text).status).toBe(200);
  });

  it('reflects the Origin of a request node cannot parse, so the page can read the Error (D14)', async () => {
    const bytes = `GET /v1/store/orders HTTP/1.1\r\nHost: x\r\nOrigin: http://localhost:5173\r\nX-Padding: ${'x'.repeat(20_000)}\r\n\r\n`;
    const answer = parseRaw((await sendRaw(info.port, bytes)).text);
    expect(answer.status).toBe(431);
    expect(answer.headers).toMatch(/\r\naccess-control-allow-origin: http:\/\/localhost:5173\r\n/i);
    expect(answer.headers).toMatch(/\r\naccess-control-allow-credentials: true\r\n/i);
  });
});

describe('Expect: 100-continue (RFC 9110 §10.1.1)', () => {
  const put = (headers: string, length: number) =>
    `PUT /__mock/orders/79 HTTP/1.1\r\nHost: localhost\r\nX-Mock-Session: continue\r\n${headers}Expect: 100-continue\r\nContent-Length: ${length}\r\n\r\n`;

  it.each([
    { name: 'without a key: 401 and no 100 Continue', headers: '', length: 19, status: 401 },
    {
      name: 'with a wrong key: 401 and no 100 Continue',
      headers: 'Authorization: Bearer nope\r\n',
      length: 19,
      status: 401,
    },
    {
      name: 'with a declared size over 64 KiB: 413 and no 100 Continue',
      headers: RAW_KEY,
      length: 999_999,
      status: 413,
    },
  ])('refuses a request $name', async ({ headers, length, status }) => {
    // The client waits for 100 Continue before sending its body; it must get the final answer instead.
    const { text, timedOut } = await sendRaw(info.port, put(headers, length));
    expect(timedOut).toBe(false);
    expect(text).not.toContain('100 Continue');
    expect(parseRaw(text)).toMatchObject({ status, body: { status } });
  });

  it('sends 100 Continue to a request that passes, then reads its body', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(info.port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if (text === 'HTTP/1.1 100 Continue\r\n\r\n') socket.write('{"state":"pending"}');
        if (/\r\n\r\n\{.*\}$/s.test(text)) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('error', reject);
      socket.write(put(RAW_KEY, 19));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
  });
});

describe('the request log of a named session', () => {
  it('never takes an entry from a request without a valid key', async () => {
    const small = await createMock({ limits: { logSize: 3 } });
    const { url } = await small.listen({ port: 0 });
    const session = { 'x-mock-session': 'kept' };
    await send(url, { method: 'GET', path: '/v1/store/orders', headers: { ...AUTH, ...session } });
    for (const authorization of ['', 'Bearer wrong', 'Basic x', 'Bearer wrong', 'Bearer wrong']) {
      const headers = authorization === '' ? session : { ...session, authorization };
      expect((await send(url, { method: 'GET', path: '/v1/store/orders', headers })).status).toBe(401);
    }
    await send(url, { method: 'OPTIONS', path: '/v1/store/orders', headers: session });
    const log = await send(url, {
      method: 'GET',
      path: '/__mock/requests',
      headers: { ...AUTH, ...session },
    });
    const { requests } = JSON.parse(log.text) as { requests: Array<{ status: number }> };
    expect(requests.map((r) => r.status)).toEqual([200]);
    await small.close();
  });
});
