import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPetstoreClient } from '../client/index.js';
import { createMock, FixtureError } from '../mock/index.js';
import { createHandlers } from './index.js';

const AUTH = { authorization: 'Bearer k' };

describe('createHandlers: fixtures as data, checked like a file', () => {
  it.each([
    {
      name: 'refuses an unknown state, naming the entry',
      given: { orders: [{ id: 1, status: 'lost' }] },
      want: '<fixture data>: orders[0] (id 1): status must be one of pending, shipped, cancelled, got "lost"',
    },
    {
      name: 'refuses a duplicate id',
      given: {
        orders: [
          { id: 1, status: 'pending' },
          { id: 1, status: 'shipped' },
        ],
      },
      want: '<fixture data>: orders[1] (id 1): duplicate id 1',
    },
    {
      name: 'refuses an id beyond int64',
      given: { orders: [{ id: 2n ** 63n, status: 'pending' }] },
      want: '<fixture data>: orders[0] (id 9223372036854775808): id must be within int64 (−2^63 … 2^63−1), got 9223372036854775808',
    },
    {
      name: 'refuses an id string that is not plain decimal',
      given: { orders: [{ id: '1.5', status: 'pending' }] },
      want: '<fixture data>: orders[0] (id "1.5"): id must be an integer written in plain decimal (no sign on 0, no leading zeros), got "1.5"',
    },
  ])('$name, with the message createMock gives', async ({ given, want }) => {
    const fixtures = given as never;
    expect(() => createHandlers({ fixtures })).toThrow(FixtureError);
    expect(() => createHandlers({ fixtures })).toThrow(want);
    await expect(createMock({ fixtures })).rejects.toThrow(want);
  });

  it('refuses a key that could never be sent as a bearer token', () => {
    expect(() => createHandlers({ fixtures: {}, apiKeys: ['has space'] })).toThrow(
      /cannot be sent as a bearer token/,
    );
  });

  it.each([
    {
      name: 'no options at all',
      given: undefined,
      want: 'createHandlers: fixtures takes fixture data, e.g. { orders: [] }, got undefined',
    },
    { name: 'no fixtures', given: {}, want: /fixtures takes fixture data, .*, got undefined$/ },
    {
      name: 'fixtures that are a list',
      given: { fixtures: [] },
      want: /fixtures takes fixture data, .*, got array$/,
    },
    {
      name: 'a persist that is not the import',
      given: { fixtures: {}, persist: 'session' },
      want: "createHandlers: persist takes inSessionStorage from 'petstore-contract-toolkit/msw/persist', got string",
    },
    {
      name: 'an inspector that is not the import',
      given: { fixtures: {}, inspector: true },
      want: "createHandlers: inspector takes inspector from 'petstore-contract-toolkit/msw/inspector', got boolean",
    },
    {
      name: 'a base URL that is not text',
      given: { fixtures: {}, baseUrl: new URL('http://api.test/v1') },
      want: 'createHandlers: baseUrl takes a string ending in /v1, got object',
    },
    {
      name: 'one key given as a string, without printing it',
      given: { fixtures: {}, apiKeys: 'secret-key' },
      want: 'createHandlers: apiKeys takes an array of strings, got string',
    },
    {
      name: 'a misspelt option',
      given: { fixtures: {}, apiKey: 'k' },
      want: 'createHandlers: unknown option apiKey; the options are fixtures, baseUrl, persist, inspector, apiKeys, corsOrigins, delayMs, limits, log, onBug, contract',
    },
  ])('names the option that is wrong, and what it takes: $name', ({ given, want }) => {
    expect(() => createHandlers(given as never)).toThrow(TypeError);
    expect(() => createHandlers(given as never)).toThrow(want);
    expect(() => createHandlers(given as never)).not.toThrow(/secret-key|must hold a mapping/);
  });

  it.each(['http://api.test', 'http://api.test/v2', '/api'])(
    'refuses the base URL %s, which does not end in /v1',
    (baseUrl) => {
      expect(() => createHandlers({ fixtures: {}, baseUrl })).toThrow(/baseUrl must end in \/v1/);
    },
  );
});

