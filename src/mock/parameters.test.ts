import { describe, expect, it } from 'vitest';
import { loadContract } from '../contract/compile.js';
import { type Contract, defaultContract } from '../contract/index.js';
import { createMock } from './index.js';

/** The built-in document with parameters added to listOrders: what D21 says the mock must check. */
function contractWithParameters(): Contract {
  const document = structuredClone(defaultContract().document) as {
    paths: Record<string, { get: { parameters?: unknown[] } }>;
  };
  const listOrders = document.paths['/store/orders']?.get;
  if (!listOrders) throw new Error('the document has no listOrders');
  listOrders.parameters = [
    { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
    { name: 'state', in: 'query', schema: { type: 'string', enum: ['pending', 'shipped'] } },
    { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'integer' } } },
    { name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string', pattern: '^[a-z]+$' } },
  ];
  const loaded = loadContract(document);
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.value;
}

const mock = await createMock({ contract: contractWithParameters(), apiKeys: ['k'] });

async function ask(target: string, headers: Record<string, string> = { 'x-tenant': 'acme' }) {
  const response = await mock.handle(
    new Request(`http://mock.test${target}`, { headers: { authorization: 'Bearer k', ...headers } }),
  );
  return { status: response.status, body: (await response.json()) as { code?: string; message?: string } };
}

describe('every declared parameter is checked against its schema (D21)', () => {
  it.each([
    { name: 'a valid query parameter passes', target: '/v1/store/orders?limit=5', want: 200 },
    { name: 'an absent optional query parameter passes', target: '/v1/store/orders', want: 200 },
    { name: 'an undeclared query parameter is ignored', target: '/v1/store/orders?colour=red', want: 200 },
    { name: 'an enum value passes', target: '/v1/store/orders?state=shipped', want: 200 },
    { name: 'a repeated array parameter passes', target: '/v1/store/orders?tags=1&tags=2', want: 200 },
  ])('$name', async ({ target, want }) => {
    expect((await ask(target)).status).toBe(want);
  });

  it.each([
    { name: 'refuses text for an integer', target: '/v1/store/orders?limit=abc', names: /limit.*integer/ },
    {
      name: 'refuses an integer below the minimum',
      target: '/v1/store/orders?limit=0',
      names: /limit must be >= 1/,
    },
    {
      name: 'refuses an integer above the maximum',
      target: '/v1/store/orders?limit=101',
      names: /limit must be <= 100/,
    },
    { name: 'refuses a fraction for an integer', target: '/v1/store/orders?limit=1.5', names: /limit/ },
    {
      name: 'refuses a value outside the enum',
      target: '/v1/store/orders?state=lost',
      names: /state must be equal to one of the allowed values, got "lost"/,
    },
    {
      name: 'refuses a non-integer array item',
      target: '/v1/store/orders?tags=1&tags=x',
      names: /tags item 1/,
    },
    {
      name: 'refuses a scalar given twice',
      target: '/v1/store/orders?limit=1&limit=2',
      names: /limit takes one value, got 2/,
    },
  ])('$name with a 400 Error naming the parameter', async ({ target, names }) => {
    const { status, body } = await ask(target);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'invalid_parameter', status: 400 });
    expect(body.message).toMatch(names);
  });

  it.each<{ name: string; headers: Record<string, string>; names: RegExp }>([
    { name: 'a missing required header', headers: {}, names: /header parameter X-Tenant is required/ },
    {
      name: 'a header breaking its pattern',
      headers: { 'x-tenant': 'ACME' },
      names: /X-Tenant must match pattern/,
    },
  ])('refuses $name with a 400 Error', async ({ headers, names }) => {
    const { status, body } = await ask('/v1/store/orders', headers);
    expect({ status, code: body.code }).toEqual({ status: 400, code: 'invalid_parameter' });
    expect(body.message).toMatch(names);
  });

  it('keeps D9 for a malformed order id: 404, not 400', async () => {
    const response = await mock.handle(
      new Request('http://mock.test/v1/store/orders/1.5', {
        method: 'DELETE',
        headers: { authorization: 'Bearer k' },
      }),
    );
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'order_not_found', status: 404 });
  });

  it('checks the key before any parameter (D6)', async () => {
    const response = await mock.handle(new Request('http://mock.test/v1/store/orders?limit=abc'));
    expect(response.status).toBe(401);
  });
});
