/**
 * Seeded fuzz over a real socket: random methods, paths, percent-encodings, header values, oversized
 * headers and bodies, and raw garbage. Whatever arrives, the mock answers in time, never 5xx, with a body
 * the document accepts, and it still answers normally afterwards. Change SEED to explore; a failure
 * names the case so it can be replayed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type ListenInfo, type Mock } from './index.js';
import { AUTH, expectConforms, KEY } from './test-support/document-check.js';
import { seededRandom, send, sendRaw } from './test-support/http.js';

const SEED = 20261122;
const REQUESTS = 400;
const RAW_REQUESTS = 60;

let mock: Mock;
let info: ListenInfo;
beforeAll(async () => {
  mock = await createMock({ limits: { maxSessions: 8, logSize: 16 } });
  info = await mock.listen({ port: 0 });
});
afterAll(() => mock.close());

const random = seededRandom(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const int = (max: number) => Math.floor(random() * max);

const METHODS = [
  'GET',
  'GET',
  'DELETE',
  'DELETE',
  'POST',
  'PUT',
  'PATCH',
  'OPTIONS',
  'HEAD',
  'TRACE',
  'PURGE',
  'M-SEARCH',
];
const SEGMENTS = [
  'v1',
  'v1',
  'v1',
  'store',
  'store',
  'orders',
  'orders',
  'pets',
  '__mock',
  'state',
  'reset',
  'requests',
  '1',
  '2',
  '3',
  '4',
  '6',
  '8',
  '10',
  '12',
  '404',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-1',
  '0',
  '01',
  '1.5',
  '1e3',
  'abc',
  '',
  '%31',
  '%2F',
  '%zz',
  '%',
  '%00',
  '..',
  '.',
  '%6Frders',
  '%E2%82%AC',
  '~',
  'x'.repeat(300),
];
const AUTHS = [
  `Bearer ${KEY}`,
  `Bearer ${KEY}`,
  `Bearer ${KEY}`,
  `Bearer ${KEY}`,
  `Bearer ${KEY}`,
  `Bearer ${KEY}`,
  `bearer ${KEY}`,
  `Basic ${KEY}`,
  'Bearer',
  'Bearer ',
  KEY,
  'Bearer wrong',
  `Bearer ${KEY} extra`,
  `Token ${KEY}`,
  'Bearer \u00e9',
  undefined,
];
const PREFERS = [
  undefined,
  undefined,
  undefined,
  'code=200',
  'code=204',
  'code=404',
  'code=409',
  'code=999',
  'code=abc',
  'code=',
  'example=x',
];

const DOCUMENTED = [
  '/v1/store/orders',
  '/v1/store/orders/',
  '/v1/pets/',
  '/__mock/state',
  '/__mock/requests',
  '/__mock/orders/',
];

function randomPath(): string {
  // Half the paths start from a real one, so the fuzz also reaches state changes, not only 404s.
  if (random() < 0.5) {
    const base = pick(DOCUMENTED);
    return base.endsWith('/') ? base + pick(SEGMENTS) : base;
  }
  const depth = 1 + int(5);
  let path = '';
  for (let i = 0; i < depth; i++) path += `/${pick(SEGMENTS)}`;
  if (random() < 0.1) path += '/';
  if (random() < 0.15) path += `?${pick(['a=1', 'x=%zz', '=&&', `q=${'y'.repeat(100)}`])}`;
  return path;
}

function randomHeaderValue(): string {
  const length = int(40);
  let value = '';
  for (let i = 0; i < length; i++) value += String.fromCharCode(0x20 + int(0x5f));
  return value.trim();
}

interface FuzzCase {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

function randomCase(): FuzzCase {
  const headers: Record<string, string> = {};
  const auth = pick(AUTHS);
  if (auth !== undefined) headers.authorization = auth;
  const prefer = pick(PREFERS);
  if (prefer !== undefined) headers.prefer = prefer;
  if (random() < 0.2) headers['x-mock-session'] = pick(['a', 'b', 'c', `s${int(50)}`, 'x'.repeat(200)]);
  if (random() < 0.2) headers[`x-fuzz-${int(5)}`] = randomHeaderValue();
  if (random() < 0.05) headers['x-big'] = 'h'.repeat(17_000 + int(20_000));
  if (random() < 0.1)
    headers['content-type'] = pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded']);
  let body: Buffer | undefined;
  const roll = random();
  if (roll < 0.1)
    body = Buffer.from(
      pick(['{"state":"pending"}', '{"state":"shipped","petId":1}', '{', 'null', '[]', '{"state":"lost"}']),
    );
  else if (roll < 0.15) body = Buffer.alloc(int(200_000), 'z');
  return { method: pick(METHODS), path: randomPath(), headers, body };
}

describe('fuzz over a real socket', () => {
  it(`answers ${REQUESTS} random requests in time, never 5xx, always conforming`, async () => {
    const cases = Array.from({ length: REQUESTS }, randomCase);
    const statuses = new Map<number, number>();
    // A few at a time, as clients do, so ordering and concurrency both vary.
    for (let i = 0; i < cases.length; i += 8) {
      await Promise.all(
        cases.slice(i, i + 8).map(async (fuzz, j) => {
          const label = `case ${i + j} (seed ${SEED}): ${fuzz.method} ${fuzz.path.slice(0, 80)}`;
          const answer = await send(info.url, {
            method: fuzz.method,
            path: fuzz.path,
            headers: fuzz.headers,
            ...(fuzz.body ? { body: fuzz.body } : {}),
          }).catch((error: Error) => {
            // The server may close the connection after a 413 while the client is still writing.
            if (fuzz.body && fuzz.body.length > 65_536 && /EPIPE|ECONNRESET/.test(error.message))
              return undefined;
            throw new Error(
              `${label} headers=${JSON.stringify(Object.fromEntries(Object.entries(fuzz.headers).map(([k, v]) => [k, v.length > 40 ? v.length : v])))} body=${fuzz.body?.length}: ${error.message}`,
            );
          });
          if (!answer) return;
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          expect(answer.status, label).toBeLessThan(500);
          expectConforms(fuzz.method, fuzz.path.split('?')[0] ?? '', {
            status: answer.status,
            contentType: (answer.headers['content-type'] as string | undefined) ?? null,
            text: answer.text,
          });
        }),
      );
    }
    // The fuzz reaches the interesting answers, not only 401s.
    for (const status of [200, 204, 400, 401, 404, 405, 413, 431])
      expect(statuses.get(status) ?? 0, `status ${status}`).toBeGreaterThan(0);
    const after = await send(info.url, { method: 'GET', path: '/v1/store/orders', headers: AUTH });
    expect(after.status).toBe(200);
  });

  it(`answers ${RAW_REQUESTS} raw byte sequences without hanging or 5xx`, async () => {
    const pieces = [
      'GET',
      'DELETE',
      'TRACE',
      ' ',
      '/v1/store/orders',
      '/%zz',
      'HTTP/1.1',
      'HTTP/9.9',
      '\r\n',
      '\n',
      '\0',
      ':',
      'Host: x',
      `Authorization: Bearer ${KEY}`,
      'Content-Length: 5',
      'Content-Length: -1',
      'Transfer-Encoding: chunked',
      '\u00ff',
      'zz',
    ];
    for (let i = 0; i < RAW_REQUESTS; i++) {
      let bytes = '';
      const count = 1 + int(12);
      for (let j = 0; j < count; j++) bytes += pick(pieces);
      bytes += '\r\n\r\n';
      const { text, timedOut } = await sendRaw(info.port, Buffer.from(bytes, 'latin1'), 1000);
      const label = `raw case ${i} (seed ${SEED}): ${JSON.stringify(bytes)}`;
      // Either a complete answer or a closed connection; an incomplete request may wait for more bytes,
      // which the server is allowed to do until its request timeout, so only a 5xx is a failure there.
      if (!timedOut || text !== '') expect(text, label).not.toMatch(/^HTTP\/1\.[01] 5/);
      if (text.startsWith('HTTP/')) expect(text, label).toMatch(/content-type: application\/json/i);
    }
    const after = await send(info.url, { method: 'GET', path: '/v1/store/orders', headers: AUTH });
    expect(after.status).toBe(200);
  });

  it('keeps its sessions and request log within bounds after the fuzz', async () => {
    const state = await send(info.url, { method: 'GET', path: '/__mock/requests', headers: AUTH });
    const log = JSON.parse(state.text) as {
      capacity: number;
      keylessCapacity: number;
      requests: Array<{ authenticated: boolean }>;
    };
    // The fuzz sent far more than 16 keyed requests to the default session, and many without a key: each
    // ring is full, not over.
    expect(log.capacity).toBe(16);
    expect(log.requests.filter((r) => r.authenticated)).toHaveLength(16);
    expect(log.keylessCapacity).toBe(4);
    expect(log.requests.filter((r) => !r.authenticated)).toHaveLength(4);
    const cancel = async (name: string) =>
      (
        await send(info.url, {
          method: 'DELETE',
          path: '/v1/store/orders/1',
          headers: { ...AUTH, 'x-mock-session': name },
        })
      ).status;
    for (let i = 0; i < 50; i++) expect(await cancel(`many-${i}`), `many-${i}`).toBe(204);
    // Only the 8 most recently used sessions are kept: they remember their cancel (404 now) ...
    for (let i = 42; i < 50; i++) expect(await cancel(`many-${i}`), `many-${i}`).toBe(404);
    // ... and an older one was dropped, so it starts again from the fixtures, where order 1 is pending.
    expect(await cancel('many-41')).toBe(204);
  });
});
