/**
 * The typed control object against the `/__mock/` endpoints: each method leaves the mock in the state its
 * endpoint leaves it in and returns what the endpoint's body says, and a refused input gets the endpoint's
 * message. Each case runs on two fresh mocks, one driven by the method and one by the endpoint, and then
 * reads both through the same endpoints.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { parseExactJson, stringifyExactJson } from '../contract/index.js';
import { createMock, FixtureError, type Mock, type MockControl, MockControlError } from './index.js';
import { AUTH } from './test-support/document-check.js';

const SESSION = 'control-case';
const headers = { ...AUTH, 'x-mock-session': SESSION };

// biome-ignore lint/suspicious/noExplicitAny: the bodies of several endpoints, read field by field.
type Body = any;

/** One control request through `handle(Request)`; ids above 2^53 come back as decimal strings, as the object gives them. */
async function call(
  mock: Mock,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Body }> {
  const response = await mock.handle(
    new Request(`http://mock.test${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: stringifyExactJson(body as never) }),
    }),
  );
  const text = await response.text();
  const parsed = parseExactJson(text);
  return { status: response.status, body: parsed.ok ? bigintsAsStrings(parsed.value) : text };
}

function bigintsAsStrings(value: unknown): unknown {
  if (typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return value.map(bigintsAsStrings);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, bigintsAsStrings(inner)]));
  }
  return value;
}

/** Order ids and pet ids as the object hands them out: decimal strings. */
function idsAsStrings(orders: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  return orders.map((order) => ({
    ...order,
    id: String(order.id),
    ...(order.petId === undefined ? {} : { petId: String(order.petId) }),
  }));
}

/** What the endpoints say about a session: its orders, its faults and the delay. */
async function observable(mock: Mock) {
  const state = await call(mock, 'GET', '/__mock/state');
  const faults = await call(mock, 'GET', '/__mock/faults');
  return { orders: state.body.orders, faults: faults.body.faults, delayMs: faults.body.delayMs };
}

interface Case {
  name: string;
  /** Requests both mocks get first. */
  before?: Array<[method: string, path: string, body?: unknown]>;
  viaObject: (control: MockControl) => Promise<unknown>;
  viaEndpoint: (mock: Mock) => Promise<unknown>;
}

const cancelFirst: Case['before'] = [['DELETE', '/v1/store/orders/1']];

const CASES: Case[] = [
  {
    name: 'resetSession is POST /__mock/reset',
    before: [...cancelFirst, ['POST', '/__mock/faults', { status: 503 }]],
    viaObject: (control) => control.resetSession(SESSION),
    viaEndpoint: async (mock) => void (await call(mock, 'POST', '/__mock/reset')),
  },
  {
    name: "orders is GET /__mock/state's orders, each with its state",
    before: cancelFirst,
    viaObject: (control) => control.orders(SESSION),
    viaEndpoint: async (mock) => idsAsStrings((await call(mock, 'GET', '/__mock/state')).body.orders),
  },
  {
    name: 'putOrder is PUT /__mock/orders/{id}, exact above 2^53',
    viaObject: (control) =>
      control.putOrder({ id: '9007199254740995', state: 'shipped', petId: 10n, quantity: 2 }, SESSION),
    viaEndpoint: async (mock) =>
      idsAsStrings([
        (
          await call(mock, 'PUT', '/__mock/orders/9007199254740995', {
            state: 'shipped',
            petId: 10,
            quantity: 2,
          })
        ).body,
      ])[0],
  },
  {
    name: 'fault is POST /__mock/faults',
    viaObject: (control) => control.fault({ operation: 'listOrders', status: 503, times: 2 }, SESSION),
    viaEndpoint: async (mock) =>
      (await call(mock, 'POST', '/__mock/faults', { operation: 'listOrders', status: 503, times: 2 })).body
        .fault,
  },
  {
    name: 'faults is GET /__mock/faults',
    before: [
      ['POST', '/__mock/faults', { drop: true }],
      ['POST', '/__mock/faults', { operation: 'cancelOrder', delayMs: 20, times: 3 }],
    ],
    viaObject: (control) => control.faults(SESSION),
    viaEndpoint: async (mock) => (await call(mock, 'GET', '/__mock/faults')).body.faults,
  },
  {
    name: 'clearFaults is DELETE /__mock/faults',
    before: [['POST', '/__mock/faults', { status: 500 }]],
    viaObject: (control) => control.clearFaults(SESSION),
    viaEndpoint: async (mock) => void (await call(mock, 'DELETE', '/__mock/faults')),
  },
  {
    name: 'delay is PUT /__mock/delay',
    viaObject: (control) => control.delay(250),
    viaEndpoint: async (mock) => void (await call(mock, 'PUT', '/__mock/delay', { delayMs: 250 })),
  },
  {
    name: 'sessions is GET /__mock/sessions',
    before: cancelFirst,
    viaObject: (control) => control.sessions(),
    viaEndpoint: async (mock) => (await call(mock, 'GET', '/__mock/sessions')).body.sessions,
  },
];

const mocks: Mock[] = [];
afterAll(() => Promise.all(mocks.map((mock) => mock.close())));

async function freshPair(before: Case['before'] = []): Promise<[Mock, Mock]> {
  const pair: [Mock, Mock] = [await createMock(), await createMock()];
  mocks.push(...pair);
  for (const mock of pair) for (const [method, path, body] of before) await call(mock, method, path, body);
  return pair;
}

describe('each control method does what its endpoint does', () => {
  it.each(CASES)('$name', async ({ before, viaObject, viaEndpoint }) => {
    const [byObject, byEndpoint] = await freshPair(before);
    const returned = await viaObject(byObject);
    const answered = await viaEndpoint(byEndpoint);
    expect(returned).toEqual(answered);
    expect(await observable(byObject)).toEqual(await observable(byEndpoint));
  });

  it("requests is GET /__mock/requests, each with its status and the Error's code", async () => {
    const [mock] = await freshPair([
      ['DELETE', '/v1/store/orders/1'],
      ['DELETE', '/v1/store/orders/2'],
    ]);
    const viaObject = await mock.requests(SESSION);
    const viaEndpoint = (await call(mock, 'GET', '/__mock/requests')).body.requests;
    expect(viaObject).toEqual(viaEndpoint);
    expect(viaObject.map(({ path, status, code }) => ({ path, status, code }))).toEqual([
      { path: '/v1/store/orders/1', status: 204, code: undefined },
      { path: '/v1/store/orders/2', status: 409, code: 'order_already_shipped' },
    ]);
  });
});

describe('a refused input throws the message the endpoint answers with', () => {
  it.each([
    {
      name: 'a status out of range',
      viaObject: (control: MockControl) => control.fault({ status: 700 }),
      endpoint: ['POST', '/__mock/faults', { status: 700 }] as const,
    },
    {
      name: 'a delay beyond 30 s',
      viaObject: (control: MockControl) => control.delay(30_001),
      endpoint: ['PUT', '/__mock/delay', { delayMs: 30_001 }] as const,
    },
    {
      name: 'an order in an unknown state',
      viaObject: (control: MockControl) => control.putOrder({ id: 5, state: 'lost' as never }),
      endpoint: ['PUT', '/__mock/orders/5', { state: 'lost' }] as const,
    },
  ])('$name', async ({ viaObject, endpoint }) => {
    const [byObject, byEndpoint] = await freshPair();
    const [method, path, body] = endpoint;
    const answer = await call(byEndpoint, method, path, body);
    expect(answer.status).toBe(400);
    await expect(viaObject(byObject)).rejects.toThrow(new MockControlError(answer.body.message));
  });

  it('refuses a number id past 2^53 rather than put another order', async () => {
    const [mock] = await freshPair();
    await expect(mock.putOrder({ id: 2 ** 53 + 2, state: 'pending' })).rejects.toThrow(/not a safe integer/);
  });
});

describe('seed and reset', () => {
  it('seed replaces the fixtures of every session and reset goes back to the seed', async () => {
    const [mock] = await freshPair();
    await mock.seed({ orders: [{ id: 9007199254740993n, status: 'pending' }] });
    await call(mock, 'DELETE', '/v1/store/orders/9007199254740993');
    expect(await mock.orders(SESSION)).toEqual([
      { id: '9007199254740993', complete: false, state: 'cancelled' },
    ]);
    await mock.delay(100);
    await mock.fault({ status: 500 }, SESSION);
    await mock.reset();
    expect(await mock.sessions()).toEqual(['default']);
    expect(await mock.orders(SESSION)).toEqual([
      { id: '9007199254740993', complete: false, state: 'pending' },
    ]);
    expect(await mock.faults(SESSION)).toEqual([]);
    expect((await call(mock, 'GET', '/__mock/delay')).body).toEqual({ delayMs: 0 });
  });

  it('seed refuses bad fixtures with the FixtureError a file gets, and keeps the state', async () => {
    const [mock] = await freshPair(cancelFirst);
    await expect(mock.seed({ orders: [{ id: 1, status: 'lost' as never }] })).rejects.toThrow(FixtureError);
    expect((await mock.orders(SESSION)).find((order) => order.id === '1')?.state).toBe('cancelled');
  });
});
