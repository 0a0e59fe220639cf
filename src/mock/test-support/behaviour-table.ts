/**
 * One behaviour table for every way of running the mock (Hono's `common.case.test.ts` pattern): the same
 * cases run over the real socket, through `handle(Request)` and through MSW's `setupServer`, each from a
 * short test file that only says how to send a request. A case that passes on one and fails on another is
 * a bug. Every answer is also checked against the document (`expectConforms`) and for the headers every
 * answer carries.
 *
 * The ids are those of `fixtures/default.yaml` (docs/mock.md lists them). Each case works in its own
 * session, so cases cannot disturb each other and the order they run in does not matter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, expectConforms, KEY } from './document-check.js';

export interface Exchange {
  method: string;
  /** Path and query as sent, below the mock's origin: `/v1/store/orders`. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Answer {
  status: number;
  /** A response header by lower-case name. */
  header(name: string): string | undefined;
  text: string;
}

export interface Runner {
  send(exchange: Exchange): Promise<Answer>;
  stop(): Promise<void>;
}

interface Want {
  /** The HTTP status; `'dropped'` for a connection closed without an answer (a simulated fault, D18). */
  status: number | 'dropped';
  /** The Error's `code`, for an error answer. */
  code?: string;
  /** The Error's `message`, where the exact words matter. */
  message?: string;
  headers?: Record<string, string>;
  /** Response headers that must not be there. */
  absent?: string[];
  includes?: string[];
  excludes?: string[];
}

interface Step {
  request: Exchange;
  want: Want;
}

interface Case {
  name: string;
  steps: Step[];
}

const NO_AUTH = {};
const get = (path: string, headers: Record<string, string> = AUTH): Exchange => ({
  method: 'GET',
  path,
  headers,
});
const cancel = (id: string, headers: Record<string, string> = AUTH): Exchange => ({
  method: 'DELETE',
  path: `/v1/store/orders/${id}`,
  headers,
});
const put = (id: string, body: string): Exchange => ({
  method: 'PUT',
  path: `/__mock/orders/${id}`,
  headers: { ...AUTH, 'content-type': 'application/json' },
  body,
});
const LIST = '/v1/store/orders';
const ORIGIN = 'http://localhost:5173';
/** A page on the web, which must not read or steer a developer's mock (D14). */
const FOREIGN = 'https://evil.example';
const CORS_GRANTS = [
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-allow-methods',
];
const refusedOrigin = { status: 403, code: 'origin_not_allowed', absent: CORS_GRANTS };
const addFault = (fault: Record<string, unknown>, headers: Record<string, string> = AUTH): Exchange => ({
  method: 'POST',
  path: '/__mock/faults',
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify(fault),
});
const simulated = (status: number, marker: 'prefer' | 'control'): Want => ({
  status,
  code: 'simulated_fault',
  headers: { 'x-mock-fault': marker },
});
const unauthorized: Want = {
  status: 401,
  code: 'unauthorized',
  headers: { 'www-authenticate': 'Bearer realm="petstore"' },
};
const notFound = (id: string): Want => ({
  status: 404,
  code: 'order_not_found',
  message: `No order has id ${id}.`,
});
const PET_HEADERS = { deprecation: '@1767225600', sunset: 'Wed, 30 Jun 2027 00:00:00 GMT' };

