import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExactJson } from '../contract/lossless-json.js';
import { createMock, type Mock } from '../mock/index.js';
import { createPetstoreClient, type PetstoreClient } from './client.js';

const KEY = 'client-test-key';
const BELOW = 9007199254740992n; // 2^53
const ABOVE = 9007199254740993n; // 2^53 + 1: a double reads it as 2^53

let mock: Mock;
let baseUrl: string;
let client: PetstoreClient;

/** The mock's own view of an order's state, read exactly from its control endpoint. */
async function stateOf(id: bigint): Promise<string | undefined> {
  const response = await fetch(`${baseUrl.replace(/\/v1$/, '')}/__mock/state`, {
    headers: { authorization: `Bearer ${KEY}` },
  });
  const parsed = parseExactJson(await response.text());
  if (!parsed.ok) throw new Error(parsed.error);
  const orders = (parsed.value as { orders: Array<{ id: bigint | number; state: string }> }).orders;
  return orders.find((order) => BigInt(order.id) === id)?.state;
}

beforeAll(async () => {
  mock = await createMock({
    apiKeys: [KEY],
    fixtures: {
      orders: [
        { id: 1, petId: 10, quantity: 1, status: 'pending' },
        { id: 2, petId: 11, quantity: 1, status: 'shipped' },
        { id: BELOW, petId: BELOW, quantity: 1, status: 'pending' },
        { id: ABOVE, petId: ABOVE, quantity: 1, status: 'pending' },
      ],
    },
  });
  ({ baseUrl } = await mock.listen({ port: 0 }));
  client = createPetstoreClient({ baseUrl, apiKey: KEY });
});

afterAll(() => mock.close());

describe('createPetstoreClient over a real socket', () => {
  it('lists every int64 as its exact decimal string, small ids included', async () => {
    mock.reset();
    const { data, error, response } = await client.GET('/store/orders');
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data?.map((order) => [order.id, order.petId])).toEqual([
      ['1', '10'],
      ['2', '11'],
      [String(BELOW), String(BELOW)],
      [String(ABOVE), String(ABOVE)],
    ]);
  });

  it('cancels order 9007199254740993 from the id it listed, and leaves 9007199254740992 alone', async () => {
    mock.reset();
    const listed = await client.GET('/store/orders');
    const id = listed.data?.find((order) => order.id === '9007199254740993')?.id;
    expect(id).toBe('9007199254740993');
    const cancelled = await client.DELETE('/store/orders/{orderId}', {
      params: { path: { orderId: id ?? '0' } },
    });
    expect(cancelled.response.status).toBe(204);
    expect(cancelled.error).toBeUndefined();
    expect(await stateOf(ABOVE)).toBe('cancelled');
    expect(await stateOf(BELOW)).toBe('pending');
    const after = await client.GET('/store/orders');
    expect(after.data?.map((order) => order.id)).toEqual(['1', '2', String(BELOW)]);
  });

  it('survives a round trip through JSON.stringify, as front-end state does', async () => {
    mock.reset();
    const { data } = await client.GET('/store/orders');
    const stored = JSON.parse(JSON.stringify({ orders: data })) as { orders: NonNullable<typeof data> };
    const id = stored.orders.at(-1)?.id ?? '0';
    const { response } = await client.DELETE('/store/orders/{orderId}', {
      params: { path: { orderId: id } },
    });
    expect(response.status).toBe(204);
    expect(await stateOf(ABOVE)).toBe('cancelled');
  });

  it('takes a bigint path parameter exactly', async () => {
    mock.reset();
    const { response } = await client.DELETE('/store/orders/{orderId}', {
      params: { path: { orderId: ABOVE } },
    });
    expect(response.status).toBe(204);
    expect(await stateOf(ABOVE)).toBe('cancelled');
    expect(await stateOf(BELOW)).toBe('pending');
  });

  it('refuses a number path parameter beyond 2^53 instead of cancelling its neighbour', async () => {
    mock.reset();
    const unsafe = Number(ABOVE) as unknown as bigint; // what plain JavaScript would pass
    await expect(
      client.DELETE('/store/orders/{orderId}', { params: { path: { orderId: unsafe } } }),
    ).rejects.toThrow(/cannot hold an int64 exactly; pass the id as a decimal string/);
    expect(await stateOf(BELOW)).toBe('pending');
  });

  it.each([
    { name: 'a wrong key', status: 401, code: 'unauthorized', apiKey: 'wrong', orderId: '1' },
    { name: 'an unknown order', status: 404, code: 'order_not_found', apiKey: KEY, orderId: '404' },
    { name: 'a shipped order', status: 409, code: 'order_already_shipped', apiKey: KEY, orderId: '2' },
  ] as const)('gives $name as the typed Error ($status)', async ({ status, code, apiKey, orderId }) => {
    mock.reset();
    const other = createPetstoreClient({ baseUrl, apiKey });
    const { data, error, response } = await other.DELETE('/store/orders/{orderId}', {
      params: { path: { orderId } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(status);
    expect(error).toEqual({ code, status, message: expect.any(String) });
  });

  it('answers in-process through mock.handle as it does over the socket', async () => {
    mock.reset();
    const inProcess = createPetstoreClient({
      baseUrl,
      apiKey: KEY,
      fetch: (request) => mock.handle(request),
    });
    const [socket, handled] = [await client.GET('/store/orders'), await inProcess.GET('/store/orders')];
    expect(handled.data).toEqual(socket.data);
  });
});
