/**
 * `persist: inSessionStorage` over an in-memory Storage: a "reload" is a second `createHandlers` in the same tab
 * (the same storage). The state comes back exact; without the option every load is fresh; a state that
 * does not fit is kept in memory, with one warning, and never half-restored.
 */
import { getResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHandlers, type MockHandlers } from './index.js';
import { inSessionStorage, type StorageLike } from './persist.js';

/** The web's Storage, in memory; `quota` makes setItem throw as a full browser storage does. */
class MemoryStorage implements StorageLike {
  readonly items = new Map<string, string>();
  constructor(readonly quota = Number.POSITIVE_INFINITY) {}
  get length() {
    return this.items.size;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    if (value.length > this.quota) throw new DOMException('quota exceeded', 'QuotaExceededError');
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  clear() {
    this.items.clear();
  }
}

const BASE = 'http://api.test/v1';
const FIXTURES = {
  orders: [
    { id: 1, status: 'pending' as const },
    { id: 9007199254740993n, status: 'pending' as const },
  ],
};
const load = (persist?: 'session') =>
  createHandlers({
    fixtures: FIXTURES,
    apiKeys: ['k'],
    baseUrl: BASE,
    ...(persist ? { persist: inSessionStorage } : {}),
  });

async function send(mock: MockHandlers, method: string, path: string, body?: unknown) {
  const request = new Request(`http://api.test${path}`, {
    method,
    headers: { authorization: 'Bearer k', 'x-mock-session': 'tab' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await getResponse(mock, request))?.status;
}

const statesOf = async (mock: MockHandlers) =>
  Object.fromEntries((await mock.orders('tab')).map((order) => [order.id, order.state]));

let storage: MemoryStorage;
let warnings: string[];
beforeEach(() => {
  storage = new MemoryStorage();
  vi.stubGlobal('sessionStorage', storage);
  warnings = [];
  vi.spyOn(console, 'warn').mockImplementation((message: string) => void warnings.push(message));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('persist: inSessionStorage', () => {
  it('keeps a cancelled order cancelled across a reload, its id exact', async () => {
    const first = load('session');
    expect(await send(first, 'DELETE', '/v1/store/orders/9007199254740993')).toBe(204);
    const reloaded = load('session');
    expect(await statesOf(reloaded)).toEqual({ '1': 'pending', '9007199254740993': 'cancelled' });
    expect(await send(reloaded, 'DELETE', '/v1/store/orders/9007199254740993')).toBe(404);
    expect([...storage.items.values()].join()).toContain('"9007199254740993"');
  });

  it('keeps planned faults and the delay, changed through the endpoints or the control object', async () => {
    const first = load('session');
    expect(
      await send(first, 'POST', '/__mock/faults', { operation: 'listOrders', status: 503, times: 2 }),
    ).toBe(201);
    await first.delay(15);
    const reloaded = load('session');
    expect(await reloaded.faults('tab')).toEqual([
      { id: 1, operation: 'listOrders', status: 503, delayMs: 0, remaining: 2 },
    ]);
    expect(await send(reloaded, 'GET', '/v1/store/orders')).toBe(503);
    await reloaded.reset();
    expect(await statesOf(load('session'))).toEqual({ '1': 'pending', '9007199254740993': 'pending' });
  });

  it('is off by default: every load starts from the fixtures', async () => {
    const first = load();
    expect(await send(first, 'DELETE', '/v1/store/orders/1')).toBe(204);
    expect(storage.length).toBe(0);
    expect((await statesOf(load()))['1']).toBe('pending');
  });

  it('keeps a state that does not fit in memory, warns once, and a reload starts fresh', async () => {
    await send(load('session'), 'DELETE', '/v1/store/orders/1');
    // The same tab, its storage now nearly full: the saved copy is there but a bigger state cannot be written.
    const saved = [...storage.items];
    storage = new MemoryStorage(10);
    for (const [key, value] of saved) storage.items.set(key, value);
    vi.stubGlobal('sessionStorage', storage);
    const small = load('session');
    await send(small, 'DELETE', '/v1/store/orders/9007199254740993');
    await send(small, 'GET', '/v1/store/orders');
    expect(await statesOf(small)).toEqual({ '1': 'cancelled', '9007199254740993': 'cancelled' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /does not fit in sessionStorage .* kept in memory, and a reload starts from the fixtures/,
    );
    expect(storage.length).toBe(0);
    expect(await statesOf(load('session'))).toEqual({ '1': 'pending', '9007199254740993': 'pending' });
  });

  it('starts from the fixtures, with a warning, when the saved state is unusable', async () => {
    storage.setItem(
      'petstore-mock:http://api.test/v1',
      '{"version":1,"delayMs":0,"sessions":[{"name":"tab","orders":[{"id":"1.5","state":"cancelled"}],"faults":[]}]}',
    );
    expect((await statesOf(load('session')))['1']).toBe('pending');
    expect(warnings).toEqual([expect.stringMatching(/saved state is unusable .*starting from the fixtures/)]);
  });
});

describe('a saved state another script edited (issue 25): the checks of PUT /__mock/orders', () => {
  const saved = (sessions: unknown[]) => JSON.stringify({ version: 1, delayMs: 0, sessions });
  const tab = (orders: unknown[], name = 'tab') => ({ name, orders, faults: [] });
  const many = (count: number) =>
    Array.from({ length: count }, (_, index) => ({ id: String(index + 2), state: 'pending' }));
  it.each([
    {
      name: 'an id past int64',
      given: saved([tab([{ id: '9223372036854775808', state: 'cancelled' }])]),
      want: /order 9223372036854775808: .*int64/,
    },
    {
      name: 'a quantity of 1.5',
      given: saved([tab([{ id: '1', quantity: 1.5, state: 'cancelled' }])]),
      want: /order 1: .*quantity/,
    },
    {
      name: 'a shipDate that is not a date',
      given: saved([tab([{ id: '1', shipDate: 'next week', state: 'cancelled' }])]),
      want: /order 1: .*shipDate must be an ISO 8601 date-time/,
    },
    {
      name: 'a 4,000-character session name',
      given: saved([tab([{ id: '1', state: 'cancelled' }], 'x'.repeat(4000))]),
      want: /a session name that is not a string of at most 128 characters/,
    },
    {
      name: '20,000 orders, more text than the state may hold',
      given: saved([tab(many(20_000))]),
      want: /over 524288 characters/,
    },
    {
      name: '1,001 orders in one session, past its cap',
      given: saved([tab(many(1001))]),
      want: /already holds 1000 orders/,
    },
    {
      name: 'a good session followed by a bad one, restoring neither',
      given: saved([
        tab([{ id: '1', state: 'cancelled' }]),
        tab([{ id: '9007199254740993', quantity: 1.5, state: 'cancelled' }], 'other'),
      ]),
      want: /order 9007199254740993: .*quantity/,
    },
  ])('refuses $name with one warning, and serves the fixtures', async ({ given, want }) => {
    storage.setItem('petstore-mock:http://api.test/v1', given);
    const mock = load('session');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^petstore mock: the saved state /);
    expect(warnings[0]).toMatch(want);
    expect(warnings[0]).toMatch(/starting from the fixtures\.$/);
    expect(await mock.sessions()).toEqual(['default']);
    expect(await statesOf(mock)).toEqual({ '1': 'pending', '9007199254740993': 'pending' });
    expect(await send(mock, 'GET', '/v1/store/orders')).toBe(200);
  });
});

describe('the persist option', () => {
  it.each([
    { name: "refuses the string 'session', naming the import that replaces it", given: 'session' },
    { name: 'refuses true', given: true },
  ])('$name', ({ given }) => {
    expect(() => createHandlers({ fixtures: FIXTURES, baseUrl: BASE, persist: given as never })).toThrow(
      "createHandlers: persist takes inSessionStorage from 'petstore-contract-toolkit/msw/persist'",
    );
  });
});