describe('createHandlers under a path prefix', () => {
  const server = setupServer(
    ...createHandlers({
      fixtures: { orders: [{ id: 9007199254740993n, status: 'pending' }] },
      apiKeys: ['k'],
      baseUrl: 'http://api.test/api/v1/',
    }),
  );
  const unhandled: string[] = [];
  beforeAll(() =>
    server.listen({
      // Nothing may reach the network: an unanswered request is recorded and fails.
      onUnhandledRequest: (request) => {
        unhandled.push(request.url);
        throw new Error(`unhandled ${request.url}`);
      },
    }),
  );
  afterAll(() => server.close());

  it('serves the API below the prefix, ids exact', async () => {
    const response = await fetch('http://api.test/api/v1/store/orders', { headers: AUTH });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('[{"id":9007199254740993,"complete":false}]');
  });

  it('serves the control endpoints beside it', async () => {
    const cancelled = await fetch('http://api.test/api/v1/store/orders/9007199254740993', {
      method: 'DELETE',
      headers: AUTH,
    });
    expect(cancelled.status).toBe(204);
    const state = await fetch('http://api.test/api/__mock/state', { headers: AUTH });
    expect(await state.text()).toContain('"id":9007199254740993,"complete":false,"state":"cancelled"');
  });

  it.each([
    'http://api.test/api/V1/store/orders',
    'http://api.test/API/v1/store/orders',
    'http://api.test/api/__MOCK/state',
  ])('leaves %s, another case of its paths, unanswered', async (url) => {
    unhandled.length = 0;
    const response = await fetch(url, { headers: AUTH });
    expect(response.statusText).toBe('Unhandled Exception');
    expect(unhandled).toEqual([url]);
  });

  it('stops reading a streamed body at the limit and answers 413', async () => {
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // 300 MiB if read whole.
        if (pulled >= 300 * 2 ** 20) return controller.close();
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch('http://api.test/api/__mock/orders/1', {
      method: 'PUT',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { code: string }).code).toBe('payload_too_large');
    // The limit (64 KiB) and what the stream had queued ahead of the reader, not 300 MiB.
    expect(pulled).toBeLessThan(4 * 2 ** 20);
  });

  it('answers a request whose body stream fails as the network would: fetch rejects, no 500', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"state":'));
      },
      pull(controller) {
        controller.error(new Error('the page gave up'));
      },
    });
    const sent = fetch('http://api.test/api/__mock/orders/1', {
      method: 'PUT',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    await expect(sent).rejects.toThrow(TypeError);
    // Nothing was changed, and the mock answers the next request.
    const state = await fetch('http://api.test/api/__mock/state', { headers: AUTH });
    expect(state.status).toBe(200);
  });

  it('leaves paths outside the prefix unanswered', async () => {
    unhandled.length = 0;
    const response = await fetch('http://api.test/v1/store/orders', { headers: AUTH });
    // MSW turns the recording callback's throw into its own 500; the mock never saw the request.
    expect(response.statusText).toBe('Unhandled Exception');
    expect(unhandled).toEqual(['http://api.test/v1/store/orders']);
  });
});

describe('a fault with the message the screen should show (issue 24)', () => {
  const mock = createHandlers({ fixtures: {}, apiKeys: ['k'], baseUrl: 'http://faults.test/v1' });
  const server = setupServer(...mock);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  const list = () => fetch('http://faults.test/v1/store/orders', { headers: AUTH });

  it.each([
    {
      name: 'planned with mock.fault',
      plan: () => mock.fault({ operation: 'listOrders', status: 503, message: 'Back soon.' }),
    },
    {
      name: 'planned with POST /__mock/faults',
      plan: () =>
        fetch('http://faults.test/__mock/faults', {
          method: 'POST',
          headers: AUTH,
          body: JSON.stringify({ operation: 'listOrders', status: 503, message: 'Back soon.' }),
        }),
    },
  ])('answers it when $name, still marked as simulated (D18)', async ({ plan }) => {
    await plan();
    expect((await mock.faults())[0]?.message).toBe('Back soon.');
    const response = await list();
    expect(response.headers.get('x-mock-fault')).toBe('control');
    expect(await response.json()).toEqual({ code: 'simulated_fault', message: 'Back soon.', status: 503 });
  });

  it('says "simulated" by default, without the control path', async () => {
    await mock.fault({ operation: 'listOrders', status: 500 });
    const { message } = (await (await list()).json()) as { message: string };
    expect(message).toBe('Simulated fault: the mock answered 500 on purpose.');
    expect(message).not.toContain('/__mock');
  });
});

describe('the handlers as mountInspector reads them', () => {
  it('carry the keys they accept, as createMock does, without spreading them', () => {
    const mock = createHandlers({ fixtures: { apiKeys: ['from-fixtures'] } });
    expect(mock.apiKeys).toEqual(['from-fixtures']);
    expect(createHandlers({ fixtures: {}, apiKeys: ['k'] }).apiKeys).toEqual(['k']);
    expect(Object.keys(mock)).toEqual(['0']);
  });
});

describe('seeding from what the typed client listed (issue 24)', () => {
  const list = () =>
    new Request('http://api.test/v1/store/orders', { headers: { authorization: 'Bearer petstore-dev-key' } });

  it('createHandlers, createMock and seed() take listed orders unchanged and list them byte for byte', async () => {
    const source = await createMock(); // the default fixtures: ids above 2^53, shipped and pending orders
    const client = createPetstoreClient({
      baseUrl: 'http://api.test/v1',
      apiKey: 'petstore-dev-key',
      fetch: (request) => source.handle(request),
    });
    const listed = (await client.GET('/store/orders')).data ?? [];
    expect(listed.some((order) => order.complete)).toBe(true);
    const want = await (await source.handle(list())).text();

    const handlers = createHandlers({ fixtures: { orders: listed }, baseUrl: 'http://api.test/v1' });
    const mock = await createMock({ fixtures: { orders: listed } });
    const seeded = await createMock({ fixtures: { orders: [] } });
    await seeded.seed({ orders: listed });
    expect(await (await getResponse(handlers, list()))?.text()).toBe(want);
    expect(await (await mock.handle(list())).text()).toBe(want);
    expect(await (await seeded.handle(list())).text()).toBe(want);
    // `complete: true` came back as shipped: its cancel is the 409.
    const shipped = listed.find((order) => order.complete)?.id;
    const cancel = new Request(`http://api.test/v1/store/orders/${shipped}`, {
      method: 'DELETE',
      headers: { authorization: 'Bearer petstore-dev-key' },
    });
    expect((await mock.handle(cancel)).status).toBe(409);
  });
});
