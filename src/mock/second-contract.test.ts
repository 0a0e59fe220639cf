/**
 * Two contracts in one process: the built-in v1 and a hand-made v2 draft (a `limit` parameter, servers
 * under `/v2`), each served by its own mock, each answering as its own document says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v2Draft } from '../../test-support/contracts/v2-draft.js';
import { loadContract } from '../contract/compile.js';
import { createMock, type Mock } from './index.js';

const AUTH = { authorization: 'Bearer k' };
let v1: Mock;
let v2: Mock;
const base = { v1: '', v2: '' };

beforeAll(async () => {
  const draft = loadContract(v2Draft());
  if (!draft.ok) throw new Error(draft.error);
  expect(draft.value.basePath).toBe('/v2');
  v1 = await createMock({ apiKeys: ['k'] });
  v2 = await createMock({ contract: draft.value, apiKeys: ['k'] });
  base.v1 = (await v1.listen({ port: 0 })).baseUrl;
  base.v2 = (await v2.listen({ port: 0 })).baseUrl;
});
afterAll(async () => {
  await Promise.all([v1.close(), v2.close()]);
});

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers: { ...AUTH, ...headers } });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? undefined : JSON.parse(text),
    headers: response.headers,
  };
}

describe('a v2 draft served beside the built-in contract, in one process', () => {
  it('serves the draft below its own base path, /v2', () => {
    expect(base.v2).toMatch(/\/v2$/);
    expect(base.v1).toMatch(/\/v1$/);
  });

  it.each([
    { name: 'a limit that is not a number', query: '?limit=abc' },
    { name: 'a limit below the minimum', query: '?limit=0' },
    { name: 'a limit above the maximum', query: '?limit=101' },
  ])('refuses $name with a 400 Error naming the parameter', async ({ query }) => {
    const { status, body } = await get(`${base.v2}/store/orders${query}`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'invalid_parameter', status: 400 });
    expect(body.message).toMatch(/query parameter limit/);
  });

  it('answers 200 with the list to a valid limit', async () => {
    const { status, body } = await get(`${base.v2}/store/orders?limit=5`);
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
  });

  it.each([
    { name: 'a normal 200', prefer: {} as Record<string, string>, count: (body: unknown[]) => body.length },
    { name: 'a Prefer-forced 200', prefer: { prefer: 'code=200' }, count: () => 2 },
  ])('sends the documented integer X-Total-Count on $name (issue 22)', async ({ prefer, count }) => {
    const { status, body, headers } = await get(`${base.v2}/store/orders`, prefer);
    expect(status).toBe(200);
    const total = headers.get('x-total-count');
    expect(total).toMatch(/^\d+$/);
    expect(Number(total)).toBe(count(body));
  });

  it('sends the documented header on a 200 a fault shaped', async () => {
    const session = { 'x-mock-session': 'total-count-fault' };
    const fault = await fetch(`${base.v2.slice(0, -'/v2'.length)}/__mock/faults`, {
      method: 'POST',
      headers: { ...AUTH, ...session, 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'listOrders', delayMs: 1 }),
    });
    expect(fault.status).toBe(201);
    const { headers } = await get(`${base.v2}/store/orders`, session);
    expect(headers.get('x-mock-fault')).toBe('control');
    expect(headers.get('x-total-count')).toMatch(/^\d+$/);
  });

  it('serves a draft whose documented header $ref leads nowhere, as the judge reads it: a header of unknown schema', async () => {
    const draft = v2Draft() as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { headers: Record<string, unknown> }> }>
      >;
    };
    const listed = draft.paths['/store/orders']?.get?.responses['200'];
    if (!listed) throw new Error('the draft has no 200 for GET /store/orders');
    listed.headers['X-Other'] = { $ref: '#/components/headers/Nope' };
    const contract = loadContract(draft);
    if (!contract.ok) throw new Error(contract.error);
    const mock = await createMock({ contract: contract.value, apiKeys: ['k'] });
    const answer = await mock.handle(new Request('http://127.0.0.1/v2/store/orders', { headers: AUTH }));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-total-count')).toMatch(/^\d+$/);
    expect(answer.headers.has('x-other')).toBe(true);
  });

  it('does not serve the v1 paths: /v1 is an unknown path on the v2 mock, and its 404 says where the API is', async () => {
    const origin = base.v2.slice(0, -'/v2'.length);
    const { status, body } = await get(`${origin}/v1/store/orders`);
    expect(status).toBe(404);
    expect(body).toMatchObject({ code: 'not_found', status: 404 });
    expect(body.message).toContain('The API lives under /v2: GET /v2/store/orders');
  });

  it('leaves the built-in mock as it was: /v1 served, limit undeclared and so ignored', async () => {
    expect((await get(`${base.v1}/store/orders?limit=abc`)).status).toBe(200);
    const origin = base.v1.slice(0, -'/v1'.length);
    expect((await get(`${origin}/v2/store/orders`)).status).toBe(404);
  });
});