export const BEHAVIOUR: readonly Case[] = [
  // Authentication (§5, D6, D7).
  {
    name: 'a valid key lists the orders, ids above 2^53 exact',
    steps: [
      {
        request: get(LIST),
        want: { status: 200, includes: ['"id":9007199254740993,', '"id":9223372036854775807,'] },
      },
    ],
  },
  {
    name: 'a lower-case scheme name is accepted (RFC 9110 §11.1)',
    steps: [{ request: get(LIST, { authorization: `bearer ${KEY}` }), want: { status: 200 } }],
  },
  { name: 'no Authorization header is 401', steps: [{ request: get(LIST, NO_AUTH), want: unauthorized }] },
  {
    name: 'a wrong key is 401',
    steps: [{ request: get(LIST, { authorization: 'Bearer wrong-key' }), want: unauthorized }],
  },
  {
    name: 'a key one character longer is 401',
    steps: [{ request: get(LIST, { authorization: `Bearer ${KEY}x` }), want: unauthorized }],
  },
  {
    name: 'the Basic scheme is 401',
    steps: [{ request: get(LIST, { authorization: `Basic ${KEY}` }), want: unauthorized }],
  },
  { name: 'a bare key is 401', steps: [{ request: get(LIST, { authorization: KEY }), want: unauthorized }] },
  {
    name: 'two tokens are 401',
    steps: [{ request: get(LIST, { authorization: `Bearer ${KEY} ${KEY}` }), want: unauthorized }],
  },
  {
    name: 'an unknown path without a key is 401, not 404 (D6)',
    steps: [{ request: get('/v1/nothing', NO_AUTH), want: unauthorized }],
  },
  {
    name: 'a shipped order without a key is 401, not 409 (D6)',
    steps: [{ request: cancel('2', NO_AUTH), want: unauthorized }],
  },
  {
    name: 'a pet read without a key is 401 (§5)',
    steps: [{ request: get('/v1/pets/10', NO_AUTH), want: unauthorized }],
  },
  // Cancel rules (§3, D2, D3).
  {
    name: 'cancels a pending order once, then 404, and it leaves the list (D2)',
    steps: [
      { request: cancel('1'), want: { status: 204 } },
      { request: cancel('1'), want: notFound('1') },
      { request: get(LIST), want: { status: 200, excludes: ['"id":1,'], includes: ['"id":3,'] } },
    ],
  },
  {
    name: 'refuses to cancel a shipped order with 409 and keeps it listed (D3)',
    steps: [
      {
        request: cancel('2'),
        want: {
          status: 409,
          code: 'order_already_shipped',
          message: 'Order 2 has already shipped and cannot be cancelled.',
        },
      },
      { request: get(LIST), want: { status: 200, includes: ['"id":2,"petId":11,"quantity":3'] } },
    ],
  },
  { name: 'a cancelled fixture order is 404', steps: [{ request: cancel('12'), want: notFound('12') }] },
  { name: 'an unknown id is 404', steps: [{ request: cancel('404'), want: notFound('404') }] },
  // int64 (D8, D9).
  {
    name: 'cancels 9007199254740993 exactly and never 9007199254740992 (D8)',
    steps: [
      { request: cancel('9007199254740992'), want: notFound('9007199254740992') },
      { request: get(LIST), want: { status: 200, includes: ['"id":9007199254740993,'] } },
      { request: cancel('9007199254740993'), want: { status: 204 } },
      { request: get(LIST), want: { status: 200, excludes: ['9007199254740993'] } },
      { request: cancel('9007199254740993'), want: notFound('9007199254740993') },
    ],
  },
  {
    name: 'the largest int64 is a shipped order (409)',
    steps: [{ request: cancel('9223372036854775807'), want: { status: 409, code: 'order_already_shipped' } }],
  },
  {
    name: 'one past the largest int64 names no order (D9)',
    steps: [{ request: cancel('9223372036854775808'), want: notFound('9223372036854775808') }],
  },
  {
    name: 'only the canonical spelling names order 0: -0, 00 and +0 do not',
    steps: [
      { request: put('0', '{"state":"pending"}'), want: { status: 201 } },
      { request: cancel('-0'), want: notFound('-0') },
      { request: cancel('00'), want: notFound('00') },
      { request: cancel('+0'), want: notFound('+0') },
      { request: cancel('0'), want: { status: 204 } },
    ],
  },
  {
    name: 'non-canonical ids are refused by the control endpoints too',
    steps: [
      { request: put('-0', '{"state":"pending"}'), want: { status: 400, code: 'invalid_request' } },
      { request: put('01', '{"state":"pending"}'), want: { status: 400, code: 'invalid_request' } },
    ],
  },
  {
    name: 'a malformed id is 404 order_not_found (D9)',
    steps: [
      { request: cancel('abc'), want: notFound('abc') },
      { request: cancel('1.5'), want: notFound('1.5') },
      { request: cancel('01'), want: notFound('01') },
    ],
  },
  // Routes (D10) and the request target.
  {
    name: 'an unknown path under /v1 is 404 not_found',
    steps: [{ request: get('/v1/store/nothing'), want: { status: 404, code: 'not_found' } }],
  },
  {
    name: 'a trailing slash names no order: 404 not_found, not an empty id (D10)',
    steps: [
      { request: get('/v1/store/orders/'), want: { status: 404, code: 'not_found' } },
      { request: cancel(''), want: { status: 404, code: 'not_found' } },
      { request: get('/v1/pets/'), want: { status: 404, code: 'not_found' } },
    ],
  },
  {
    name: 'another method on the list is 405 with Allow',
    steps: [
      {
        request: { method: 'POST', path: LIST, headers: AUTH },
        want: { status: 405, code: 'method_not_allowed', headers: { allow: 'GET, OPTIONS' } },
      },
    ],
  },
  {
    name: 'PUT on an order is 405 with Allow',
    steps: [
      {
        request: { method: 'PUT', path: '/v1/store/orders/1', headers: AUTH },
        want: { status: 405, code: 'method_not_allowed', headers: { allow: 'DELETE, OPTIONS' } },
      },
    ],
  },
  {
    name: 'dot segments are resolved as a browser resolves them',
    steps: [
      { request: get('/v1/store/./orders'), want: { status: 200, includes: ['"id":1,'] } },
      { request: get('/v1/pets/../store/orders'), want: { status: 200, includes: ['"id":1,'] } },
    ],
  },
  {
    name: 'a percent-escaped path names the same resource',
    steps: [{ request: get('/v1/store/%6Frders'), want: { status: 200 } }],
  },
  {
    name: 'a pet is served with Deprecation and Sunset, on its 404 too (D11)',
    steps: [
      {
        request: get('/v1/pets/10'),
        want: { status: 200, includes: ['"name":"Rex"'], headers: PET_HEADERS },
      },
      { request: get('/v1/pets/99'), want: { status: 404, code: 'not_found', headers: PET_HEADERS } },
    ],
  },
  // Prefer.
  {
    name: 'Prefer: code=409 forces the Error naming the order asked for, without touching state',
    steps: [
      {
        request: { ...cancel('1'), headers: { ...AUTH, prefer: 'code=409' } },
        want: {
          status: 409,
          code: 'order_already_shipped',
          message: 'Order 1 has already shipped and cannot be cancelled.',
          headers: { 'preference-applied': 'code=409' },
        },
      },
      { request: { ...cancel('2'), headers: { ...AUTH, prefer: 'code=404' } }, want: notFound('2') },
      { request: cancel('1'), want: { status: 204 } },
    ],
  },
  {
    name: 'Prefer: an undocumented 4xx is 400 invalid_prefer',
    steps: [
      { request: get(LIST, { ...AUTH, prefer: 'code=418' }), want: { status: 400, code: 'invalid_prefer' } },
    ],
  },
  // Simulated faults (D18): opt-in, per session, marked as simulated.
  {
    name: 'Prefer: code=500 and code=503 answer a simulated-fault Error without touching state',
    steps: [
      {
        request: { ...cancel('1'), headers: { ...AUTH, prefer: 'code=500' } },
        want: simulated(500, 'prefer'),
      },
      {
        request: { ...cancel('1'), headers: { ...AUTH, prefer: 'code=503' } },
        want: simulated(503, 'prefer'),
      },
      { request: cancel('1'), want: { status: 204 } },
    ],
  },
  {
    name: 'a fault fails the next N requests of one operation, then is spent',
    steps: [
      { request: addFault({ operation: 'listOrders', status: 503, times: 2 }), want: { status: 201 } },
      { request: get('/v1/pets/10'), want: { status: 200 } },
      { request: get(LIST), want: simulated(503, 'control') },
      { request: get(LIST), want: simulated(503, 'control') },
      { request: get(LIST), want: { status: 200 } },
    ],
  },
  {
    name: 'a fault with a documented status answers as the document does, naming the id',
    steps: [
      { request: addFault({ operation: 'cancelOrder', status: 409 }), want: { status: 201 } },
      {
        request: cancel('3'),
        want: {
          status: 409,
          code: 'order_already_shipped',
          message: 'Order 3 has already shipped and cannot be cancelled.',
          headers: { 'x-mock-fault': 'control' },
        },
      },
      { request: cancel('3'), want: { status: 204 } },
    ],
  },
  {
    name: 'a fault stays in its session',
    steps: [
      { request: addFault({ status: 500 }, { ...AUTH, 'x-mock-session': 'fault-a' }), want: { status: 201 } },
      { request: get(LIST, { ...AUTH, 'x-mock-session': 'fault-b' }), want: { status: 200 } },
      { request: get(LIST, { ...AUTH, 'x-mock-session': 'fault-a' }), want: simulated(500, 'control') },
    ],
  },
  {
    name: 'a request without a key never uses up a fault',
    steps: [
      { request: addFault({ status: 502 }), want: { status: 201 } },
      { request: get(LIST, NO_AUTH), want: unauthorized },
      { request: get(LIST), want: simulated(502, 'control') },
    ],
  },
  {
    name: 'a dropped connection is a network error, and the next request is answered',
    steps: [
      { request: addFault({ operation: 'cancelOrder', drop: true }), want: { status: 201 } },
      { request: cancel('1'), want: { status: 'dropped' } },
      { request: cancel('1'), want: { status: 204 } },
    ],
  },
  {
    name: 'DELETE /__mock/faults clears the faults and control endpoints never fail',
    steps: [
      { request: addFault({ status: 500, times: 3 }), want: { status: 201 } },
      { request: get('/__mock/faults'), want: { status: 200, includes: ['"remaining":3'] } },
      { request: { method: 'DELETE', path: '/__mock/faults', headers: AUTH }, want: { status: 200 } },
      { request: get(LIST), want: { status: 200 } },
    ],
  },
  {
    name: 'a fault that cannot be read is 400 invalid_request',
    steps: [
      {
        request: addFault({ operation: 'nope', status: 500 }),
        want: { status: 400, code: 'invalid_request' },
      },
      { request: addFault({ status: 200 }), want: { status: 400, code: 'invalid_request' } },
    ],
  },
  // CORS (D14).
  {
    name: "a page's Origin is reflected with credentials, on errors too",
    steps: [
      {
        request: get(LIST, { ...AUTH, origin: ORIGIN }),
        want: {
          status: 200,
          headers: { 'access-control-allow-origin': ORIGIN, 'access-control-allow-credentials': 'true' },
        },
      },
      {
        request: get(LIST, { origin: ORIGIN }),
        want: {
          ...unauthorized,
          headers: { ...unauthorized.headers, 'access-control-allow-origin': ORIGIN },
        },
      },
    ],
  },
  {
    name: 'a preflight reflects the method and headers asked for, without a key',
    steps: [
      {
        request: {
          method: 'OPTIONS',
          path: '/v1/store/orders/1',
          headers: {
            origin: ORIGIN,
            'access-control-request-method': 'DELETE',
            'access-control-request-headers': 'authorization,x-request-id',
          },
        },
        want: {
          status: 204,
          headers: {
            'access-control-allow-origin': ORIGIN,
            'access-control-allow-credentials': 'true',
            'access-control-allow-methods': 'DELETE, OPTIONS',
            'access-control-allow-headers': 'authorization, x-request-id',
          },
        },
      },
    ],
  },
  {
    name: 'a page on a foreign origin gets no CORS grant, so its script reads nothing and sends no key',
    steps: [
      {
        request: get(LIST, { ...AUTH, origin: FOREIGN }),
        want: { status: 200, absent: CORS_GRANTS },
      },
      {
        request: {
          method: 'OPTIONS',
          path: '/v1/store/orders/1',
          headers: { origin: FOREIGN, 'access-control-request-method': 'DELETE' },
        },
        want: { status: 204, absent: [...CORS_GRANTS, 'access-control-allow-headers'] },
      },
    ],
  },
  {
    name: 'the control endpoints refuse a foreign origin, preflights included, with or without a key',
    steps: [
      { request: get('/__mock/state', { ...AUTH, origin: FOREIGN }), want: refusedOrigin },
      { request: get('/__mock/requests', { origin: FOREIGN }), want: refusedOrigin },
      {
        request: { method: 'POST', path: '/__mock/reset', headers: { ...AUTH, origin: FOREIGN } },
        want: refusedOrigin,
      },
      { request: addFault({ status: 503 }, { ...AUTH, origin: FOREIGN }), want: refusedOrigin },
      {
        request: {
          method: 'PUT',
          path: '/__mock/delay',
          headers: { ...AUTH, origin: FOREIGN, 'content-type': 'application/json' },
          body: '{"delayMs":600000}',
        },
        want: refusedOrigin,
      },
      {
        request: {
          method: 'OPTIONS',
          path: '/__mock/delay',
          headers: { origin: FOREIGN, 'access-control-request-method': 'PUT' },
        },
        want: refusedOrigin,
      },
      { request: get('/__mock/nothing-here', { ...AUTH, origin: FOREIGN }), want: refusedOrigin },
      // A sandboxed frame of any site has the origin `null`: not local.
      { request: get('/__mock/state', { ...AUTH, origin: 'null' }), want: refusedOrigin },
      // Nothing the refused requests asked for happened.
      { request: get('/__mock/delay'), want: { status: 200, includes: ['"delayMs":0'] } },
      {
        request: get('/__mock/faults', { ...AUTH, origin: ORIGIN }),
        want: { status: 200, includes: ['"faults":[]'] },
      },
    ],
  },
  {
    name: 'Prefer does not get past the key',
    steps: [{ request: get(LIST, { prefer: 'code=200' }), want: unauthorized }],
  },
  // Sessions.
  {
    name: 'each session keeps its own state',
    steps: [
      { request: cancel('3', { ...AUTH, 'x-mock-session': 'table-a' }), want: { status: 204 } },
      { request: cancel('3', { ...AUTH, 'x-mock-session': 'table-b' }), want: { status: 204 } },
      { request: cancel('3', { ...AUTH, 'x-mock-session': 'table-a' }), want: notFound('3') },
    ],
  },
  {
    name: 'a session name over 128 characters is 400 invalid_session',
    steps: [
      {
        request: get(LIST, { ...AUTH, 'x-mock-session': 's'.repeat(129) }),
        want: { status: 400, code: 'invalid_session' },
      },
    ],
  },
  // Control endpoints.
  {
    name: 'PUT /__mock/orders seeds an order and POST /__mock/reset forgets it',
    steps: [
      {
        request: put('500', '{"state":"shipped","petId":10}'),
        want: { status: 201, includes: ['"state":"shipped"'] },
      },
      { request: put('500', '{"state":"shipped","petId":10}'), want: { status: 200 } },
      { request: cancel('500'), want: { status: 409, code: 'order_already_shipped' } },
      { request: { method: 'POST', path: '/__mock/reset', headers: AUTH }, want: { status: 200 } },
      { request: cancel('500'), want: notFound('500') },
    ],
  },
  {
    name: 'GET /__mock/state shows a cancelled order with its state',
    steps: [
      { request: cancel('5'), want: { status: 204 } },
      {
        request: get('/__mock/state'),
        want: {
          status: 200,
          includes: [
            '{"id":5,"petId":14,"quantity":2,"shipDate":"2026-12-08T08:00:00Z","complete":false,"state":"cancelled"}',
          ],
        },
      },
    ],
  },
  {
    name: "GET /__mock/requests lists the session's requests",
    steps: [
      { request: get(LIST), want: { status: 200 } },
      {
        request: get('/__mock/requests'),
        want: { status: 200, includes: ['"method":"GET","path":"/v1/store/orders","status":200'] },
      },
    ],
  },
  {
    name: 'control endpoints need a key',
    steps: [{ request: { method: 'POST', path: '/__mock/reset', headers: NO_AUTH }, want: unauthorized }],
  },
  {
    name: 'a control body that is not an order is 400 invalid_request',
    steps: [{ request: put('501', '{"state":"lost"}'), want: { status: 400, code: 'invalid_request' } }],
  },
  {
    name: 'a body over 64 KiB is 413',
    steps: [{ request: put('502', 'x'.repeat(70_000)), want: { status: 413, code: 'payload_too_large' } }],
  },
];

