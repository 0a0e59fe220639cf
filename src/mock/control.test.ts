/**
 * The control endpoints for simulated faults (D18) and the global delay, run the same way through
 * `handle(Request)` and over a real socket: the core decides, each adapter only carries it out (a dropped
 * connection is a destroyed socket there and a rejected promise here, as fetch rejects on a network error).
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

describe.each(RUNNERS)('simulated faults through $name (D18)', (runner) => {
  it('fails the next N requests of one operation with a simulated 503, then answers again', async () => {
    const qa = session('faults-status');
    const added = await runner.call(
      'POST',
      '/__mock/faults',
      qa,
      json({ operation: 'listOrders', status: 503, times: 2 }),
    );
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      fault: { id: 1, operation: 'listOrders', status: 503, remaining: 2 },
    });

    // Another operation of the same session is not touched.
    expect((await runner.call('GET', '/v1/pets/10', qa)).status).toBe(200);
    for (const left of ['1 more to come', 'the last of its requests']) {
      const failed = await runner.call('GET', '/v1/store/orders', qa);
      expect(failed.status).toBe(503);
      expect(failed.header('x-mock-fault')).toBe('control');
      expect(failed.header('content-type')).toBe('application/json');
      expect(failed.body).toEqual({
        code: 'simulated_fault',
        message: `Simulated fault: fault 1 of /__mock/faults asked for it (${left}). The mock answered 503 on purpose; nothing failed.`,
        status: 503,
      });
    }
    expect((await runner.call('GET', '/v1/store/orders', qa)).status).toBe(200);
    expect((await runner.call('GET', '/__mock/faults', qa)).body).toMatchObject({ faults: [] });
  });

  it('keeps faults to their session', async () => {
    await runner.call('POST', '/__mock/faults', session('faults-a'), json({ status: 500 }));
    expect((await runner.call('GET', '/v1/store/orders', session('faults-b'))).status).toBe(200);
    expect((await runner.call('GET', '/v1/store/orders')).status).toBe(200);
    expect((await runner.call('GET', '/v1/store/orders', session('faults-a'))).status).toBe(500);
  });

  it('lets no request without a key use up a fault', async () => {
    const qa = session('faults-keyless');
    await runner.call('POST', '/__mock/faults', qa, json({ status: 502 }));
    const keyless = await runner.call('GET', '/v1/store/orders', { 'x-mock-session': 'faults-keyless' });
    expect(keyless.status).toBe(401);
    expect((await runner.call('GET', '/v1/store/orders', qa)).status).toBe(502);
  });

  it('never applies a fault to a control endpoint', async () => {
    const qa = session('faults-control');
    await runner.call('POST', '/__mock/faults', qa, json({ status: 500, times: 5 }));
    expect((await runner.call('GET', '/__mock/state', qa)).status).toBe(200);
    const listed = await runner.call('GET', '/__mock/faults', qa);
    expect(listed.body).toMatchObject({ faults: [{ status: 500, remaining: 5 }] });
  });

  it('answers a documented status as the document does, naming the id, and leaves state alone', async () => {
    const qa = session('faults-documented');
    await runner.call('POST', '/__mock/faults', qa, json({ operation: 'cancelOrder', status: 409 }));
    const refused = await runner.call('DELETE', '/v1/store/orders/3', qa);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 'order_already_shipped',
      message: 'Order 3 has already shipped and cannot be cancelled.',
      status: 409,
    });
    expect((await runner.call('DELETE', '/v1/store/orders/3', qa)).status).toBe(204);
  });

  it('clears a session’s faults, and a reset clears them too', async () => {
    const qa = session('faults-clear');
    await runner.call('POST', '/__mock/faults', qa, json({ status: 500 }));
    const cleared = await runner.call('DELETE', '/__mock/faults', qa);
    expect(cleared.body).toEqual({ session: 'faults-clear', delayMs: 0, faults: [] });
    await runner.call('POST', '/__mock/faults', qa, json({ status: 500 }));
    await runner.call('POST', '/__mock/reset', qa);
    expect((await runner.call('GET', '/v1/store/orders', qa)).status).toBe(200);
  });

  it('refuses a fault it cannot read with a 400 Error saying what to send', async () => {
    const bad = await runner.call('POST', '/__mock/faults', AUTH, json({ operation: 'nope', status: 500 }));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/listOrders/) });
    expect((await runner.call('POST', '/__mock/faults', AUTH, 'not json')).status).toBe(400);
  });

  it('answers Prefer: code=500 and 503 with a simulated-fault Error', async () => {
    for (const code of [500, 503]) {
      const failed = await runner.call('DELETE', '/v1/store/orders/1', { ...AUTH, prefer: `code=${code}` });
      expect(failed.status).toBe(code);
      expect(failed.header('preference-applied')).toBe(`code=${code}`);
      expect(failed.header('x-mock-fault')).toBe('prefer');
      expect(failed.body).toMatchObject({ code: 'simulated_fault', status: code });
    }
    // State untouched: order 1 is still pending.
    expect((await runner.call('DELETE', '/v1/store/orders/1')).status).toBe(204);
  });
});

describe('a dropped connection (D18)', () => {
  it('destroys the socket: the client sees a network error, not an answer', async () => {
    const headers = session('drop-socket');
    await send(url, { method: 'POST', path: '/__mock/faults', headers, body: json({ drop: true }) });
    const failed = send(url, { method: 'GET', path: '/v1/store/orders', headers });
    await expect(failed).rejects.toThrow(/socket hang up|ECONNRESET/);
    const fetched = await fetch(`${url}/v1/store/orders`, { headers });
    expect(fetched.status).toBe(200);
  });

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
    // The answer that turns the delay off comes at once (the new delay is in force for it).
    const off = await runner.call('PUT', '/__mock/delay', AUTH, json({ delayMs: 0 }));
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
