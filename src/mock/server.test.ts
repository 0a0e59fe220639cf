/** The mock over a real socket: the node:http binding, its limits, and concurrency. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type ListenInfo, type Mock } from './index.js';
import { AUTH, expectConforms } from './test-support/document-check.js';
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