/** Each case in a session of its own, unless it names its sessions itself. */
function inSession(request: Exchange, session: string): Exchange {
  const headers = request.headers ?? {};
  return 'x-mock-session' in headers
    ? request
    : { ...request, headers: { ...headers, 'x-mock-session': session } };
}

/**
 * Runs the whole table against one way of running the mock, started on the default fixtures.
 *
 * @example describeBehaviour('handle(Request)', async () => ({ send, stop }))
 */
export function describeBehaviour(runnerName: string, start: () => Promise<Runner>): void {
  describe(`the mock's behaviour, ${runnerName}`, () => {
    let runner: Runner;
    beforeAll(async () => {
      runner = await start();
    });
    afterAll(() => runner.stop());

    it.each(BEHAVIOUR.map((c, index) => ({ ...c, index })))('$name', async ({ steps, index }) => {
      for (const [n, step] of steps.entries()) {
        const request = inSession(step.request, `case-${index}`);
        const where = `step ${n + 1}: ${request.method} ${request.path}`;
        if (step.want.status === 'dropped') {
          // Every runner's client reports a network error: fetch and handle() reject, node:http hangs up.
          await expect(runner.send(request), where).rejects.toThrow();
          continue;
        }
        const answer = await runner.send(request);
        expect(answer.status, `${where}: ${answer.text.slice(0, 200)}`).toBe(step.want.status);
        const body = expectConforms(request.method, request.path, {
          status: answer.status,
          contentType: answer.header('content-type') ?? null,
          text: answer.text,
          simulated: answer.header('x-mock-fault') !== undefined,
        }) as { code?: string; message?: string } | undefined;
        const origin = request.headers?.origin;
        const granted =
          origin === undefined ? '*' : origin === FOREIGN || origin === 'null' ? undefined : origin;
        expect(answer.header('access-control-allow-origin'), `${where}: CORS`).toBe(granted);
        expect(answer.header('vary'), `${where}: Vary`).toMatch(/^Origin\b/);
        if (step.want.code !== undefined) expect(body?.code, where).toBe(step.want.code);
        if (step.want.message !== undefined) expect(body?.message, where).toBe(step.want.message);
        for (const [name, value] of Object.entries(step.want.headers ?? {})) {
          expect(answer.header(name), `${where}: ${name}`).toBe(value);
        }
        for (const name of step.want.absent ?? [])
          expect(answer.header(name), `${where}: ${name}`).toBeUndefined();
        for (const text of step.want.includes ?? []) expect(answer.text, where).toContain(text);
        for (const text of step.want.excludes ?? []) expect(answer.text, where).not.toContain(text);
      }
    });
  });
}
