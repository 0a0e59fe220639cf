/**
 * The mock in-process, through `handle(Request)`: every behaviour of issue 3 and D1–D15, with every
 * response checked against the document.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createMock, FixtureError, type Mock } from './index.js';
import { AUTH, conforming, KEY } from './test-support/document-check.js';

let mock: Mock;
beforeEach(async () => {
  mock = await createMock();
});

async function call(method: string, path: string, headers: Record<string, string> = AUTH, body?: string) {
  const response = await mock.handle(new Request(`http://mock.test${path}`, { method, headers, body }));
  return conforming(method, path, response);
}

const listedIds = async (headers: Record<string, string> = AUTH) =>
  ((await call('GET', '/v1/store/orders', headers)).text.match(/"id":(\d+)/g) ?? []).map((m) => m.slice(5));

describe('orders (§3, §4, D1–D3)', () => {
  it('lists pending and shipped orders with complete derived from the state (D1)', async () => {
    const { status, text } = await call('GET', '/v1/store/orders');
    expect(status).toBe(200);
    expect(text).toContain(
      '{"id":1,"petId":10,"quantity":1,"shipDate":"2026-12-01T10:00:00Z","complete":false}',
    );
    expect(text).toContain(
      '{"id":2,"petId":11,"quantity":3,"shipDate":"2026-11-02T09:30:00Z","complete":true}',
    );
    expect(text).toContain('"id":9007199254740993,');
    expect(text).not.toContain('"status"');
    expect(await listedIds()).not.toContain('12');
  });

  it('cancels a pending order: 204, gone from the list, cancelling again is 404 (D2)', async () => {
    expect((await call('DELETE', '/v1/store/orders/1')).status).toBe(204);
    expect(await listedIds()).not.toContain('1');
    const again = await call('DELETE', '/v1/store/orders/1');
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ code: 'order_not_found' });
  });

  it('cancels an order above 2^53 by its exact id (D8)', async () => {
    expect((await call('DELETE', '/v1/store/orders/9007199254740992')).status).toBe(404);
    expect((await call('DELETE', '/v1/store/orders/9007199254740993')).status).toBe(204);
    expect(await listedIds()).not.toContain('9007199254740993');
  });

  it('refuses to cancel a shipped order with a 409 Error and leaves it unchanged (D3)', async () => {
    const before = (await call('GET', '/v1/store/orders')).text;
    const refused = await call('DELETE', '/v1/store/orders/2');
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 'order_already_shipped',
      message: 'Order 2 has already shipped and cannot be cancelled.',
      status: 409,
    });
    expect((await call('GET', '/v1/store/orders')).text).toBe(before);
  });

  it.each([
    { name: 'an unknown id', id: '404' },
    { name: 'a word', id: 'abc' },
    { name: 'a fraction', id: '1.5' },
    { name: 'an id beyond int64', id: '9223372036854775808' },
    { name: 'a leading zero', id: '01' },
    { name: 'an exponent', id: '1e3' },
    { name: 'a broken escape', id: '%zz' },
    { name: 'an already cancelled order', id: '12' },
  ])('answers 404 order_not_found for $name (D9)', async ({ id }) => {
    const { status, body } = await call('DELETE', `/v1/store/orders/${id}`);
    expect(status).toBe(404);
    expect(body).toMatchObject({ code: 'order_not_found' });
  });
});

describe('authentication first (D6, D7)', () => {
  const cases: Array<{ name: string; headers: Record<string, string> }> = [
    { name: 'no header', headers: {} },
    { name: 'a wrong key', headers: { authorization: 'Bearer nope' } },
    { name: 'the Basic scheme', headers: { authorization: `Basic ${KEY}` } },
    { name: 'the Token scheme', headers: { authorization: `Token ${KEY}` } },
    { name: 'an empty token', headers: { authorization: 'Bearer ' } },
    { name: 'a bare key', headers: { authorization: KEY } },
  ];
  const targets = [
    ['GET', '/v1/store/orders'],
    ['DELETE', '/v1/store/orders/1'],
    ['DELETE', '/v1/store/orders/2'],
    ['DELETE', '/v1/store/orders/abc'],
    ['DELETE', '/v1/store/orders/404'],
    ['GET', '/v1/pets/10'],
    ['POST', '/v1/store/orders'],
    ['GET', '/v1/nowhere'],
    ['GET', '/__mock/state'],
  ];
  it.each(cases.flatMap((c) => targets.map(([method, path]) => ({ ...c, method, path }))))(
    'answers 401 to $method $path with $name',
    async ({ headers, method, path }) => {
      const { status, headers: out } = await call(method as string, path as string, headers);
      expect(status).toBe(401);
      expect(out.get('www-authenticate')).toMatch(/^Bearer/);
    },
  );

  it('does not change state for an unauthenticated cancel', async () => {
    await call('DELETE', '/v1/store/orders/1', {});
    expect(await listedIds()).toContain('1');
  });

  it('accepts a lower-case scheme name', async () => {
    expect((await call('GET', '/v1/store/orders', { authorization: `bearer ${KEY}` })).status).toBe(200);
  });
});

describe('unknown paths and methods (D10)', () => {
  it.each([
    { method: 'GET', path: '/v1/nowhere', status: 404, code: 'not_found' },
    { method: 'GET', path: '/store/orders', status: 404, code: 'not_found' },
    { method: 'GET', path: '/v2/store/orders', status: 404, code: 'not_found' },
    {
      method: 'POST',
      path: '/v1/store/orders',
      status: 405,
      code: 'method_not_allowed',
      allow: 'GET, OPTIONS',
    },
    {
      method: 'PUT',
      path: '/v1/store/orders/1',
      status: 405,
      code: 'method_not_allowed',
      allow: 'DELETE, OPTIONS',
    },
    { method: 'HEAD', path: '/v1/store/orders', status: 405, code: undefined, allow: 'GET, OPTIONS' },
    { method: 'PATCH', path: '/v1/pets/10', status: 405, code: 'method_not_allowed', allow: 'GET, OPTIONS' },
  ])('answers $method $path with $status', async ({ method, path, status, code, allow }) => {
    const out = await call(method, path);
    expect(out.status).toBe(status);
    if (code) expect(out.body).toMatchObject({ code, status });
    if (allow) expect(out.headers.get('allow')).toBe(allow);
  });
});

describe('pets (D11)', () => {
  it('serves a pet with Deprecation and Sunset headers', async () => {
    const { status, body, headers } = await call('GET', '/v1/pets/10');
    expect(status).toBe(200);
    expect(body).toEqual({ id: 10, name: 'Rex', species: 'dog' });
    expect(headers.get('deprecation')).toBe('@1767225600');
    expect(headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
  });

  it.each([
    { name: 'a 401 without a key', headers: {}, status: 401 },
    { name: 'a 400 for an undocumented Prefer code', headers: { ...AUTH, prefer: 'code=418' }, status: 400 },
  ])('announces the deprecation on $name too', async ({ headers, status }) => {
    const out = await call('GET', '/v1/pets/10', headers);
    expect(out.status).toBe(status);
    expect(out.headers.get('deprecation')).toBe('@1767225600');
    expect(out.headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
  });

  it('adds no deprecation headers to the 401 of an order operation', async () => {
    expect((await call('GET', '/v1/store/orders', {})).headers.get('deprecation')).toBeNull();
  });

  it.each(['404', 'rex'])('answers 404 not_found for pet %s, still deprecated', async (id) => {
    const { status, body, headers } = await call('GET', `/v1/pets/${id}`);
    expect(status).toBe(404);
    expect(body).toMatchObject({ code: 'not_found' });
    expect(headers.get('deprecation')).toBe('@1767225600');
  });
});

describe('CORS (D14)', () => {
  it('answers a preflight without a key', async () => {
    const { status, headers } = await call('OPTIONS', '/v1/store/orders/1', {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'DELETE',
      'access-control-request-headers': 'authorization',
    });
    expect(status).toBe(204);
    expect(headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(headers.get('access-control-allow-credentials')).toBe('true');
    expect(headers.get('access-control-allow-methods')).toBe('DELETE, OPTIONS');
    expect(headers.get('access-control-allow-headers')).toBe('authorization');
  });

  it('lets the front end read every answer, errors included', async () => {
    for (const [method, path, headers] of [
      ['GET', '/v1/store/orders', AUTH],
      ['GET', '/v1/store/orders', {}],
    ] as const) {
      const out = await call(method, path, headers);
      expect(out.headers.get('access-control-allow-origin')).toBe('*');
      expect(out.headers.get('access-control-expose-headers')).toMatch(/Deprecation/);
    }
  });

  it('answers a plain OPTIONS on an unknown path with 404', async () => {
    expect((await call('OPTIONS', '/v1/nowhere', {})).status).toBe(404);
  });

  it('lets every preflight pass, so the page reads the real 404 or 405 Error afterwards', async () => {
    const unknown = await call('OPTIONS', '/v1/nowhere', {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'GET',
    });
    expect(unknown.status).toBe(204);
    expect(unknown.headers.get('access-control-allow-methods')).toBe('GET');
    const undocumented = await call('OPTIONS', '/v1/store/orders', {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'PUT',
    });
    expect(undocumented.status).toBe(204);
    expect(undocumented.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS, PUT');
    expect(undocumented.headers.get('allow')).toBe('GET, OPTIONS');
  });
});

describe('Prefer: code=NNN', () => {
  it('forces a documented response without touching state', async () => {
    const forced = await call('DELETE', '/v1/store/orders/1', { ...AUTH, prefer: 'code=409' });
    expect(forced.status).toBe(409);
    expect(forced.headers.get('preference-applied')).toBe('code=409');
    expect(await listedIds()).toContain('1');
    const empty = await call('DELETE', '/v1/store/orders/1', { ...AUTH, prefer: 'code=204' });
    expect(empty.status).toBe(204);
    expect(await listedIds()).toContain('1');
  });

  it('sends the example body of the document', async () => {
    const { status, body } = await call('GET', '/v1/store/orders', { ...AUTH, prefer: 'code=200' });
    expect(status).toBe(200);
    expect(body).toHaveLength(2);
  });

  it('keeps the deprecation headers on a forced pet response', async () => {
    const { headers } = await call('GET', '/v1/pets/99', { ...AUTH, prefer: 'code=200' });
    expect(headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
  });

  it('answers an undocumented code with a 400 Error naming the documented ones', async () => {
    const { status, body } = await call('GET', '/v1/store/orders', { ...AUTH, prefer: 'code=418' });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'invalid_prefer' });
    expect((body as { message: string }).message).toMatch(/use one of 200, 401/);
  });

  it('still needs a key: authentication comes first', async () => {
    expect((await call('GET', '/v1/store/orders', { prefer: 'code=200' })).status).toBe(401);
  });
});

describe('control endpoints and sessions', () => {
  const session = (name: string) => ({ ...AUTH, 'x-mock-session': name });

  it('shows every order with its internal state', async () => {
    const { status, body } = await call('GET', '/__mock/state');
    expect(status).toBe(200);
    const state = body as {
      session: string;
      orders: Array<{ id: number | bigint; state: string }>;
      pets: unknown[];
    };
    expect(state.session).toBe('default');
    expect(state.orders.find((order) => order.id === 12)?.state).toBe('cancelled');
    expect(state.orders.find((order) => order.id === 9007199254740993n)?.state).toBe('pending');
    expect(state.pets.length).toBeGreaterThan(0);
  });

  it('adds an order in a given state (201), then replaces it (200)', async () => {
    const created = await call(
      'PUT',
      '/__mock/orders/500',
      AUTH,
      '{"state":"shipped","petId":10,"quantity":2}',
    );
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: 500, petId: 10, quantity: 2, complete: true, state: 'shipped' });
    expect((await call('DELETE', '/v1/store/orders/500')).status).toBe(409);
    const replaced = await call('PUT', '/__mock/orders/500', AUTH, '{"state":"pending"}');
    expect(replaced.status).toBe(200);
    expect((await call('DELETE', '/v1/store/orders/500')).status).toBe(204);
  });

  it.each([
    {
      name: 'an unknown state',
      body: '{"state":"lost"}',
      want: /"state" must be one of pending, shipped, cancelled/,
    },
    { name: 'no state', body: '{}', want: /"state" must be one of/ },
    {
      name: 'a bad date',
      body: '{"state":"pending","shipDate":"soon"}',
      want: /shipDate must be an ISO 8601/,
    },
    {
      name: 'a petId beyond int64',
      body: '{"state":"pending","petId":9223372036854775808}',
      want: /petId must be within int64/,
    },
    {
      name: 'an unknown field',
      body: '{"state":"pending","complete":true}',
      want: /Unknown field\(s\) complete/,
    },
    { name: 'a different id', body: '{"state":"pending","id":7}', want: /differs from the id 500/ },
    {
      name: 'an id that is not a number',
      body: '{"state":"pending","id":"abc"}',
      want: /differs from the id 500/,
    },
    { name: 'the id as a string', body: '{"state":"pending","id":"500"}', want: /differs from the id 500/ },
    { name: 'a fractional id', body: '{"state":"pending","id":500.5}', want: /differs from the id 500/ },
    { name: 'a boolean id', body: '{"state":"pending","id":true}', want: /differs from the id 500/ },
    { name: 'broken JSON', body: '{"state":', want: /must be a JSON object/ },
    { name: 'an array', body: '[]', want: /must be a JSON object/ },
  ])('refuses $name with a 400 Error', async ({ body, want }) => {
    const out = await call('PUT', '/__mock/orders/500', AUTH, body);
    expect(out.status).toBe(400);
    expect((out.body as { message: string }).message).toMatch(want);
  });

  it.each([
    ['/__mock/orders/500', '{"state":"shipped","id":500}'],
    ['/__mock/orders/9007199254740995', '{"state":"shipped","id":9007199254740995}'],
  ])('accepts a body that repeats the id of %s', async (path, body) => {
    // A fresh mock has no such order, so the PUT creates it.
    expect((await call('PUT', path, AUTH, body)).status).toBe(201);
    expect((await call('PUT', path, AUTH, body)).status).toBe(200);
  });

  it('refuses a malformed id on PUT', async () => {
    expect((await call('PUT', '/__mock/orders/abc', AUTH, '{"state":"pending"}')).status).toBe(400);
  });

  it('keeps named sessions apart and resets one of them', async () => {
    expect((await call('DELETE', '/v1/store/orders/1', session('alice'))).status).toBe(204);
    expect(await listedIds(session('alice'))).not.toContain('1');
    expect(await listedIds(session('bob'))).toContain('1');
    expect(await listedIds()).toContain('1');
    expect((await call('POST', '/__mock/reset', session('alice'))).status).toBe(200);
    expect(await listedIds(session('alice'))).toContain('1');
  });

  it('puts every session back with reset()', async () => {
    await call('DELETE', '/v1/store/orders/1');
    await call('DELETE', '/v1/store/orders/1', session('alice'));
    mock.reset();
    expect(await listedIds()).toContain('1');
    expect(await listedIds(session('alice'))).toContain('1');
  });

  it('logs the recent requests of a session', async () => {
    await call('GET', '/v1/store/orders', session('log'));
    await call('DELETE', '/v1/store/orders/2', session('log'));
    const { body } = await call('GET', '/__mock/requests', session('log'));
    const requests = (body as { requests: Array<{ method: string; path: string; status: number }> }).requests;
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'GET /v1/store/orders 200',
      'DELETE /v1/store/orders/2 409',
    ]);
  });

  it("keeps exactly the newest requests in a session's log once it is over its cap", async () => {
    const small = await createMock({ limits: { logSize: 5 } });
    for (let i = 0; i < 8; i++)
      await small.handle(new Request(`http://x/v1/store/orders?n=${i}`, { headers: session('capped') }));
    const log = await small.handle(new Request('http://x/__mock/requests', { headers: session('capped') }));
    const { capacity, requests } = (await log.json()) as {
      capacity: number;
      requests: Array<{ path: string }>;
    };
    expect(capacity).toBe(5);
    expect(requests.map((r) => r.path)).toEqual([3, 4, 5, 6, 7].map((i) => `/v1/store/orders?n=${i}`));
  });

  it("never lets requests without a valid key push a keyed entry out of the default session's log", async () => {
    const fresh = await createMock();
    const ask = async (path: string, init: RequestInit = {}) =>
      (await fresh.handle(new Request(`http://x${path}`, init))).status;
    expect(await ask('/v1/store/orders?mine=1', { headers: AUTH })).toBe(200);
    // Over the log's capacity (200), in every keyless shape: none, a wrong key, a preflight.
    for (let i = 0; i < 300; i++) {
      const shape = i % 3;
      if (shape === 0) expect(await ask(`/v1/store/orders?n=${i}`)).toBe(401);
      if (shape === 1)
        expect(await ask(`/v1/store/orders?n=${i}`, { headers: { authorization: 'Bearer wrong' } })).toBe(
          401,
        );
      if (shape === 2)
        expect(
          await ask(`/v1/store/orders?n=${i}`, {
            method: 'OPTIONS',
            headers: { origin: 'http://app.test', 'access-control-request-method': 'GET' },
          }),
        ).toBe(204);
    }
    const log = await fresh.handle(new Request('http://x/__mock/requests', { headers: AUTH }));
    const { capacity, keylessCapacity, requests } = (await log.json()) as {
      capacity: number;
      keylessCapacity: number;
      requests: Array<{ path: string; status: number; authenticated: boolean }>;
    };
    expect(capacity).toBe(200);
    const keyed = requests.filter((r) => r.authenticated);
    expect(keyed.map((r) => `${r.path} ${r.status}`)).toEqual(['/v1/store/orders?mine=1 200']);
    // The keyless requests stay visible for debugging: exactly the newest ones, in their own smaller ring.
    const keyless = requests.filter((r) => !r.authenticated);
    expect(keylessCapacity).toBe(50);
    expect(keyless.map((r) => r.path)).toEqual(
      Array.from({ length: 50 }, (_, i) => `/v1/store/orders?n=${250 + i}`),
    );
    // One timeline, oldest first: the keyed request came before every keyless one still kept.
    expect(requests[0]?.path).toBe('/v1/store/orders?mine=1');
  });

  it('keeps a bounded number of sessions: the least recently used one starts over', async () => {
    const small = await createMock({ limits: { maxSessions: 10, logSize: 5 } });
    const ask = async (name: string, method = 'GET', path = '/v1/store/orders') =>
      (await small.handle(new Request(`http://x${path}`, { method, headers: session(name) }))).status;
    expect(await ask('first', 'DELETE', '/v1/store/orders/1')).toBe(204);
    for (let i = 0; i < 500; i++) await ask(`crowd-${i}`);
    // 'first' was evicted, so it is seeded again: order 1 is pending there once more.
    expect(await ask('first', 'DELETE', '/v1/store/orders/1')).toBe(204);
    const log = await small.handle(
      new Request('http://x/__mock/requests', { headers: session('crowd-499') }),
    );
    expect(((await log.json()) as { requests: unknown[] }).requests.length).toBeLessThanOrEqual(5);
  });

  it('does not create sessions for requests without a valid key', async () => {
    const small = await createMock({ limits: { maxSessions: 2, logSize: 5 } });
    const cancel = (name: string, headers: Record<string, string>) =>
      small.handle(
        new Request('http://x/v1/store/orders/1', {
          method: 'DELETE',
          headers: { ...headers, 'x-mock-session': name },
        }),
      );
    expect((await cancel('mine', AUTH)).status).toBe(204);
    for (let i = 0; i < 50; i++) expect((await cancel(`intruder-${i}`, {})).status).toBe(401);
    // Had the 401s created sessions, 'mine' would have been evicted and order 1 would be pending again.
    expect((await cancel('mine', AUTH)).status).toBe(404);
  });

  it('refuses a session name longer than 128 characters', async () => {
    expect((await call('GET', '/v1/store/orders', session('x'.repeat(129)))).status).toBe(400);
  });
});

describe('createMock', () => {
  it('takes fixture data and keys in-process', async () => {
    const custom = await createMock({
      fixtures: { orders: [{ id: 5n, status: 'pending' }] },
      apiKeys: ['k1', 'k2'],
    });
    expect(custom.apiKeys).toEqual(['k1', 'k2']);
    const response = await custom.handle(
      new Request('http://x/v1/store/orders', { headers: { authorization: 'Bearer k2' } }),
    );
    expect(await response.text()).toBe('[{"id":5,"complete":false}]');
  });

  it('falls back to the development key when the fixtures name none', async () => {
    expect((await createMock({ fixtures: {} })).apiKeys).toEqual(['petstore-dev-key']);
  });

  it('rejects bad fixtures with a FixtureError', async () => {
    await expect(
      createMock({ fixtures: { orders: [{ id: 1, status: 'lost' as 'pending' }] } }),
    ).rejects.toThrow(FixtureError);
  });

  it('rejects a key that cannot be sent', async () => {
    await expect(createMock({ apiKeys: ['two words'] })).rejects.toThrow(/cannot be sent as a bearer token/);
  });

  it('writes one log line per request', async () => {
    const lines: string[] = [];
    const logged = await createMock({ log: (line) => lines.push(line) });
    await logged.handle(new Request('http://x/v1/store/orders', { headers: AUTH }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^GET \/v1\/store\/orders 200 \d+\.\dms$/);
  });

  it('reloads fixtures, keeping everything on a bad reload', async () => {
    expect(mock.reload({ orders: [{ id: 1, status: 'lost' as 'pending' }] }).ok).toBe(false);
    expect(await listedIds()).toContain('2');
    expect(mock.reload({ orders: [{ id: 77, status: 'pending' }] }).ok).toBe(true);
    expect(await listedIds()).toEqual(['77']);
  });
});
