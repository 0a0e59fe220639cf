/**
 * What the shared behaviour table cannot say about faults (D18) and the global delay: that an answer waits
 * exactly as long as asked (on fake timers, through `handle(Request)` and over a real socket), that a
 * dropped connection rejects `handle` the way fetch rejects, and that a reset forgets a session's faults.
 * The fault cases themselves run on every runner in test-support/behaviour-table.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseExactJson } from '../contract/index.js';
import { createMock, type Mock } from './index.js';
import { AUTH } from './test-support/document-check.js';
import { send } from './test-support/http.js';

interface Answer {
  status: number;
  header(name: string): string | null;
  body: unknown;
}

interface Runner {
  name: string;
  mock: () => Mock;
  call(method: string, path: string, headers?: Record<string, string>, body?: string): Promise<Answer>;
}

function answerOf(status: number, header: (name: string) => string | null, text: string): Answer {
  const parsed = parseExactJson(text);
  return { status, header, body: text === '' ? undefined : parsed.ok ? parsed.value : text };
}

let inProcess: Mock;
let overSocket: Mock;
let url = '';
beforeAll(async () => {
  inProcess = await createMock();
  overSocket = await createMock();
  url = (await overSocket.listen({ port: 0 })).url;
});
afterAll(() => Promise.all([inProcess.close(), overSocket.close()]));

const RUNNERS: Runner[] = [
  {
    name: 'handle(Request)',
    mock: () => inProcess,
    async call(method, path, headers = AUTH, body) {
      const response = await inProcess.handle(
        new Request(`http://mock.test${path}`, { method, headers, body }),
      );
      return answerOf(response.status, (name) => response.headers.get(name), await response.text());
    },
  },
  {
    name: 'a socket',
    mock: () => overSocket,
    async call(method, path, headers = AUTH, body) {
      const answer = await send(url, { method, path, headers, ...(body === undefined ? {} : { body }) });
      const header = (name: string) => {
        const value = answer.headers[name.toLowerCase()];
        return value === undefined ? null : String(value);
      };
      return answerOf(answer.status, header, answer.text);
    },
  },
];

afterEach(async () => {
  vi.useRealTimers();
  for (const runner of RUNNERS) await runner.call('PUT', '/__mock/delay', AUTH, '{"delayMs":0}');
  inProcess.reset();
  overSocket.reset();
});

const session = (name: string) => ({ ...AUTH, 'x-mock-session': name });
const json = (value: unknown) => JSON.stringify(value);

describe('a dropped connection (D18)', () => {
  it('rejects handle(Request) as fetch rejects on a network error', async () => {
    const headers = session('drop-handle');
    await inProcess.handle(
      new Request('http://mock.test/__mock/faults', {
        method: 'POST',
        headers,
        body: json({ drop: true, times: 1 }),
      }),
    );
    const failed = inProcess.handle(new Request('http://mock.test/v1/store/orders', { headers }));
    await expect(failed).rejects.toBeInstanceOf(TypeError);
    const again = await inProcess.handle(new Request('http://mock.test/v1/store/orders', { headers }));
    expect(again.status).toBe(200);
  });

  it('forgets a session’s faults on reset', async () => {
    const headers = session('drop-reset');
    await inProcess.handle(
      new Request('http://mock.test/__mock/faults', { method: 'POST', headers, body: json({ drop: true }) }),
    );
    await inProcess.handle(new Request('http://mock.test/__mock/reset', { method: 'POST', headers }));
    const after = await inProcess.handle(new Request('http://mock.test/v1/store/orders', { headers }));
    expect(after.status).toBe(200);
  });

  it('shows the dropped request in the session log with status 0', async () => {
    const headers = session('drop-log');
    await inProcess.handle(
      new Request('http://mock.test/__mock/faults', { method: 'POST', headers, body: json({ drop: true }) }),
    );
    await inProcess
      .handle(new Request('http://mock.test/v1/store/orders', { headers }))
      .catch(() => undefined);
    const log = await inProcess.handle(new Request('http://mock.test/__mock/requests', { headers }));
    const { requests } = (await log.json()) as { requests: Array<{ path: string; status: number }> };
    expect(requests).toContainEqual(expect.objectContaining({ path: '/v1/store/orders', status: 0 }));
  });
});

/**
 * Delays are checked with fake timers, never with a clock: the answer must not exist before the delay has
 * passed on the mock's timer and must exist right after.
 */
describe.each(RUNNERS)('delays through $name', (runner) => {
  async function settlesOnlyAfter(delayMs: number, answer: Promise<Answer>): Promise<Answer> {
    let settled = false;
    void answer.then(() => {
      settled = true;
    });
    // The mock arms its timer once the request has reached it (vi.waitFor would advance the fake clock).
    for (let turn = 0; vi.getTimerCount() === 0; turn++) {
      if (turn > 10_000) throw new Error('the mock never armed its delay timer');
      await new Promise((resolve) => setImmediate(resolve));
    }
    vi.advanceTimersByTime(delayMs - 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    vi.advanceTimersByTime(1);
    return answer;
  }

  it('slows one operation with a delay fault, then answers normally', async () => {
    const qa = session('delay-fault');
    await runner.call('POST', '/__mock/faults', qa, json({ operation: 'listOrders', delayMs: 5000 }));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const slow = await settlesOnlyAfter(5000, runner.call('GET', '/v1/store/orders', qa));
    expect(slow.status).toBe(200);
    expect(slow.header('x-mock-fault')).toBe('control');
  });

  it('changes the global delay at run time', async () => {
    const set = await runner.call('PUT', '/__mock/delay', AUTH, json({ delayMs: 2000 }));
    expect(set.body).toEqual({ delayMs: 2000 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const slow = await settlesOnlyAfter(
      2000,
      runner.call('GET', '/v1/store/orders', session('delay-global')),
    );
    expect(slow.status).toBe(200);
    expect(slow.header('x-mock-fault')).toBeNull();
    // The delay in force when a request arrives applies to it, the one that turns the delay off included.
    const off = await settlesOnlyAfter(2000, runner.call('PUT', '/__mock/delay', AUTH, json({ delayMs: 0 })));
    expect(off.body).toEqual({ delayMs: 0 });
    vi.useRealTimers();
    expect((await runner.call('GET', '/__mock/delay')).body).toEqual({ delayMs: 0 });
  });

  it('refuses a delay it cannot read', async () => {
    const bad = await runner.call('PUT', '/__mock/delay', AUTH, json({ delayMs: -5 }));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/delayMs/) });
  });
});

describe('PUT /__mock/orders past what a session may hold', () => {
  it('answers 400 with an Error that says how to get room, and keeps the orders it had', async () => {
    const mock = await createMock({ fixtures: { orders: [] }, apiKeys: ['k'] });
    const put = (id: number) =>
      mock.handle(
        new Request(`http://mock/__mock/orders/${id}`, {
          method: 'PUT',
          headers: {
            authorization: 'Bearer k',
            'content-type': 'application/json',
            'x-mock-session': 'fill',
          },
          body: '{"state":"pending"}',
        }),
      );
    for (let id = 1; id <= 1000; id++) expect((await put(id)).status).toBe(201);
    const refused = await put(1001);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      code: 'invalid_request',
      message:
        'This session already holds 1000 orders put through /__mock/orders; POST /__mock/reset empties it, or use another X-Mock-Session.',
    });
    expect((await put(1000)).status).toBe(200);
  });
});
